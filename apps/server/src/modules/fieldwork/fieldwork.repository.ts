import type {
  AnalysisSite,
  CalibrationCheckVerdict,
  Outcome,
  Platform,
  ProjectStatus,
  QuotaState,
  RespondentSessionStatus,
  RespondentStep,
} from '@emolens/contracts';
import { abandonedBefore } from '@emolens/contracts';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../../db/types.ts';

/** One group of a project's sessions: a quota link and the step its respondents are at. */
export interface FieldworkGroup {
  scenario_id: string;
  link_id: string;
  step: RespondentStep;
  completes: number;
  pending: number;
  screened_out: number;
  quota_full: number;
  dropped_out: number;
  calibration_failed: number;
  device_too_slow: number;
  in_progress: number;
}

export interface SessionRow {
  id: string;
  link_id: string;
  scenario_id: string;
  participant_id: string | null;
  platform: Platform;
  status: RespondentSessionStatus;
  step: RespondentStep;
  quota_state: QuotaState | null;
  calibration_check: CalibrationCheckVerdict | null;
  analysis_site: AnalysisSite;
  fell_back: boolean;
  is_preview: boolean;
  started_at: Date;
  last_seen_at: Date;
  ended_at: Date | null;
}

export interface SegmentSummary {
  session_id: string;
  segment: number;
  mime_type: string;
  chunks: number;
  bytes: number;
}

export interface CodeSession {
  id: string;
  project_id: string;
  status: RespondentSessionStatus;
  last_seen_at: Date;
  quota_state: QuotaState | null;
  outcome: Outcome | null;
  ended_at: Date | null;
}

/** Which sessions a list shows: a project's, or those that were shown a research. */
export type SessionFilter = { projectId: string } | { researchId: string };

const count = (condition: ReturnType<typeof sql>) => sql<number>`(count(*) filter (where ${condition}))::int`;

/**
 * A session's status as every view shows it (issue 28, item 15), in SQL: `effectiveSessionStatus` of the contracts,
 * from the same cut-off (`abandonedBefore(now)`) — a started session silent since before it is `dropped_out`.
 * Lists filter and page by it, and the counts group by it; a test holds it to the TypeScript rule.
 */
export function effectiveStatusSql(alias: string, now: Date): RawBuilder<RespondentSessionStatus> {
  const status = sql.ref(`${alias}.status`);
  const seen = sql.ref(`${alias}.last_seen_at`);
  return sql<RespondentSessionStatus>`(case when ${status} = 'started' and ${seen} < ${abandonedBefore(now)} then 'dropped_out' else ${status} end)`;
}

