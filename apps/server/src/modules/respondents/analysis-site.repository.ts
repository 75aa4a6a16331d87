import { type Kysely, sql } from 'kysely';
import type { DB, RespondentSessionRow } from '../../db/types.ts';

/**
 * Where a respondent session's face analysis runs (privacy mode, issue 32; decision 064). Every change is one
 * statement that holds only while the session is started and has no chunk stored: the recording's first chunk fixes
 * the site for good (a chunk racing a change either lands first, and the change finds it, or after, and the chunk
 * is checked against the new site).
 */
export function createAnalysisSiteRepository(db: Kysely<DB>) {
  const noChunkYet = sql<boolean>`not exists (
    select 1 from recording_chunks c where c.session_id = respondent_sessions.id
  )`;

  return {
    /** Whether a chunk of the session is stored. */
    async hasChunks(sessionId: string): Promise<boolean> {
      const row = await db
        .selectFrom('recording_chunks')
        .select('index')
        .where('session_id', '=', sessionId)
        .limit(1)
        .executeTakeFirst();
      return !!row;
    },

    /**
     * The device's measured speed and the site it decides against the session's threshold `min` (a device session
     * not yet fallen back, before its first chunk); the session as it is after, or undefined when nothing was changed.
     */
    measure(sessionId: string, fps: number, min: number): Promise<RespondentSessionRow | undefined> {
      return db
        .updateTable('respondent_sessions')
        .set({
          device_fps: fps,
          analysis_site: fps >= min ? 'device' : 'undecided',
          last_seen_at: sql<Date>`now()`,
        })
        .where('id', '=', sessionId)
        .where('status', '=', 'started')
        .where('analysis_site', 'in', ['device', 'undecided'])
        .where(noChunkYet)
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * A device measured too slow (under `min`): the respondent uploads the video instead (the session falls back to
     * the server).
     */
    fallBack(sessionId: string, min: number): Promise<RespondentSessionRow | undefined> {
      return db
        .updateTable('respondent_sessions')
        .set({ analysis_site: 'server', fell_back: true, last_seen_at: sql<Date>`now()` })
        .where('id', '=', sessionId)
        .where('status', '=', 'started')
        .where('analysis_site', '=', 'undecided')
        .where('device_fps', '<', min)
        .where(noChunkYet)
        .returningAll()
        .executeTakeFirst();
    },

    /**
     * A device measured too slow (under `min`) stops: the session ends as `device_too_slow`, told to the panel as a screen-out (as
     * a failed calibration ends, decision 050); it never held a quota slot (only completions do). The respondent may
     * stop after first choosing the upload, as long as nothing was uploaded.
     */
    endTooSlow(sessionId: string, min: number): Promise<RespondentSessionRow | undefined> {
      return db
        .updateTable('respondent_sessions')
        .set({
          status: 'device_too_slow',
          outcome: 'screen_out',
          step: 'end',
          ended_at: sql<Date>`now()`,
          last_seen_at: sql<Date>`now()`,
        })
        .where('id', '=', sessionId)
        .where('status', '=', 'started')
        .where('device_fps', '<', min)
        .where(noChunkYet)
        .returningAll()
        .executeTakeFirst();
    },
  };
}

export type AnalysisSiteRepository = ReturnType<typeof createAnalysisSiteRepository>;
