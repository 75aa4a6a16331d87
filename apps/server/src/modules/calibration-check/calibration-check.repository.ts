import type { CalibrationCheckVerdict, ProcessErrorCode } from '@emolens/contracts';
import { type Insertable, type Kysely, sql } from 'kysely';
import type { CalibrationCheckRow, CalibrationChecksTable, DB } from '../../db/types.ts';

type Key = { session_id: string; attempt: number };

/** A recorded segment with its stored chunks in order (what `joinSegments` of the engine jobs takes). */
interface SegmentChunks {
  segment: number;
  offset_ms: number;
  mime_type: string;
  chunks: { storage_key: string }[];
}

/**
 * The only Kysely user of the calibration checks (decision 050), and of the session columns they move: the check's
 * verdict, and the session's end as "calibration failed" (the panel is told screen-out; no quota slot is held).
 */
export function createCalibrationChecksRepository(db: Kysely<DB>) {
  const one = (key: Key) =>
    db.updateTable('calibration_checks').where('session_id', '=', key.session_id).where('attempt', '=', key.attempt);

  return {
    /** The check of this attempt: the one asked for first (a repeat of the request finds it). */
    async create(row: Insertable<CalibrationChecksTable>): Promise<{ row: CalibrationCheckRow; created: boolean }> {
      const inserted = await db
        .insertInto('calibration_checks')
        .values(row)
        .onConflict((oc) => oc.columns(['session_id', 'attempt']).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted) return { row: inserted, created: true };
      const existing = await db
        .selectFrom('calibration_checks')
        .selectAll()
        .where('session_id', '=', row.session_id)
        .where('attempt', '=', row.attempt)
        .executeTakeFirstOrThrow();
      return { row: existing, created: false };
    },

    find(sessionId: string, attempt: number): Promise<CalibrationCheckRow | undefined> {
      return db
        .selectFrom('calibration_checks')
        .selectAll()
        .where('session_id', '=', sessionId)
        .where('attempt', '=', attempt)
        .executeTakeFirst();
    },

    /** A run takes the check (queued, or processing again after a crashed worker). */
    claim(key: Key): Promise<CalibrationCheckRow | undefined> {
      return one(key)
        .set({ status: 'processing', progress: 0, attempts: sql`attempts + 1`, updated_at: sql`now()` })
        .where('status', 'in', ['queued', 'processing'])
        .returningAll()
        .executeTakeFirst();
    },

    /** Progress of a running check; false when it is over (timed out meanwhile): the engine stops. */
    async progress(key: Key, percent: number): Promise<boolean> {
      const row = await one(key)
        .set({ progress: Math.max(0, Math.min(100, percent)), updated_at: sql`now()` })
        .where('status', '=', 'processing')
        .returning('attempt')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The engine's answer; false when the check was over before it (timed out). */
    async finish(key: Key, passed: boolean, accuracyPercent: number | null): Promise<boolean> {
      const row = await one(key)
        .set({
          status: passed ? 'passed' : 'failed',
          progress: 100,
          accuracy_percent: accuracyPercent,
          updated_at: sql`now()`,
        })
        .where('status', '=', 'processing')
        .returning('attempt')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The check could not run (the engine failed for good, or it took too long); false when it was over already. */
    async fail(key: Key, code: ProcessErrorCode): Promise<boolean> {
      const row = await one(key)
        .set({ status: 'error', error_code: code, updated_at: sql`now()` })
        .where('status', 'in', ['queued', 'processing'])
        .returning('attempt')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** A session's recording so far: its segments with their stored chunks in order, and its event log. */
    async recording(sessionId: string): Promise<{ segments: SegmentChunks[]; events: unknown[] }> {
      const [segments, chunks, batches] = await Promise.all([
        db
          .selectFrom('recording_segments')
          .select(['segment', 'offset_ms', 'mime_type'])
          .where('session_id', '=', sessionId)
          .orderBy('segment')
          .execute(),
        db
          .selectFrom('recording_chunks')
          .select(['segment', 'storage_key'])
          .where('session_id', '=', sessionId)
          .orderBy('segment')
          .orderBy('index')
          .execute(),
        db
          .selectFrom('session_event_batches')
          .select('events')
          .where('session_id', '=', sessionId)
          .orderBy('seq')
          .execute(),
      ]);
      return {
        segments: segments.map((s) => ({ ...s, chunks: chunks.filter((c) => c.segment === s.segment) })),
        events: batches.flatMap((b) => b.events as unknown[]),
      };
    },

    /** The session's verdict, while it runs (a later verdict of the same session replaces an earlier one). */
    async setVerdict(sessionId: string, verdict: CalibrationCheckVerdict): Promise<void> {
      await db
        .updateTable('respondent_sessions')
        .set({ calibration_check: verdict })
        .where('id', '=', sessionId)
        .where('status', '=', 'started')
        .execute();
    },

    /**
     * A second failure with the research's `end`: the session ends before the content as "calibration failed",
     * told to the panel as a screen-out; it never held a quota slot (only completions do). False when it had ended.
     */
    async endCalibrationFailed(sessionId: string): Promise<boolean> {
      const result = await db
        .updateTable('respondent_sessions')
        .set({
          status: 'calibration_failed',
          outcome: 'screen_out',
          calibration_check: 'failed',
          step: 'end',
          ended_at: sql<Date>`now()`,
          last_seen_at: sql<Date>`now()`,
        })
        .where('id', '=', sessionId)
        .where('status', '=', 'started')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type CalibrationChecksRepository = ReturnType<typeof createCalibrationChecksRepository>;
