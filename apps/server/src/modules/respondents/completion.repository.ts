import type { Outcome, RespondentSessionStatus } from '@emolens/contracts';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB, RespondentSessionRow } from '../../db/types.ts';
import { slotsTakenOf } from './respondents.repository.ts';

/** What a completion found while it held the link and scenario rows. */
export type CompletionResult = 'completed' | 'quota_full' | 'already_ended';

/** The only Kysely user of a session's completion (`completion.ts`): the quota slot and the video processes. */
export function createCompletionsRepository(db: Kysely<DB>) {
  return {
    /**
     * Completes a started session in one short transaction: holds the link and scenario rows (in
     * this order, always), counts the completes that hold a slot, and either marks the session
     * completed with a video process per research, or quota full.
     */
    complete(
      session: Pick<RespondentSessionRow, 'id' | 'link_id' | 'scenario_id'>,
      researchIds: string[],
    ): Promise<CompletionResult> {
      return db.transaction().execute(async (trx) => {
        const link = await trx
          .selectFrom('project_accessor_links')
          .select('quota_size')
          .where('id', '=', session.link_id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const scenario = await trx
          .selectFrom('scenarios')
          .select('quota')
          .where('id', '=', session.scenario_id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const current = await trx
          .selectFrom('respondent_sessions')
          .select('status')
          .where('id', '=', session.id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        if (current.status !== 'started') return 'already_ended';
        const full =
          (link.quota_size !== null && (await slotsTakenOf(trx, 'link_id', session.link_id)) >= link.quota_size) ||
          (scenario.quota !== null && (await slotsTakenOf(trx, 'scenario_id', session.scenario_id)) >= scenario.quota);
        if (full) {
          await endSession(trx, session.id, 'quota_full', 'quota_full', null);
          return 'quota_full';
        }
        await endSession(trx, session.id, 'completed', 'complete', 'pending');
        if (researchIds.length) {
          await trx
            .insertInto('video_processes')
            .values(researchIds.map((campaign_id) => ({ session_id: session.id, campaign_id, status: 'collected' })))
            .onConflict((c) => c.columns(['session_id', 'campaign_id']).doNothing())
            .execute();
        }
        return 'completed';
      });
    },

    /** Ends a started preview session as complete (nothing is counted or processed). */
    async completePreview(sessionId: string): Promise<void> {
      await db
        .updateTable('respondent_sessions')
        .set({ status: 'completed', outcome: 'complete', step: 'end', ended_at: sql<Date>`now()` })
        .where('id', '=', sessionId)
        .where('status', '=', 'started')
        .execute();
    },
  };
}

async function endSession(
  trx: Transaction<DB>,
  id: string,
  status: RespondentSessionStatus,
  outcome: Outcome,
  quotaState: 'pending' | null,
): Promise<void> {
  await trx
    .updateTable('respondent_sessions')
    .set({
      status,
      outcome,
      quota_state: quotaState,
      step: 'end',
      ended_at: sql<Date>`now()`,
      last_seen_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .execute();
}

export type CompletionsRepository = ReturnType<typeof createCompletionsRepository>;
