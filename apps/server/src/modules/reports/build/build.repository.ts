import type { ReportFilters } from '@emolens/contracts';
import type { SessionSummaryOut } from '@emolens/engine';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../../db/types.ts';
import { DIGEST_HEAD_BYTES } from '../../processing/digest.ts';
import { DRIFT_SELECT } from '../../processing/drift-columns.ts';
import { responseFilterWhere } from '../../responses/response-filter.repository.ts';

/**
 * What a report's build reads (and the checks before it): the researches' respondents the filters take, their results
 * and report digests, the content's media, the researches pooled, answers to segment by. Part of the reports
 * repository (`reports.repository.ts`).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Of the summary: the content's start (the digest's boundary) and the calibration baseline. */
export type ReportSummaryPart = Pick<SessionSummaryOut, 'windowMs' | 'baseline'>;

/** The researches' respondents (one per video process) the response filter and the sessions' dates take. */
function respondentsOf(db: Kysely<DB>, researchIds: readonly string[], filters: ReportFilters) {
  return db
    .selectFrom('video_processes as v')
    .innerJoin('respondent_sessions', 'respondent_sessions.id', 'v.session_id')
    .where('v.campaign_id', 'in', researchIds)
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
function processedOf(db: Kysely<DB>, researchIds: readonly string[], filters: ReportFilters) {
  return respondentsOf(db, researchIds, filters)
    .innerJoin('process_results as r', 'r.id', 'v.result_id')
    .$if(filters.process_ids.length > 0, (q) => q.where('v.id', 'in', filters.process_ids));
}

export function createBuildReads(db: Kysely<DB>) {
  return {
    /** Counts for the build's pre-checks: respondents the response filter and dates take, and those with a usable process. */
    async counts(researchIds: readonly string[], filters: ReportFilters) {
      const respondents = await respondentsOf(db, researchIds, filters)
        .select((eb) => eb.fn.count<string>('v.id').as('n'))
        .executeTakeFirstOrThrow();
      const processes = await processedOf(db, researchIds, filters)
        .$if(filters.quality === 'usable', (q) => q.where('r.usable', '=', true))
        .$if(filters.accuracy_max_px !== null, (q) =>
          q.where('r.calibration_accuracy_px', '<=', filters.accuracy_max_px as number),
        )
        .select((eb) => eb.fn.count<string>('v.id').as('n'))
        .executeTakeFirstOrThrow();
      return { respondents: Number(respondents.n), processes: Number(processes.n) };
    },

    /** Sizes of the researches' images and content videos. */
    media(researchIds: readonly string[]) {
      return db
        .selectFrom('media')
        .select(['id', 'campaign_id', 'kind', 'role', 'width', 'height', 'duration_seconds', 'filename'])
        .where('campaign_id', 'in', researchIds)
        .where('status', '=', 'ready')
        .orderBy('created_at', 'desc')
        .execute();
    },

    /**
     * Exactly what the build reads of every session the filters take (the quality filters are applied by the
     * build, which lists the sessions it leaves out): who, the result's quality and its stored series and frames.
     */
    sessions(researchIds: readonly string[], filters: ReportFilters) {
      return processedOf(db, researchIds, filters)
        .select([
          'respondent_sessions.id as session_id',
          'v.campaign_id',
          'v.id as process_id',
          'respondent_sessions.participant_id',
          'respondent_sessions.status',
          'respondent_sessions.sex',
          'respondent_sessions.age',
          'respondent_sessions.started_at',
          'respondent_sessions.calibration_check',
          'r.engine_version',
          'r.usable',
          'r.excluded_reason',
          'r.bad_frame_share',
          'r.calibration_accuracy_px',
          'r.calibration_accuracy_percent',
          'r.calibration_precision_px',
          'r.calibration_precision_percent',
          ...DRIFT_SELECT,
          'r.distance_cm',
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
    poolable(researchId: string) {
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
        .where('home.id', '=', researchId)
        .whereRef('c.id', '!=', 'home.id')
        .orderBy('c.created_at')
        .orderBy('c.id')
        .execute();
    },

    /** Answers to one question, per session (segments by an answer). */
    answersTo(researchIds: readonly string[], surveyId: string, question: string) {
      return db
        .selectFrom('respondent_answers as a')
        .innerJoin('video_processes as v', 'v.session_id', 'a.session_id')
        .select(['a.session_id', sql<unknown>`a.answers -> ${question}`.as('answer')])
        .where('v.campaign_id', 'in', researchIds)
        .where('a.survey_id', '=', surveyId)
        .execute();
    },
  };
}
