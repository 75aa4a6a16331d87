import type { ReportAreaInput, ReportDefinition, ReportFilters, ReportSnapshot, TaskMark } from '@emolens/contracts';
import type { SessionSummaryOut } from '@emolens/engine';
import { type Kysely, sql } from 'kysely';
import { isUniqueViolation } from '../../db/sql.ts';
import type { DB } from '../../db/types.ts';
import { DIGEST_HEAD_BYTES } from '../processing/digest.ts';
import { responseFilterWhere } from '../responses/response-filter.repository.ts';

const SUMMARY = [
  'id',
  'campaign_id',
  'name',
  'type',
  'step',
  'filters',
  'segment',
  'fixations',
  'areas',
  'benchmark',
  'researches',
  'status',
  'failed',
  'error_key',
  'progress',
  'generation',
  'video_count',
  'created_at',
  'built_at',
  'last_accessed_at',
] as const;

/**
 * A report's snapshot as JSON text: as the build wrote it, or one stored as jsonb before decision 026 turned back
 * into text.
 */
const SNAPSHOT_TEXT = sql<string | null>`coalesce(snapshot_text, snapshot::text)`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Of the summary: the content's start (the digest's boundary) and the calibration baseline. */
export type ReportSummaryPart = Pick<SessionSummaryOut, 'windowMs' | 'baseline'>;

/** The researches' respondents (one per video process) the response filter and the sessions' dates take. */
function respondentsOf(db: Kysely<DB>, campaignIds: readonly string[], filters: ReportFilters) {
  return db
    .selectFrom('video_processes as v')
    .innerJoin('respondent_sessions', 'respondent_sessions.id', 'v.session_id')
    .where('v.campaign_id', 'in', campaignIds)
    .where((eb) => responseFilterWhere(eb, filters.respondents))
    .$if(filters.date_from !== null, (q) =>
      q.where('respondent_sessions.started_at', '>=', sql<Date>`${filters.date_from}::date::timestamptz`),
    )
    .$if(filters.date_to !== null, (q) =>
      q.where(
        'respondent_sessions.started_at',
        '<',
        sql<Date>`${filters.date_to}::date::timestamptz + interval '1 day'`,
      ),
    );
}

/** Of them, those whose process has a stored result, among the chosen processes. */
function processedOf(db: Kysely<DB>, campaignIds: readonly string[], filters: ReportFilters) {
  return respondentsOf(db, campaignIds, filters)
    .innerJoin('process_results as r', 'r.id', 'v.result_id')
    .$if(filters.process_ids.length > 0, (q) => q.where('v.id', 'in', filters.process_ids));
}

