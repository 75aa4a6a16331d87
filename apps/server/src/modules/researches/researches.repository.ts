import { type ContentType, type Platform, type ProjectStatus, RUNNING_PROCESS_STATUSES } from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';
import { containsPattern, isUuid, lockedBySelfService, NEXT_VERSION } from '../../db/sql.ts';
import type { DB, ResearchRow } from '../../db/types.ts';
import type { ProjectScope } from '../access/access.ts';

export type ResearchWithProject = ResearchRow & {
  project_title: string;
  project_status: ProjectStatus;
  project_platform: Platform;
  /** Recordings of the research: one video process per respondent session that was given it. */
  video_count: number;
  /** Processes waiting for or inside a worker, and those of them that already have a result. */
  running_count: number;
  rerunning_count: number;
  /** Processes ended in error or detection error. */
  failed_count: number;
  /** Mean emotional engagement (0–1) over the usable current results; null without any. */
  mean_engagement: number | null;
  /** Reports on the research, whatever their state (those its reports list shows). */
  report_count: number;
};

const RUNNING = sql.join(RUNNING_PROCESS_STATUSES.map((s) => sql.lit(s)));

/** The research's recordings and their work in one pass over its processes (c is the campaign). */
const work = sql<{
  video_count: number;
  running_count: number;
  rerunning_count: number;
  failed_count: number;
  mean_engagement: number | null;
}>`(select json_build_object(
    'video_count', count(*),
    'running_count', count(*) filter (where v.status in (${RUNNING})),
    'rerunning_count', count(*) filter (where v.status in (${RUNNING}) and v.result_id is not null),
    'failed_count', count(*) filter (where v.status in ('error', 'detection_error')),
    'mean_engagement', avg(r.mean_engagement) filter (where r.usable)
  ) from video_processes v left join process_results r on r.id = v.result_id where v.campaign_id = c.id)`.as('work');

/** The research's reports, counted in the same query as the research (c is the campaign). */
const reportCount = sql<number>`(select count(*)::int from reports rep where rep.campaign_id = c.id)`.as(
  'report_count',
);

type WithWork = ResearchRow & {
  project_title: string;
  project_status: ProjectStatus;
  project_platform: Platform;
  work: unknown;
  report_count: number;
};

function flatten(row: WithWork): ResearchWithProject {
  const { work: raw, ...rest } = row;
  // json_build_object comes back parsed (PostgreSQL, PGlite); numbers as JSON numbers.
  const w = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, number | null>;
  return {
    ...rest,
    video_count: Number(w.video_count ?? 0),
    running_count: Number(w.running_count ?? 0),
    rerunning_count: Number(w.rerunning_count ?? 0),
    failed_count: Number(w.failed_count ?? 0),
    mean_engagement: w.mean_engagement === null || w.mean_engagement === undefined ? null : Number(w.mean_engagement),
    report_count: Number(rest.report_count),
  };
}
export type NewResearch = Omit<
  ResearchRow,
  | 'id'
  | 'status'
  | 'created_at'
  | 'updated_at'
  | 'is_self_service'
  | 'categories'
  | 'settings'
  | 'picture_gallery'
  | 'shelf_content_scenario'
  | 'shelf_setting'
> & { categories: object; settings: object };

/** jsonb columns: written as JSON text. */
const JSON_COLUMNS = ['categories', 'settings', 'picture_gallery', 'shelf_content_scenario', 'shelf_setting'] as const;

