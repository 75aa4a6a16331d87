import { FINAL_PROCESS_STATUSES, type ProjectStatus, type RetentionMode } from '@emolens/contracts';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { containsPattern, NEXT_VERSION } from '../../db/sql.ts';
import type { DB, ProjectRow, ProjectsTable } from '../../db/types.ts';
import type { ProjectScope } from '../access/access.ts';

type ProjectQuery<O> = SelectQueryBuilder<DB & { p: ProjectsTable }, 'p', O>;

export interface ProjectFilter {
  search?: string;
  createdBy?: string;
}

export type ProjectWithPeople = ProjectRow & {
  owner_public_id: string;
  owner_username: string;
  owner_name: string;
  creator_public_id: string;
  creator_username: string;
  creator_name: string;
  research_count: number;
  scenario_count: number;
  link_count: number;
  session_count: number;
  /** The demo project's making as counted in the database (issue 28 item 11); null for every other project. */
  demo_work: DemoWork | null;
};

/** How far the demo project has come: respondents who completed, recordings processed, its reports. */
export interface DemoWork {
  respondents: number;
  recordings: number;
  reports_done: number;
  reports_failed: number;
}

const FINAL = sql.join(FINAL_PROCESS_STATUSES.map((s) => sql.lit(s)));

/** Only for the demo project (p): one row, so the list stays one query. */
const demoWork = sql<DemoWork | null>`case when p.is_demo then json_build_object(
    'respondents', (select count(distinct rs.participant_id) from respondent_sessions rs
      where rs.project_id = p.id and not rs.is_preview and rs.status = 'completed'),
    'recordings', (select count(*) from video_processes v join campaigns dc on dc.id = v.campaign_id
      where dc.project_id = p.id and v.status in (${FINAL})),
    'reports_done', (select count(*) from reports r join campaigns dc on dc.id = r.campaign_id
      where dc.project_id = p.id and r.status = 'done'),
    'reports_failed', (select count(*) from reports r join campaigns dc on dc.id = r.campaign_id
      where dc.project_id = p.id and r.failed)
  ) end`.as('demo_work');

