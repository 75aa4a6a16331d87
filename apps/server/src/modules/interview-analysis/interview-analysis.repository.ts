import type { DemoKind, ProcessErrorCode } from '@emolens/contracts';
import type { SessionResult } from '@emolens/engine';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.ts';

/** Every column but the result's heavy ones: what lists and status polls read. */
const LIST_COLUMNS = [
  'id',
  'owner_id',
  'kind',
  'filename',
  'size',
  'mime',
  'storage_key',
  'duration_seconds',
  'status',
  'progress',
  'attempts',
  'error_code',
  'engine_version',
  'created_at',
  'started_at',
  'finished_at',
  'recording_seconds',
  'sessions_counted',
  'summary',
] as const;

export interface NewDemoAnalysis {
  id: string;
  owner_id: string;
  kind: DemoKind;
  filename: string;
  size: number;
  mime: string;
  storage_key: string;
  duration_seconds: number | null;
}

/** Frames with each quality flag, counted from the stored per-frame data. */
export interface FlagCounts {
  no_face: number;
  several_faces: number;
  head_turned: number;
  too_dark: number;
}

export function createInterviewAnalysisRepository(db: Kysely<DB>) {
  return {
    async insert(row: NewDemoAnalysis): Promise<void> {
      await db.insertInto('demo_analyses').values(row).execute();
    },

    /** The owner's analyses of one kind, newest first. */
    list(ownerId: string, kind: DemoKind) {
      return db
        .selectFrom('demo_analyses')
        .select(LIST_COLUMNS)
        .where('owner_id', '=', ownerId)
        .where('kind', '=', kind)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },

    find(id: string) {
      return db.selectFrom('demo_analyses').select(LIST_COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    /** The stored result (null columns until done). */
    result(id: string) {
      return db
        .selectFrom('demo_analyses')
        .select(['sampling', 'series', 'people', 'frames', 'frame_count'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async delete(id: string): Promise<boolean> {
      const res = await db.deleteFrom('demo_analyses').where('id', '=', id).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },

    /**
     * A worker takes the analysis: processing, one more attempt. A retry after a killed worker finds
     * it still processing and takes it again; a finished or deleted one is not taken.
     */
    claim(id: string, engineVersion: string) {
      return db
        .updateTable('demo_analyses')
        .set({
          status: 'processing',
          attempts: sql<number>`attempts + 1`,
          progress: 0,
          error_code: null,
          engine_version: engineVersion,
          started_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'processing'])
        .returning(['id', 'kind', 'storage_key', 'mime', 'owner_id'])
        .executeTakeFirst();
    },

    /** False when the analysis is gone (deleted meanwhile): the work stops. */
    async progress(id: string, percent: number): Promise<boolean> {
      const res = await db
        .updateTable('demo_analyses')
        .set({ progress: Math.max(0, Math.min(100, Math.round(percent))) })
        .where('id', '=', id)
        .where('status', '=', 'processing')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    async finish(
      id: string,
      result: SessionResult,
      extra: { flags: FlagCounts; sessionsCounted: number | null },
    ): Promise<boolean> {
      const res = await db
        .updateTable('demo_analyses')
        .set({
          status: 'done',
          progress: 100,
          finished_at: sql<Date>`now()`,
          engine_version: result.engineVersion,
          sampling: JSON.stringify(result.sampling),
          frames: result.frames,
          frame_count: result.frameCount,
          series: JSON.stringify(result.series),
          people: JSON.stringify(result.people),
          summary: JSON.stringify({ ...result.summary, flagCounts: extra.flags }),
          recording_seconds: result.recordingSeconds,
          sessions_counted: extra.sessionsCounted,
        })
        .where('id', '=', id)
        .where('status', '=', 'processing')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    async fail(id: string, code: ProcessErrorCode): Promise<void> {
      await db
        .updateTable('demo_analyses')
        .set({ status: 'error', error_code: code, finished_at: sql<Date>`now()` })
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'processing'])
        .execute();
    },
  };
}

export type InterviewAnalysisRepository = ReturnType<typeof createInterviewAnalysisRepository>;
