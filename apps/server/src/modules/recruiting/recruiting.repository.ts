import type { AcceptanceMode, AssignmentDecisionKind, RecruitingPlatform } from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.ts';

type Decision = AssignmentDecisionKind;
export type NewDecision = {
  platform: RecruitingPlatform;
  assignment_id: string;
  campaign_id: string;
  worker_id: string;
  session_id: string | null;
  decision: Decision;
  reason: string;
  excluded_reason: string | null;
};

const LIST_LIMIT = 1000;

const HOME = { toloka: 'toloka_pools', mturk: 'mturk_hits', prolific: 'prolific_studies' } as const;

/**
 * What recruiting a research on Toloka or MTurk needs of it (issue 14, items 4–6): the research, its project's
 * platform and quota link; and the decisions on the platform's assignments, with what checking a code needs.
 */
export function createRecruitingRepository(db: Kysely<DB>) {
  const table = 'assignment_decisions' as const;
  return {
    /** The research, its project's platform and status, and its first quota link (a scenario that shows it). */
    async research(researchId: string) {
      const row = await db
        .selectFrom('campaigns as c')
        .innerJoin('projects as p', 'p.id', 'c.project_id')
        .leftJoinLateral(
          (eb) =>
            eb
              .selectFrom('project_accessor_links as l')
              .innerJoin('scenario_campaigns as sc', 'sc.scenario_id', 'l.scenario_id')
              .select(['l.token', 'l.quota_size'])
              .whereRef('sc.campaign_id', '=', 'c.id')
              .orderBy('l.created_at')
              .limit(1)
              .as('link'),
          (join) => join.onTrue(),
        )
        .select(['c.id', 'c.title', 'p.platform', 'p.status as project_status', 'link.token', 'link.quota_size'])
        .where('c.id', '=', researchId)
        .executeTakeFirst();
      return row && { ...row, link_token: row.token, link_quota: row.quota_size };
    },

    /** The acceptance setting of the research's pool or HIT; false when it has none. */
    async setAcceptance(
      platform: RecruitingPlatform,
      researchId: string,
      acceptance: AcceptanceMode,
    ): Promise<boolean> {
      const result = await db
        .updateTable(HOME[platform])
        .set({ acceptance, updated_at: sql<Date>`now()` })
        .where('campaign_id', '=', researchId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    projectOf(researchId: string) {
      return db.selectFrom('campaigns').select('project_id').where('id', '=', researchId).executeTakeFirst();
    },

    /** The sessions of the codes: their project and outcome, and the research's video process and its result. */
    sessions(researchId: string, sessionIds: string[]) {
      if (!sessionIds.length) return Promise.resolve([]);
      return db
        .selectFrom('respondent_sessions as s')
        .leftJoin('video_processes as vp', (j) =>
          j.onRef('vp.session_id', '=', 's.id').on('vp.campaign_id', '=', researchId),
        )
        .leftJoin('process_results as pr', 'pr.id', 'vp.result_id')
        .select(['s.id', 's.project_id', 's.outcome', 'vp.status as process_status', 'pr.usable', 'pr.excluded_reason'])
        .where('s.id', 'in', sessionIds)
        .execute();
    },

    /** Every decision of the research (for a review: which assignments are decided and which sessions are taken). */
    all(platform: RecruitingPlatform, researchId: string) {
      return db
        .selectFrom(table)
        .selectAll()
        .where('platform', '=', platform)
        .where('campaign_id', '=', researchId)
        .execute();
    },

    list(platform: RecruitingPlatform, researchId: string) {
      return db
        .selectFrom(table)
        .selectAll()
        .where('platform', '=', platform)
        .where('campaign_id', '=', researchId)
        .orderBy('decided_at', 'desc')
        .orderBy('assignment_id', 'desc')
        .limit(LIST_LIMIT)
        .execute();
    },

    async counts(platform: RecruitingPlatform, researchId: string) {
      const rows = await db
        .selectFrom(table)
        .select(['decision', 'status', (eb) => eb.fn.countAll<string>().as('n')])
        .where('platform', '=', platform)
        .where('campaign_id', '=', researchId)
        .groupBy(['decision', 'status'])
        .execute();
      const counts = { accept: 0, reject: 0, return: 0, pending_confirmation: 0, sent: 0, failed: 0 };
      for (const row of rows) {
        counts[row.decision] += Number(row.n);
        counts[row.status] += Number(row.n);
      }
      return counts;
    },

    /** Records new decisions (waiting to be sent); an assignment decided already keeps its decision. */
    async insert(rows: NewDecision[], status: 'pending_confirmation' | 'sent' = 'pending_confirmation') {
      if (!rows.length) return;
      await db
        .insertInto(table)
        .values(rows.map((r) => ({ ...r, status, sent_at: status === 'sent' ? new Date() : null })))
        .onConflict((c) => c.columns(['platform', 'assignment_id']).doNothing())
        .execute();
    },

    /**
     * Takes the decision for sending: marks it sent unless it was sent already (by a concurrent review or confirm).
     * The decision when taken; undefined when there is nothing to send.
     */
    claim(platform: RecruitingPlatform, researchId: string, assignmentId: string) {
      return db
        .updateTable(table)
        .set({ status: 'sent', sent_at: sql<Date>`now()`, error: null })
        .where('platform', '=', platform)
        .where('campaign_id', '=', researchId)
        .where('assignment_id', '=', assignmentId)
        .where('status', 'in', ['pending_confirmation', 'failed'])
        .returning(['assignment_id', 'decision', 'reason', 'excluded_reason'])
        .executeTakeFirst();
    },

    async failed(platform: RecruitingPlatform, researchId: string, assignmentId: string, error: string) {
      await db
        .updateTable(table)
        .set({ status: 'failed', sent_at: null, error: error.slice(0, 1000) })
        .where('platform', '=', platform)
        .where('campaign_id', '=', researchId)
        .where('assignment_id', '=', assignmentId)
        .execute();
    },

    /** The assignment was accepted or rejected on the platform already: the decision is the platform's, and sent. */
    async decidedOnPlatform(
      platform: RecruitingPlatform,
      researchId: string,
      assignmentId: string,
      decision: Decision,
      ours: Decision,
    ) {
      await db
        .updateTable(table)
        .set({
          status: 'sent',
          sent_at: sql<Date>`coalesce(sent_at, now())`,
          error: null,
          ...(decision === ours ? {} : { decision, reason: 'decided_on_platform', excluded_reason: null }),
        })
        .where('platform', '=', platform)
        .where('campaign_id', '=', researchId)
        .where('assignment_id', '=', assignmentId)
        .execute();
    },
  };
}

export type RecruitingRepository = ReturnType<typeof createRecruitingRepository>;