export function createResearchesRepository(db: Kysely<DB>) {
  /** Projects whose setup may change: drafts, not locked by a self-service test in moderation or later. */
  const draftProjects = () =>
    db
      .selectFrom('projects')
      .select('id')
      .where('status', '=', 'new')
      .where(sql<boolean>`not ${lockedBySelfService('projects.id')}`);
  /** Researches with their projects (c, p). */
  const joined = () => db.selectFrom('campaigns as c').innerJoin('projects as p', 'p.id', 'c.project_id');
  /** Researches of projects the user may see; an archived project hides its researches. */
  function visible(scope: ProjectScope) {
    let query = joined().where('p.status', '!=', 'archived');
    // Self-service tests' projects are listed as tests (issue 15), not among the projects and researches.
    query = query.where(sql<boolean>`not exists (select 1 from self_service_tests sst where sst.project_id = p.id)`);
    if (!scope.all) query = query.where('p.owner_id', '=', scope.userId);
    return query;
  }
  const columns = (query: ReturnType<typeof joined>) =>
    query
      .selectAll('c')
      .select([
        'p.title as project_title',
        'p.status as project_status',
        'p.platform as project_platform',
        work,
        reportCount,
      ]);

  return {
    /** Researches by id; the caller checked access. */
    async listByIds(ids: string[]): Promise<ResearchWithProject[]> {
      if (!ids.length) return [];
      const rows = await columns(joined()).where('c.id', 'in', ids).execute();
      return rows.map(flatten);
    },

    async list(
      scope: ProjectScope,
      filter: { projectId?: string; search?: string; contentType?: ContentType; limit: number; offset: number },
    ): Promise<{ items: ResearchWithProject[]; total: number }> {
      let query = visible(scope);
      if (filter.projectId) query = query.where('c.project_id', '=', filter.projectId);
      if (filter.contentType) query = query.where('c.content_type', '=', filter.contentType);
      const search = filter.search;
      if (search) {
        // By name, or by id when the search is one.
        query = query.where((eb) =>
          isUuid(search)
            ? eb.or([eb('c.title', 'ilike', containsPattern(search)), eb('c.id', '=', search)])
            : eb('c.title', 'ilike', containsPattern(search)),
        );
      }
      const [items, total] = await Promise.all([
        columns(query)
          .orderBy('c.updated_at', 'desc')
          .orderBy('c.id')
          .limit(filter.limit)
          .offset(filter.offset)
          .execute(),
        query.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items: items.map(flatten), total: total.n };
    },

    /** All or none: a batch that fails half-way leaves nothing behind. */
    insertMany(rows: NewResearch[]): Promise<string[]> {
      return db.transaction().execute(async (trx) => {
        const ids: string[] = [];
        for (const row of rows) {
          const inserted = await trx
            .insertInto('campaigns')
            .values({ ...row, categories: JSON.stringify(row.categories), settings: JSON.stringify(row.settings) })
            .returning('id')
            .executeTakeFirstOrThrow();
          ids.push(inserted.id);
        }
        return ids;
      });
    },

    /** Applies the patch only at `version` and while the project is a draft; false otherwise. */
    async update(
      id: string,
      version: Date,
      patch: Partial<Pick<ResearchRow, 'title' | 'description' | 'site_url' | 'modified_by'>> &
        Partial<Record<(typeof JSON_COLUMNS)[number], object>>,
    ): Promise<boolean> {
      const set: Record<string, unknown> = { updated_at: NEXT_VERSION };
      for (const [column, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        set[column] = (JSON_COLUMNS as readonly string[]).includes(column) ? JSON.stringify(value) : value;
      }
      const result = await db
        .updateTable('campaigns')
        .set(set)
        .where('id', '=', id)
        .where('updated_at', '=', version)
        .where('project_id', 'in', draftProjects())
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** The settings (as stored) of the researches that share a scenario with research `id`. */
    async scenarioNeighbourSettings(id: string): Promise<unknown[]> {
      const rows = await db
        .selectFrom('scenario_campaigns as mine')
        .innerJoin('scenario_campaigns as other', 'other.scenario_id', 'mine.scenario_id')
        .innerJoin('campaigns as c', 'c.id', 'other.campaign_id')
        .select('c.settings')
        .where('mine.campaign_id', '=', id)
        .where('other.campaign_id', '<>', id)
        .execute();
      return rows.map((r) => r.settings);
    },

    async deleteInDraftProject(id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('campaigns')
        .where('id', '=', id)
        .where('project_id', 'in', draftProjects())
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type ResearchesRepository = ReturnType<typeof createResearchesRepository>;
