import type { TolokaAcceptanceMode } from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.ts';

type Decision = 'accept' | 'reject';
export type NewTolokaDecision = {
  assignment_id: string;
  campaign_id: string;
  worker_id: string;
  session_id: string | null;
  decision: Decision;
  reason: string;
  excluded_reason: string | null;
};

const LIST_LIMIT = 1000;

/** Decisions on a research's Toloka assignments (issue 14, item 5), and what checking a code needs. */
export function createTolokaAcceptanceRepository(db: Kysely<DB>) {
  const table = 'toloka_assignment_decisions' as const;
  return {
    async setAcceptance(campaignId: string, acceptance: TolokaAcceptanceMode): Promise<boolean> {
      const result = await db
        .updateTable('toloka_pools')
        .set({ acceptance, updated_at: sql<Date>`now()` })
        .where('campaign_id', '=', campaignId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    projectOf(campaignId: string) {
      return db.selectFrom('campaigns').select('project_id').where('id', '=', campaignId).executeTakeFirst();
    },

    /** The sessions of the codes: their project and outcome, and the research's video process and its result. */
    sessions(campaignId: string, sessionIds: string[]) {
      if (!sessionIds.length) return Promise.resolve([]);
      return db
        .selectFrom('respondent_sessions as s')
        .leftJoin('video_processes as vp', (j) =>
          j.onRef('vp.session_id', '=', 's.id').on('vp.campaign_id', '=', campaignId),
        )
        .leftJoin('process_results as pr', 'pr.id', 'vp.result_id')
        .select(['s.id', 's.project_id', 's.outcome', 'vp.status as process_status', 'pr.usable', 'pr.excluded_reason'])
        .where('s.id', 'in', sessionIds)
        .execute();
    },

    /** Every decision of the research (for a review: which assignments are decided and which sessions are taken). */
    all(campaignId: string) {
      return db.selectFrom(table).selectAll().where('campaign_id', '=', campaignId).execute();
    },

    list(campaignId: string) {
      return db
        .selectFrom(table)
        .selectAll()
        .where('campaign_id', '=', campaignId)
        .orderBy('decided_at', 'desc')
        .orderBy('assignment_id', 'desc')
        .limit(LIST_LIMIT)
        .execute();
    },

    async counts(campaignId: string) {
      const rows = await db
        .selectFrom(table)
        .select(['decision', 'status', (eb) => eb.fn.countAll<string>().as('n')])
        .where('campaign_id', '=', campaignId)
        .groupBy(['decision', 'status'])
        .execute();
      const counts = { accept: 0, reject: 0, pending_confirmation: 0, sent: 0, failed: 0 };
      for (const row of rows) {
        counts[row.decision] += Number(row.n);
        counts[row.status] += Number(row.n);
      }
      return counts;
    },

    /** Records new decisions (waiting to be sent); an assignment decided already keeps its decision. */
    async insert(rows: NewTolokaDecision[], status: 'pending_confirmation' | 'sent' = 'pending_confirmation') {
      if (!rows.length) return;
      await db
        .insertInto(table)
        .values(rows.map((r) => ({ ...r, status, sent_at: status === 'sent' ? new Date() : null })))
        .onConflict((c) => c.column('assignment_id').doNothing())
        .execute();
    },

    /**
     * Takes the decision for sending: marks it sent unless it was sent already (by a concurrent review or confirm).
     * The decision when taken; undefined when there is nothing to send.
     */
    claim(campaignId: string, assignmentId: string) {
      return db
        .updateTable(table)
        .set({ status: 'sent', sent_at: sql<Date>`now()`, error: null })
        .where('campaign_id', '=', campaignId)
        .where('assignment_id', '=', assignmentId)
        .where('status', 'in', ['pending_confirmation', 'failed'])
        .returning(['assignment_id', 'decision', 'reason', 'excluded_reason'])
        .executeTakeFirst();
    },

    async failed(campaignId: string, assignmentId: string, error: string) {
      await db
        .updateTable(table)
        .set({ status: 'failed', sent_at: null, error: error.slice(0, 1000) })
        .where('campaign_id', '=', campaignId)
        .where('assignment_id', '=', assignmentId)
        .execute();
    },

    /** The assignment was accepted or rejected in Toloka already: the decision is Toloka's, and sent. */
    async decidedInToloka(campaignId: string, assignmentId: string, decision: Decision, ours: Decision) {
      await db
        .updateTable(table)
        .set({
          status: 'sent',
          sent_at: sql<Date>`coalesce(sent_at, now())`,
          error: null,
          ...(decision === ours ? {} : { decision, reason: 'decided_in_toloka', excluded_reason: null }),
        })
        .where('campaign_id', '=', campaignId)
        .where('assignment_id', '=', assignmentId)
        .execute();
    },
  };
}

export type TolokaAcceptanceRepository = ReturnType<typeof createTolokaAcceptanceRepository>;