/** The fieldwork of launched projects: respondent sessions and their recordings, read-only. */
export function createFieldworkRepository(db: Kysely<DB>) {
  return {
    /** The project's title and status, for the quota page (by id; the caller checked the id). */
    findProject(id: string): Promise<{ id: string; title: string; status: ProjectStatus } | undefined> {
      return db.selectFrom('projects').select(['id', 'title', 'status']).where('id', '=', id).executeTakeFirst();
    },

    /** Scenarios in order with their quota, and every quota link with its size. */
    async quotaLayout(projectId: string) {
      const [scenarios, links] = await Promise.all([
        db
          .selectFrom('scenarios')
          .select(['id', 'order_number', 'description', 'quota'])
          .where('project_id', '=', projectId)
          .orderBy('order_number')
          .orderBy('id')
          .execute(),
        db
          .selectFrom('project_accessor_links')
          .select(['id', 'scenario_id', 'quota_size'])
          .where('project_id', '=', projectId)
          .orderBy('created_at')
          .orderBy('id')
          .execute(),
      ]);
      return { scenarios, links };
    },

    /**
     * One aggregate over the project's real sessions (never a draft's previews), by link and step, of their
     * status as of `now` (`effectiveStatusSql`: a silent started session is a drop-out, not in progress).
     */
    fieldworkGroups(projectId: string, now: Date): Promise<FieldworkGroup[]> {
      const status = effectiveStatusSql('s', now);
      return db
        .selectFrom('respondent_sessions as s')
        .select([
          's.scenario_id',
          's.link_id',
          's.step',
          count(sql`s.status = 'completed' and s.quota_state = 'counted'`).as('completes'),
          count(sql`s.status = 'completed' and s.quota_state = 'pending'`).as('pending'),
          count(sql`${status} = 'screened_out'`).as('screened_out'),
          count(sql`${status} = 'quota_full'`).as('quota_full'),
          count(sql`${status} = 'dropped_out'`).as('dropped_out'),
          count(sql`${status} = 'calibration_failed'`).as('calibration_failed'),
          count(sql`${status} = 'device_too_slow'`).as('device_too_slow'),
          count(sql`${status} = 'started'`).as('in_progress'),
        ])
        .where('s.project_id', '=', projectId)
        .where('s.is_preview', '=', false)
        .groupBy(['s.scenario_id', 's.link_id', 's.step'])
        .execute();
    },

    /** Respondents the full quota turned away at the start page, by link (they have no session). */
    turnAways(projectId: string): Promise<{ scenario_id: string; link_id: string; n: number }[]> {
      return db
        .selectFrom('respondent_turn_aways')
        .select(['scenario_id', 'link_id', sql<number>`count(*)::int`.as('n')])
        .where('project_id', '=', projectId)
        .groupBy(['scenario_id', 'link_id'])
        .execute();
    },

    /** A page of sessions, newest first, with their status as of `now` (and filtered by it). */
    async listSessions(
      filter: SessionFilter,
      options: { status?: RespondentSessionStatus; now: Date; limit: number; offset: number },
    ): Promise<{ items: SessionRow[]; total: number }> {
      const status = effectiveStatusSql('s', options.now);
      let query = db.selectFrom('respondent_sessions as s');
      query =
        'projectId' in filter
          ? query.where('s.project_id', '=', filter.projectId)
          : // The researches the respondent was given, in their order (fixed at the start).
            query
              .where('s.project_id', '=', (eb) =>
                eb.selectFrom('campaigns').select('project_id').where('id', '=', filter.researchId),
              )
              .where(sql<boolean>`s.research_order @> jsonb_build_array(${filter.researchId}::text)`);
      if (options.status) query = query.where(status, '=', options.status);
      const [items, total] = await Promise.all([
        query
          .select([
            's.id',
            's.link_id',
            's.scenario_id',
            's.participant_id',
            's.platform',
            status.as('status'),
            's.step',
            's.quota_state',
            's.calibration_check',
            's.analysis_site',
            's.fell_back',
            's.is_preview',
            's.started_at',
            's.last_seen_at',
            's.ended_at',
          ])
          .orderBy('s.started_at', 'desc')
          .orderBy('s.id')
          .limit(options.limit)
          .offset(options.offset)
          .execute(),
        query.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: total.n };
    },

    /** Segments of the sessions with the chunks stored in each. */
    segments(sessionIds: string[]): Promise<SegmentSummary[]> {
      if (!sessionIds.length) return Promise.resolve([]);
      return db
        .selectFrom('recording_segments as g')
        .leftJoin('recording_chunks as c', (join) =>
          join.onRef('c.session_id', '=', 'g.session_id').onRef('c.segment', '=', 'g.segment'),
        )
        .select([
          'g.session_id',
          'g.segment',
          'g.mime_type',
          sql<number>`count(c.index)::int`.as('chunks'),
          sql<number>`coalesce(sum(c.size), 0)::float8`.as('bytes'),
        ])
        .where('g.session_id', 'in', sessionIds)
        .groupBy(['g.session_id', 'g.segment', 'g.mime_type'])
        .orderBy('g.session_id')
        .orderBy('g.segment')
        .execute();
    },

    /** A segment's chunks in order, for playback. */
    async recording(sessionId: string, segment: number) {
      const head = await db
        .selectFrom('recording_segments')
        .select('mime_type')
        .where('session_id', '=', sessionId)
        .where('segment', '=', segment)
        .executeTakeFirst();
      if (!head) return undefined;
      const chunks = await db
        .selectFrom('recording_chunks')
        .select(['index', 'size', 'storage_key'])
        .where('session_id', '=', sessionId)
        .where('segment', '=', segment)
        .orderBy('index')
        .execute();
      return { mime_type: head.mime_type, chunks };
    },

    /** Every video process of a research, newest first, with the respondent's participant id. */
    /**
     * Privacy mode's figures of researches (decision 064): their real sessions whose device was measured, and of
     * those the ones analysed on the device, fallen back to video upload, and stopped as too slow; with whether the
     * research keeps the video on the device now.
     */
    deviceAnalysis(researchIds: string[]): Promise<
      {
        campaign_id: string;
        video_on_device: boolean;
        measured: number;
        on_device: number;
        fell_back: number;
        too_slow: number;
      }[]
    > {
      if (!researchIds.length) return Promise.resolve([]);
      return db
        .selectFrom('campaigns as c')
        .leftJoin('respondent_sessions as s', (join) =>
          join
            .on(sql<boolean>`s.research_order @> jsonb_build_array(c.id::text)`)
            .on('s.is_preview', '=', false)
            .on('s.device_fps', 'is not', null),
        )
        .select([
          'c.id as campaign_id',
          sql<boolean>`coalesce((c.settings ->> 'videoOnDevice')::boolean, false)`.as('video_on_device'),
          sql<number>`count(s.id)::int`.as('measured'),
          count(sql`s.analysis_site = 'device'`).as('on_device'),
          count(sql`s.fell_back`).as('fell_back'),
          count(sql`s.status = 'device_too_slow'`).as('too_slow'),
        ])
        .where('c.id', 'in', researchIds)
        .groupBy('c.id')
        .execute();
    },

    /** Sessions named by completion codes (ids already checked to be uuids). */
    codeSessions(ids: string[]): Promise<CodeSession[]> {
      if (!ids.length) return Promise.resolve([]);
      return db
        .selectFrom('respondent_sessions')
        .select(['id', 'project_id', 'status', 'last_seen_at', 'quota_state', 'outcome', 'ended_at'])
        .where('id', 'in', ids)
        .execute();
    },

    titles(table: 'projects' | 'campaigns', ids: string[]): Promise<{ id: string; title: string }[]> {
      if (!ids.length) return Promise.resolve([]);
      return db.selectFrom(table).select(['id', 'title']).where('id', 'in', ids).execute();
    },
  };
}

export type FieldworkRepository = ReturnType<typeof createFieldworkRepository>;
