import type { PhantomTruthInput, VideoProcessStatus } from '@emolens/contracts';
import type { PerSecondSeries, SessionSummaryOut } from '@emolens/engine';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.ts';

/** A research's video process of a session that carries a truth, with its current result when there is one. */
export interface TruthProcessRow {
  process_id: string;
  session_id: string;
  participant_id: string | null;
  status: VideoProcessStatus;
  truth: PhantomTruthInput;
  /** Where the recording's first segment starts on the session clock (the truth's 0), ms; null without one. */
  recording_start_ms: number | null;
  result: { frames: Uint8Array; summary: SessionSummaryOut; series: PerSecondSeries } | null;
}

export function createPhantomTruthsRepository(db: Kysely<DB>) {
  return {
    /** The session's preview flag, or undefined when there is no such session. */
    async sessionKind(sessionId: string): Promise<{ is_preview: boolean } | undefined> {
      return db.selectFrom('respondent_sessions').select('is_preview').where('id', '=', sessionId).executeTakeFirst();
    },

    /** Stores the session's truth, replacing the one it had; true when it had none. */
    async save(sessionId: string, truth: PhantomTruthInput, userId: string): Promise<boolean> {
      const row = await db
        .insertInto('phantom_truths')
        .values({
          session_id: sessionId,
          name: truth.phantom.name,
          frames: truth.frames.length,
          truth: JSON.stringify(truth),
          uploaded_by: userId,
        })
        .onConflict((oc) =>
          oc.column('session_id').doUpdateSet({
            name: (eb) => eb.ref('excluded.name'),
            frames: (eb) => eb.ref('excluded.frames'),
            truth: (eb) => eb.ref('excluded.truth'),
            uploaded_by: (eb) => eb.ref('excluded.uploaded_by'),
            updated_at: sql<Date>`now()`,
          }),
        )
        // xmax is 0 for a row this statement inserted, and the updating transaction's id for one it replaced.
        .returning(sql<boolean>`(xmax = 0)`.as('created'))
        .executeTakeFirstOrThrow();
      return row.created;
    },

    /** The research's processes whose sessions carry a truth, oldest session first. */
    async processesWithTruth(researchId: string): Promise<TruthProcessRow[]> {
      const rows = await db
        .selectFrom('video_processes as v')
        .innerJoin('phantom_truths as pt', 'pt.session_id', 'v.session_id')
        .innerJoin('respondent_sessions as s', 's.id', 'v.session_id')
        .leftJoin('process_results as r', 'r.id', 'v.result_id')
        .select([
          'v.id as process_id',
          'v.session_id',
          's.participant_id',
          'v.status',
          'pt.truth',
          'r.frames',
          'r.summary',
          'r.series',
          (eb) =>
            eb
              .selectFrom('recording_segments as g')
              .select('g.offset_ms')
              .whereRef('g.session_id', '=', 'v.session_id')
              // The first segment that recorded something: the worker's first source.
              .where((w) =>
                w.exists(
                  w
                    .selectFrom('recording_chunks as k')
                    .select('k.index')
                    .whereRef('k.session_id', '=', 'g.session_id')
                    .whereRef('k.segment', '=', 'g.segment'),
                ),
              )
              .orderBy('g.segment')
              .limit(1)
              .as('recording_start_ms'),
        ])
        .where('v.campaign_id', '=', researchId)
        .orderBy('s.started_at')
        .orderBy('v.id')
        .execute();
      return rows.map((r) => ({
        process_id: r.process_id,
        session_id: r.session_id,
        participant_id: r.participant_id,
        status: r.status,
        truth: r.truth,
        recording_start_ms: r.recording_start_ms,
        result: r.frames && r.summary && r.series ? { frames: r.frames, summary: r.summary, series: r.series } : null,
      }));
    },
  };
}

export type PhantomTruthsRepository = ReturnType<typeof createPhantomTruthsRepository>;
