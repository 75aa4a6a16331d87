import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { CodedSession } from './completion-code.ts';

/** How sessions end for the people who see them (issue 28): short completion codes, and turn-aways at a full quota. */
export function createSessionEndsRepository(db: Kysely<DB>) {
  return {
    /**
     * The session's short code: the one it has, else `code` given now. Two first showings at once (a reload
     * during the completion) both read the code that won.
     */
    async assignCompletionCode(sessionId: string, code: string): Promise<string | null> {
      const row = await db
        .updateTable('respondent_sessions')
        .set((eb) => ({ completion_code: eb.fn.coalesce('completion_code', eb.val(code)) }))
        .where('id', '=', sessionId)
        .returning('completion_code')
        .executeTakeFirst();
      return row?.completion_code ?? null;
    },

    /** The sessions holding these short codes (as stored). */
    sessionsByCompletionCode(codes: string[]): Promise<CodedSession[]> {
      if (!codes.length) return Promise.resolve([]);
      return db
        .selectFrom('respondent_sessions')
        .select(['completion_code', 'id', 'project_id', 'research_order', 'participant_id', 'outcome', 'is_preview'])
        .where('completion_code', 'in', codes)
        .execute();
    },

    /** A respondent the full quota turned away at the link's start page. */
    async recordTurnAway(link: { link_id: string; project_id: string; scenario_id: string }): Promise<void> {
      await db
        .insertInto('respondent_turn_aways')
        .values({ link_id: link.link_id, project_id: link.project_id, scenario_id: link.scenario_id })
        .execute();
    },
  };
}

export type SessionEndsRepository = ReturnType<typeof createSessionEndsRepository>;
