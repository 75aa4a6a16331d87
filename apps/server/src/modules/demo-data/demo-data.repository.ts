import { FINAL_PROCESS_STATUSES, type MediaStatus, type ProjectStatus } from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.ts';

/** How far the demo project's seeding has come, read from the project itself (decision 017). */
export interface DemoProjectState {
  id: string;
  status: ProjectStatus;
  owner_id: string;
  /** Its research (the seeding makes one) with the parts the seeding made after it; null until then. */
  campaign_id: string | null;
  content_status: MediaStatus | null;
  /** The content video's length once probed. */
  content_seconds: number | null;
  token: string | null;
  survey_id: string | null;
}

/** The queries of the demo project's seeding (decision 017); every other change goes through the services. */
export function createDemoDataRepository(db: Kysely<DB>) {
  return {
    /** The installation's demo project (one at most), with its research, content, quota link and survey. */
    async project(): Promise<DemoProjectState | undefined> {
      return db
        .selectFrom('projects as p')
        .leftJoin('campaigns as c', 'c.project_id', 'p.id')
        .leftJoin('media as m', (j) => j.onRef('m.campaign_id', '=', 'c.id').on('m.kind', '=', 'video'))
        .leftJoin('scenario_campaigns as sc', 'sc.campaign_id', 'c.id')
        .leftJoin('scenarios as s', 's.id', 'sc.scenario_id')
        .leftJoin('project_accessor_links as l', 'l.scenario_id', 's.id')
        .select([
          'p.id',
          'p.status',
          'p.owner_id',
          'c.id as campaign_id',
          'm.status as content_status',
          'm.duration_seconds as content_seconds',
          'l.token',
          's.embedded_survey_id as survey_id',
        ])
        .where('p.is_demo', '=', true)
        .orderBy('m.created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** Per panel id, the project's sessions of that respondent and whether one of them completed. */
    async participants(projectId: string): Promise<Map<string, { sessions: number; completed: boolean }>> {
      const rows = await db
        .selectFrom('respondent_sessions')
        .select([
          'participant_id',
          sql<number>`count(*)::int`.as('sessions'),
          sql<boolean>`bool_or(status = 'completed')`.as('completed'),
        ])
        .where('project_id', '=', projectId)
        .where('is_preview', '=', false)
        .where('participant_id', 'is not', null)
        .groupBy('participant_id')
        .execute();
      return new Map(rows.map((r) => [r.participant_id ?? '', { sessions: r.sessions, completed: r.completed }]));
    },

    /** The research's video processes: all of them, and those not ended yet. */
    async processing(researchId: string): Promise<{ total: number; unfinished: number }> {
      return db
        .selectFrom('video_processes')
        .select([
          sql<number>`count(*)::int`.as('total'),
          sql<number>`(count(*) filter (where status not in (${sql.join(FINAL_PROCESS_STATUSES)})))::int`.as(
            'unfinished',
          ),
        ])
        .where('campaign_id', '=', researchId)
        .executeTakeFirstOrThrow();
    },

    /** The seeding gave up on the project (issue 28 item 11): the cabinet stops showing it as coming along. */
    async stop(projectId: string): Promise<void> {
      await db
        .updateTable('projects')
        .set({ demo_stopped_at: sql<Date>`now()` })
        .where('id', '=', projectId)
        .where('is_demo', '=', true)
        .execute();
    },

    /** Reports on the research. */
    async reportCount(researchId: string): Promise<number> {
      const row = await db
        .selectFrom('reports')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('campaign_id', '=', researchId)
        .executeTakeFirstOrThrow();
      return row.n;
    },
  };
}

export type DemoDataRepository = ReturnType<typeof createDemoDataRepository>;