export function createProjectsRepository(db: Kysely<DB>) {
  function visible(scope: ProjectScope, filter: ProjectFilter = {}) {
    let query = db.selectFrom('projects as p');
    // Self-service tests' projects are listed as tests (issue 15), not among the projects and researches.
    query = query.where(sql<boolean>`not exists (select 1 from self_service_tests sst where sst.project_id = p.id)`);
    if (!scope.all) query = query.where('p.owner_id', '=', scope.userId);
    if (filter.search) query = query.where('p.title', 'ilike', containsPattern(filter.search));
    if (filter.createdBy) query = query.where('p.created_by', '=', filter.createdBy);
    return query;
  }

  function withPeople<O>(query: ProjectQuery<O>) {
    return query
      .innerJoin('users as o', 'o.id', 'p.owner_id')
      .innerJoin('users as c', 'c.id', 'p.created_by')
      .selectAll('p')
      .select([
        'o.public_user_id as owner_public_id',
        'o.username as owner_username',
        sql<string>`trim(o.first_name || ' ' || o.last_name)`.as('owner_name'),
        'c.public_user_id as creator_public_id',
        'c.username as creator_username',
        sql<string>`trim(c.first_name || ' ' || c.last_name)`.as('creator_name'),
        sql<number>`(select count(*)::int from campaigns where campaigns.project_id = p.id)`.as('research_count'),
        sql<number>`(select count(*)::int from scenarios where scenarios.project_id = p.id)`.as('scenario_count'),
        sql<number>`(select count(*)::int from project_accessor_links l where l.project_id = p.id)`.as('link_count'),
        // A draft's previews are not sessions of the fieldwork.
        sql<number>`(select count(*)::int from respondent_sessions rs where rs.project_id = p.id and not rs.is_preview)`.as(
          'session_count',
        ),
        demoWork,
      ]);
  }

  return {
    /** One project; the caller checked access. */
    async find(id: string): Promise<ProjectWithPeople | undefined> {
      return withPeople(db.selectFrom('projects as p').where('p.id', '=', id)).executeTakeFirst() as Promise<
        ProjectWithPeople | undefined
      >;
    },

    /** What launching needs to know: the scenarios with their research counts, the researches, the links. */
    async setupOf(id: string) {
      const [scenarios, researches, links, surveys] = await Promise.all([
        db
          .selectFrom('scenarios as s')
          .select([
            's.id',
            's.order_number',
            sql<number>`(select count(*)::int from scenario_campaigns sc where sc.scenario_id = s.id)`.as(
              'campaign_count',
            ),
          ])
          .where('s.project_id', '=', id)
          .orderBy('s.order_number')
          .execute(),
        db
          .selectFrom('campaigns')
          .select(['id', 'title', 'content_type', 'shelf_content_scenario', 'settings'])
          .where('project_id', '=', id)
          .orderBy('created_at')
          .orderBy('id')
          .execute(),
        db
          .selectFrom('project_accessor_links')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('project_id', '=', id)
          .executeTakeFirstOrThrow(),
        // The enabled questionnaires its scenarios run, with the project's respondent language.
        db
          .selectFrom('surveys as q')
          .innerJoin('scenarios as s', (j) =>
            j.on((eb) =>
              eb.or([eb('s.screener_survey_id', '=', eb.ref('q.id')), eb('s.embedded_survey_id', '=', eb.ref('q.id'))]),
            ),
          )
          .innerJoin('projects as p', 'p.id', 's.project_id')
          .select(['q.id', 'q.title', 'q.questions', 'p.respondent_language'])
          .distinct()
          .where('s.project_id', '=', id)
          .where('q.enabled', '=', true)
          .execute(),
      ]);
      return { scenarios, researches, quotaLinks: links.n, surveys };
    },

    async list(
      scope: ProjectScope,
      filter: ProjectFilter & { status?: ProjectStatus; limit: number; offset: number },
    ): Promise<{ items: ProjectWithPeople[]; total: number }> {
      let query = visible(scope, filter);
      if (filter.status) query = query.where('p.status', '=', filter.status);
      const [items, total] = await Promise.all([
        withPeople(query)
          .orderBy('p.updated_at', 'desc')
          .orderBy('p.id')
          .limit(filter.limit)
          .offset(filter.offset)
          .execute() as Promise<ProjectWithPeople[]>,
        query.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: total.n };
    },

    async countByStatus(scope: ProjectScope, filter: ProjectFilter): Promise<Partial<Record<ProjectStatus, number>>> {
      const rows = await visible(scope, filter)
        .select(['p.status', sql<number>`count(*)::int`.as('n')])
        .groupBy('p.status')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    },

    async insert(
      values: Omit<
        ProjectRow,
        | 'id'
        | 'status'
        | 'created_at'
        | 'updated_at'
        | 'launched_at'
        | 'completed_at'
        | 'archived_at'
        | 'retention_mode'
        | 'retention_days'
        | 'is_demo'
        | 'demo_stopped_at'
      > & { is_demo?: boolean },
    ) {
      const row = await db.insertInto('projects').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },

    /** Applies the patch only if the project is still at `version` and editable; false otherwise. */
    async update(
      id: string,
      version: Date,
      editable: readonly ProjectStatus[],
      patch: Partial<
        Pick<
          ProjectRow,
          'title' | 'description' | 'platform' | 'respondent_language' | 'audience_type' | 'required_respondents'
        >
      >,
    ): Promise<boolean> {
      const result = await db
        .updateTable('projects')
        .set({ ...patch, updated_at: NEXT_VERSION })
        .where('id', '=', id)
        .where('updated_at', '=', version)
        .where('status', 'in', editable)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Moves the project from one of `from` to `to`, stamping when; false when it was in another status. */
    async transition(
      id: string,
      from: readonly ProjectStatus[],
      to: ProjectStatus,
      stamp: 'launched_at' | 'completed_at' | 'archived_at',
    ): Promise<boolean> {
      const result = await db
        .updateTable('projects')
        .set({ status: to, [stamp]: sql`now()`, updated_at: NEXT_VERSION })
        .where('id', '=', id)
        .where('status', 'in', from)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** The retention setting, in any status (a data-protection setting); false when the project is gone. */
    async setRetention(id: string, mode: RetentionMode, days: number | null): Promise<boolean> {
      const result = await db
        .updateTable('projects')
        .set({ retention_mode: mode, retention_days: days, updated_at: NEXT_VERSION })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Hands the project to `ownerId`, with the questionnaires its scenarios use (spec section 6: the project
     * and its questionnaires become unavailable to the old owner): those of the old owner that no other
     * project uses. One used elsewhere too stays where it is.
     */
    setOwner(id: string, ownerId: string): Promise<void> {
      return db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('projects')
          .select('owner_id')
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (!before) return;
        await trx
          .updateTable('projects')
          .set({ owner_id: ownerId, updated_at: NEXT_VERSION })
          .where('id', '=', id)
          .execute();
        await sql`
          update surveys set owner_id = ${ownerId}
          where owner_id = ${before.owner_id}
            and exists (
              select 1 from scenarios s
              where s.project_id = ${id} and (s.screener_survey_id = surveys.id or s.embedded_survey_id = surveys.id))
            and not exists (
              select 1 from scenarios s
              where s.project_id <> ${id} and (s.screener_survey_id = surveys.id or s.embedded_survey_id = surveys.id))`.execute(
          trx,
        );
      });
    },

    /** Deletes the project if it is still in `status`; false otherwise. */
    async deleteIn(id: string, status: ProjectStatus): Promise<boolean> {
      const result = await db
        .deleteFrom('projects')
        .where('id', '=', id)
        .where('status', '=', status)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