export function createReportsRepository(db: Kysely<DB>) {
  return {
    /** A new report, in progress; null when the research already has a build running. */
    async create(campaignId: string, userId: string, def: ReportDefinition) {
      try {
        return await db
          .insertInto('reports')
          .values({
            campaign_id: campaignId,
            created_by: userId,
            name: def.name,
            type: def.type,
            step: def.step,
            filters: JSON.stringify(def.filters),
            segment: JSON.stringify(def.segment),
            fixations: JSON.stringify(def.fixations),
            benchmark: def.benchmark,
            researches: JSON.stringify(def.researches),
            status: 'in_progress',
          })
          .returning(SUMMARY)
          .executeTakeFirstOrThrow();
      } catch (error) {
        // The one-build-per-research index said no.
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    list(campaignId: string) {
      return db
        .selectFrom('reports')
        .select(SUMMARY)
        .where('campaign_id', '=', campaignId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },

    summary(id: string) {
      return db.selectFrom('reports').select(SUMMARY).where('id', '=', id).executeTakeFirst();
    },

    /**
     * The report with its snapshot's stored JSON text (sent on as it is: parsing and re-serialising a large snapshot
     * cost more than the rest of the request), marking it accessed now — one statement.
     */
    open(id: string) {
      return db
        .updateTable('reports')
        .set({ last_accessed_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returning([...SUMMARY, SNAPSHOT_TEXT.as('snapshot_text')])
        .executeTakeFirst();
    },

    /** The snapshot alone (exports, drawn areas, gaze plots); null without one. */
    async snapshot(id: string): Promise<ReportSnapshot | null> {
      const row = await db
        .selectFrom('reports')
        .select(SNAPSHOT_TEXT.as('text'))
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.text ? (JSON.parse(row.text) as ReportSnapshot) : null;
    },

    /** The sessions a built report counts, if it is a done report of this research. */
    async includedSessions(id: string, campaignId: string): Promise<string[] | undefined> {
      const row = await db
        .selectFrom('reports')
        .select(
          sql<
            { session_id: string; included: boolean }[] | null
          >`coalesce(snapshot_text::jsonb, snapshot) -> 'people'`.as('people'),
        )
        .where('id', '=', id)
        .where('campaign_id', '=', campaignId)
        .where('status', '=', 'done')
        .executeTakeFirst();
      return row?.people?.filter((p) => p.included).map((p) => p.session_id);
    },

    /**
     * Builds again (with new drawn areas, when given): a new generation in progress; null when another build of the
     * research is running.
     */
    async rebuild(id: string, areas?: ReportAreaInput[]) {
      try {
        return await db
          .updateTable('reports')
          .set({
            ...(areas ? { areas: JSON.stringify(areas) } : {}),
            status: 'in_progress',
            failed: false,
            error_key: null,
            progress: 0,
            snapshot: null,
            snapshot_text: null,
            video_count: null,
            generation: sql<number>`generation + 1`,
          })
          .where('id', '=', id)
          .where('status', '!=', 'in_progress')
          .returning(SUMMARY)
          .executeTakeFirst();
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    /** Stops a build: the running job's generation is no longer current and cannot write. */
    cancel(id: string) {
      return db
        .updateTable('reports')
        .set({ status: 'canceled', generation: sql<number>`generation + 1`, progress: 0 })
        .where('id', '=', id)
        .where('status', '=', 'in_progress')
        .returning(SUMMARY)
        .executeTakeFirst();
    },

    async remove(id: string) {
      const result = await db.deleteFrom('reports').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Counts for the build's pre-checks: respondents the response filter and dates take, and those with a usable process. */
    async counts(campaignIds: readonly string[], filters: ReportFilters) {
      const respondents = await respondentsOf(db, campaignIds, filters)
        .select((eb) => eb.fn.count<string>('v.id').as('n'))
        .executeTakeFirstOrThrow();
      const processes = await processedOf(db, campaignIds, filters)
        .$if(filters.quality === 'usable', (q) => q.where('r.usable', '=', true))
        .$if(filters.accuracy_max_px !== null, (q) =>
          q.where('r.calibration_accuracy_px', '<=', filters.accuracy_max_px as number),
        )
        .select((eb) => eb.fn.count<string>('v.id').as('n'))
        .executeTakeFirstOrThrow();
      return { respondents: Number(respondents.n), processes: Number(processes.n) };
    },

    /** The job's claim: the definition of the generation it was sent for, if that is still the one in progress. */
    claim(id: string, generation: number) {
      return db
        .selectFrom('reports as rep')
        .innerJoin('campaigns as c', 'c.id', 'rep.campaign_id')
        .select([
          'rep.id',
          'rep.campaign_id',
          'rep.type',
          'rep.step',
          'rep.filters',
          'rep.segment',
          'rep.fixations',
          'rep.areas',
          'rep.benchmark',
          'rep.researches',
          'c.content_type',
          sql<string>`coalesce(c.categories->>'subtype', '')`.as('subtype'),
          'c.settings',
          'c.picture_gallery',
          'c.shelf_content_scenario',
        ])
        .where('rep.id', '=', id)
        .where('rep.generation', '=', generation)
        .where('rep.status', '=', 'in_progress')
        .executeTakeFirst();
    },

    /** Sizes of the researches' images and content videos. */
    media(campaignIds: readonly string[]) {
      return db
        .selectFrom('media')
        .select(['id', 'campaign_id', 'kind', 'role', 'width', 'height', 'duration_seconds', 'filename'])
        .where('campaign_id', 'in', campaignIds)
        .where('status', '=', 'ready')
        .orderBy('created_at', 'desc')
        .execute();
    },

    /**
     * Exactly what the build reads of every session the filters take (the quality filters are applied by the
     * build, which lists the sessions it leaves out): who, the result's quality and its stored series and frames.
     */
    sessions(campaignIds: readonly string[], filters: ReportFilters) {
      return processedOf(db, campaignIds, filters)
        .select([
          'respondent_sessions.id as session_id',
          'v.campaign_id',
          'v.id as process_id',
          'respondent_sessions.participant_id',
          'respondent_sessions.status',
          'respondent_sessions.sex',
          'respondent_sessions.age',
          'respondent_sessions.started_at',
          'r.engine_version',
          'r.usable',
          'r.excluded_reason',
          'r.bad_frame_share',
          'r.calibration_accuracy_px',
          'r.calibration_accuracy_percent',
          'r.mean_engagement',
          'r.id as result_id',
          sql<ReportSummaryPart>`r.summary`.as('summary'),
          // The digest's head alone (its layout's version and the resting means): the build's thread reads the rest.
          sql<Uint8Array | null>`substring(r.report_digest from 1 for ${DIGEST_HEAD_BYTES})`.as('digest_head'),
        ])
        .orderBy('respondent_sessions.started_at')
        .orderBy('v.id')
        .execute();
    },

    /** One process's result for its report digest (the digest, or what makes it when it is missing). */
    resultOf(processId: string) {
      return db
        .selectFrom('video_processes as v')
        .innerJoin('process_results as r', 'r.id', 'v.result_id')
        .select(['r.id as result_id', 'r.report_digest'])
        .where('v.id', '=', processId)
        .executeTakeFirst();
    },

    /** A session's recording segments that still have their chunks (retention may have removed them). */
    keptSegments(sessionId: string) {
      return db
        .selectFrom('recording_segments as s')
        .select(['s.segment', 's.offset_ms', 's.mime_type'])
        .where('s.session_id', '=', sessionId)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('recording_chunks as c')
              .select('c.index')
              .whereRef('c.session_id', '=', 's.session_id')
              .whereRef('c.segment', '=', 's.segment'),
          ),
        )
        .orderBy('s.segment')
        .execute();
    },

    /** Frames of results stored without a report digest (written before it existed). */
    framesOf(resultIds: readonly string[]) {
      if (!resultIds.length) return Promise.resolve([]);
      return db
        .selectFrom('process_results')
        .select([
          'id',
          'frames',
          'series',
          sql<number>`(summary -> 'windowMs' ->> 'start')::float8`.as('content_start_ms'),
        ])
        .where('id', 'in', resultIds)
        .execute();
    },

    /**
     * The query of the results' report digests (result id as text, digest), its values inlined: the build's thread
     * runs it as a binary COPY (`db/binary-copy.ts`), on a connection of its own or through the job.
     */
    digestsQuery(resultIds: readonly string[]): string {
      const invalid = resultIds.find((id) => !UUID.test(id));
      if (invalid !== undefined) throw new Error(`not a result id: ${invalid}`);
      return db
        .selectFrom('process_results')
        .select([sql<string>`id::text`.as('id'), 'report_digest'])
        .where(sql<boolean>`id = any(${sql.lit(`{${resultIds.join(',')}}`)}::uuid[])`)
        .compile().sql;
    },

    async saveDigest(resultId: string, digest: Uint8Array) {
      await db.updateTable('process_results').set({ report_digest: digest }).where('id', '=', resultId).execute();
    },

    /** The stored per-second series of some processes (the per-respondent export). */
    seriesOf(processIds: readonly string[]) {
      if (!processIds.length) return Promise.resolve([]);
      return db
        .selectFrom('video_processes as v')
        .innerJoin('process_results as r', 'r.id', 'v.result_id')
        .select(['v.id as process_id', 'v.session_id', 'r.series'])
        .where('v.id', 'in', processIds)
        .execute();
    },

    /** What a report needs of researches it pools: project, content type and the content's items, title. */
    researches(ids: readonly string[]) {
      if (!ids.length) return Promise.resolve([]);
      return db
        .selectFrom('campaigns')
        .select(['id', 'title', 'project_id', 'content_type', 'settings', 'picture_gallery', 'shelf_content_scenario'])
        .where('id', 'in', ids)
        .execute();
    },

    /** The project's other researches with the research's content type, and their processed sessions. */
    poolable(campaignId: string) {
      return db
        .selectFrom('campaigns as home')
        .innerJoin('campaigns as c', (j) =>
          j.onRef('c.project_id', '=', 'home.project_id').onRef('c.content_type', '=', 'home.content_type'),
        )
        .select([
          'c.id',
          'c.title',
          (eb) =>
            eb
              .selectFrom('video_processes as v')
              .select(eb.fn.countAll<string>().as('n'))
              .whereRef('v.campaign_id', '=', 'c.id')
              .where('v.result_id', 'is not', null)
              .as('processed'),
        ])
        .where('home.id', '=', campaignId)
        .whereRef('c.id', '!=', 'home.id')
        .orderBy('c.created_at')
        .orderBy('c.id')
        .execute();
    },

    /** What task statistics need of the research: its content type, settings (tasks, report rule) and images. */
    campaign(campaignId: string) {
      return db
        .selectFrom('campaigns')
        .select(['id', 'content_type', 'settings'])
        .where('id', '=', campaignId)
        .executeTakeFirst();
    },

    /**
     * The research's respondents with their event logs (every batch's events, in order) and screen sizes: the
     * sessions of the scenarios that show it and those with a recording of it, previews left out; `only`: just these.
     */
    async taskSessions(campaignId: string, only: readonly string[] | null = null) {
      if (only?.length === 0) return [];
      return db
        .selectFrom('respondent_sessions as s')
        .select([
          's.id as session_id',
          's.participant_id',
          's.screen_width',
          's.screen_height',
          (eb) =>
            eb
              .selectFrom('session_event_batches as b')
              .select(
                sql<unknown[]>`coalesce(jsonb_agg(e.value order by b.seq, e.ordinality), '[]'::jsonb)`.as('events'),
              )
              .innerJoinLateral(sql`jsonb_array_elements(b.events) with ordinality`.as('e'), (j) => j.onTrue())
              .whereRef('b.session_id', '=', 's.id')
              .as('events'),
        ])
        .where((eb) =>
          eb.or([
            eb(
              's.scenario_id',
              'in',
              eb.selectFrom('scenario_campaigns').select('scenario_id').where('campaign_id', '=', campaignId),
            ),
            eb(
              's.id',
              'in',
              eb.selectFrom('video_processes').select('session_id').where('campaign_id', '=', campaignId),
            ),
          ]),
        )
        .where('s.is_preview', '=', false)
        .$if(only !== null, (q) => q.where('s.id', 'in', only as string[]))
        .orderBy('s.started_at')
        .orderBy('s.id')
        .execute();
    },

    taskMarks(campaignId: string) {
      return db
        .selectFrom('task_marks')
        .select(['session_id', 'task', 'mark'])
        .where('campaign_id', '=', campaignId)
        .execute();
    },

    /** Marks written as given: "not marked" removes the mark. */
    async setTaskMarks(
      campaignId: string,
      userId: string,
      marks: readonly { session_id: string; task: number; mark: TaskMark }[],
    ) {
      await db.transaction().execute(async (trx) => {
        for (const m of marks) {
          const mark = m.mark;
          if (mark === 'not_marked') {
            await trx
              .deleteFrom('task_marks')
              .where('campaign_id', '=', campaignId)
              .where('session_id', '=', m.session_id)
              .where('task', '=', m.task)
              .execute();
          } else {
            await trx
              .insertInto('task_marks')
              .values({
                campaign_id: campaignId,
                session_id: m.session_id,
                task: m.task,
                mark,
                marked_by: userId,
              })
              .onConflict((c) =>
                c.columns(['campaign_id', 'session_id', 'task']).doUpdateSet({
                  mark,
                  marked_by: userId,
                  marked_at: sql<Date>`now()`,
                }),
              )
              .execute();
          }
        }
      });
    },

    /** Answers to one question, per session (segments by an answer). */
    answersTo(campaignIds: readonly string[], surveyId: string, question: string) {
      return db
        .selectFrom('respondent_answers as a')
        .innerJoin('video_processes as v', 'v.session_id', 'a.session_id')
        .select(['a.session_id', sql<unknown>`a.answers -> ${question}`.as('answer')])
        .where('v.campaign_id', 'in', campaignIds)
        .where('a.survey_id', '=', surveyId)
        .execute();
    },

    async progress(id: string, generation: number, percent: number) {
      const result = await db
        .updateTable('reports')
        .set({ progress: Math.max(0, Math.min(99, Math.round(percent))) })
        .where('id', '=', id)
        .where('generation', '=', generation)
        .where('status', '=', 'in_progress')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * The snapshot of a generation (its JSON text, which opening the report sends as it is), written once and only
     * while it is current.
     */
    async finish(id: string, generation: number, snapshotText: string, videoCount: number) {
      const result = await db
        .updateTable('reports')
        .set({
          status: 'done',
          progress: 100,
          snapshot: null,
          snapshot_text: snapshotText,
          video_count: videoCount,
          built_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .where('generation', '=', generation)
        .where('status', '=', 'in_progress')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** A build that failed: canceled, with why; the old snapshot (if any) stays out of sight. */
    async fail(id: string, generation: number, errorKey: string) {
      await db
        .updateTable('reports')
        .set({
          status: 'canceled',
          failed: true,
          error_key: errorKey,
          progress: 0,
          snapshot: null,
          snapshot_text: null,
          video_count: null,
        })
        .where('id', '=', id)
        .where('generation', '=', generation)
        .where('status', '=', 'in_progress')
        .execute();
    },
  };
}

export type ReportsRepository = ReturnType<typeof createReportsRepository>;
