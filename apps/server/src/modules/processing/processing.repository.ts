import {
  type ExcludedReason,
  FINAL_PROCESS_STATUSES,
  type ProcessErrorCode,
  RUNNING_PROCESS_STATUSES,
  type StoredGazeDrift,
  type VideoProcessStatus,
} from '@emolens/contracts';
import type { GazePrecision, SessionResult } from '@emolens/engine';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.ts';
import { chargeRespondent, type RespondentCharge } from '../licences/licences.repository.ts';
import { DRIFT_SELECT, driftColumns } from './drift-columns.ts';

/** A process as the cabinet lists it: the row, its respondent, and its current result's figures (drift: 053). */
export interface ProcessListRow extends StoredGazeDrift {
  id: string;
  campaign_id: string;
  session_id: string;
  participant_id: string | null;
  status: VideoProcessStatus;
  progress: number;
  attempts: number;
  error_code: ProcessErrorCode | null;
  engine_version: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
  result_engine_version: string | null;
  result_created_at: Date | null;
  recording_seconds: number | null;
  frame_count: number | null;
  face_found: boolean | null;
  bad_frame_share: number | null;
  usable: boolean | null;
  excluded_reason: ExcludedReason | null;
  calibration_status: 'calibrated' | 'calibration_failed' | 'not_run' | null;
  calibration_accuracy_px: number | null;
  calibration_accuracy_percent: number | null;
  calibration_precision_px: number | null;
  calibration_precision_percent: number | null;
  distance_cm: number | null;
  mean_engagement: number | null;
}

/** One line of a research's Cint file. */
export interface CintRow {
  rid: string | null;
  participant_id: string | null;
  session_id: string;
  status: VideoProcessStatus;
  error_code: ProcessErrorCode | null;
  usable: boolean | null;
  excluded_reason: ExcludedReason | null;
  bad_frame_share: number | null;
  ended_at: Date | null;
}

/** Exactly what one processing job needs: the research's content, the recording's chunks and the event log. */
export interface ProcessJobInput {
  id: string;
  session_id: string;
  campaign_id: string;
  generation: number;
  content_type: string;
  settings: { badFramesPercent?: number; multiFacesMode?: boolean; contentVideoDuration?: number } & Record<
    string,
    unknown
  >;
  /** The research's ready content video (video researches): its natural size and length. */
  video: { width: number | null; height: number | null; duration_seconds: number | null } | undefined;
  segments: { segment: number; offset_ms: number; mime_type: string; chunks: { storage_key: string }[] }[];
  events: unknown[];
}

export interface ProcessOutcome {
  status: 'done' | 'detection_error';
  result: SessionResult;
  /** What reports read of the frames (reports/digest.ts); made at the first report when missing. */
  digest?: Uint8Array;
  /** The gaze's precision on the validation dots (`storedGazePrecision`, decision 052); null: not measured. */
  precision?: GazePrecision | null;
}

const RUNNING = [...RUNNING_PROCESS_STATUSES];
const FINAL = [...FINAL_PROCESS_STATUSES];

/** A process sent to run again: a new generation, waiting, nothing of the last attempt's outcome. */
const restarted = () =>
  ({
    status: 'restarted',
    generation: sql<number>`generation + 1`,
    progress: 0,
    error_code: null,
    finished_at: null,
    updated_at: sql<Date>`now()`,
  }) as const;

export function createProcessingRepository(db: Kysely<DB>) {
  return {
    /** A research's processes, newest first, or one process. */
    list(filter: { researchId: string } | { id: string }): Promise<ProcessListRow[]> {
      return db
        .selectFrom('video_processes as v')
        .innerJoin('respondent_sessions as s', 's.id', 'v.session_id')
        .leftJoin('process_results as r', 'r.id', 'v.result_id')
        .select([
          'v.id',
          'v.campaign_id',
          'v.session_id',
          's.participant_id',
          'v.status',
          'v.progress',
          'v.attempts',
          'v.error_code',
          'v.engine_version',
          'v.started_at',
          'v.finished_at',
          'v.created_at',
          'v.updated_at',
          'r.engine_version as result_engine_version',
          'r.created_at as result_created_at',
          'r.recording_seconds',
          'r.frame_count',
          'r.face_found',
          'r.bad_frame_share',
          'r.usable',
          'r.excluded_reason',
          'r.calibration_status',
          'r.calibration_accuracy_px',
          'r.calibration_accuracy_percent',
          'r.calibration_precision_px',
          'r.calibration_precision_percent',
          ...DRIFT_SELECT,
          'r.distance_cm',
          'r.mean_engagement',
        ])
        .$if('researchId' in filter, (q) =>
          q.where('v.campaign_id', '=', (filter as { researchId: string }).researchId),
        )
        .$if('id' in filter, (q) => q.where('v.id', '=', (filter as { id: string }).id))
        .orderBy('v.created_at', 'desc')
        .orderBy('v.id')
        .execute();
    },

    /**
     * The Cint file of a research: per process, who the respondent is to the panel, its state and the
     * current result's verdict. Nothing else is read (no frames, series or summaries).
     */
    async cintRows(researchId: string): Promise<{ title: string; rows: CintRow[] } | undefined> {
      const research = await db.selectFrom('campaigns').select('title').where('id', '=', researchId).executeTakeFirst();
      if (!research) return undefined;
      const rows = await db
        .selectFrom('video_processes as v')
        .innerJoin('respondent_sessions as s', 's.id', 'v.session_id')
        .leftJoin('process_results as r', 'r.id', 'v.result_id')
        .select([
          sql<string | null>`s.panel->>'RID'`.as('rid'),
          's.participant_id',
          'v.session_id',
          'v.status',
          'v.error_code',
          'r.usable',
          'r.excluded_reason',
          'r.bad_frame_share',
          's.ended_at',
        ])
        .where('v.campaign_id', '=', researchId)
        .orderBy('s.ended_at')
        .orderBy('v.id')
        .execute();
      return { title: research.title, rows };
    },

    findProcess(id: string) {
      return db
        .selectFrom('video_processes')
        .select(['id', 'campaign_id', 'session_id', 'status', 'generation'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Processes by research and status, with how many of the done ones are usable. */
    counts(researchIds: string[]) {
      if (!researchIds.length) return Promise.resolve([]);
      return db
        .selectFrom('video_processes as v')
        .leftJoin('process_results as r', 'r.id', 'v.result_id')
        .select([
          'v.campaign_id',
          'v.status',
          sql<number>`count(*)::int`.as('n'),
          sql<number>`(count(*) filter (where r.usable))::int`.as('usable'),
          sql<number>`(count(*) filter (where r.usable = false))::int`.as('excluded'),
        ])
        .where('v.campaign_id', 'in', researchIds)
        .groupBy(['v.campaign_id', 'v.status'])
        .execute();
    },

    /**
     * A worker takes the process for this generation: preprocessing, one more attempt. A retry after a
     * killed worker finds it still preprocessing or in process and takes it again. Undefined when the
     * process was canceled, restarted again or deleted meanwhile: the job has nothing to do.
     */
    claim(id: string, generation: number, engineVersion: string) {
      return db
        .updateTable('video_processes')
        .set({
          status: 'preprocessing',
          attempts: sql<number>`attempts + 1`,
          progress: 0,
          error_code: null,
          engine_version: engineVersion,
          started_at: sql<Date>`now()`,
          finished_at: null,
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .where('generation', '=', generation)
        .where('status', 'in', RUNNING)
        .returning(['id', 'attempts'])
        .executeTakeFirst();
    },

    async jobInput(id: string): Promise<ProcessJobInput | undefined> {
      const process = await db
        .selectFrom('video_processes as v')
        .innerJoin('campaigns as c', 'c.id', 'v.campaign_id')
        .select(['v.id', 'v.session_id', 'v.campaign_id', 'v.generation', 'c.content_type', 'c.settings'])
        .where('v.id', '=', id)
        .executeTakeFirst();
      if (!process) return undefined;
      const [video, segments, chunks, batches] = await Promise.all([
        db
          .selectFrom('media')
          .select(['width', 'height', 'duration_seconds'])
          .where('campaign_id', '=', process.campaign_id)
          .where('kind', '=', 'video')
          .where('role', '=', 'content')
          .where('status', '=', 'ready')
          .orderBy('created_at', 'desc')
          .executeTakeFirst(),
        db
          .selectFrom('recording_segments')
          .select(['segment', 'offset_ms', 'mime_type'])
          .where('session_id', '=', process.session_id)
          .orderBy('segment')
          .execute(),
        db
          .selectFrom('recording_chunks')
          .select(['segment', 'storage_key'])
          .where('session_id', '=', process.session_id)
          .orderBy('segment')
          .orderBy('index')
          .execute(),
        db
          .selectFrom('session_event_batches')
          .select('events')
          .where('session_id', '=', process.session_id)
          .orderBy('seq')
          .execute(),
      ]);
      return {
        ...process,
        settings: process.settings as ProcessJobInput['settings'],
        video,
        segments: segments.map((s) => ({ ...s, chunks: chunks.filter((c) => c.segment === s.segment) })),
        events: batches.flatMap((b) => b.events),
      };
    },

    /** Natural sizes of the research's images by media id (pictures, shelf images, task screenshots). */
    imageSizes(researchId: string) {
      return db
        .selectFrom('media')
        .select(['id', 'width', 'height'])
        .where('campaign_id', '=', researchId)
        .where('kind', '=', 'image')
        .execute();
    },

    /** Progress of the current generation; false when it is no longer current (canceled, restarted). */
    async progress(id: string, generation: number, status: 'preprocessing' | 'in_process', percent: number) {
      const result = await db
        .updateTable('video_processes')
        .set({ status, progress: Math.max(0, Math.min(100, percent)), updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .where('generation', '=', generation)
        .where('status', 'in', ['preprocessing', 'in_process'])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * The result of one generation, written once: the result row (a retry of the same generation finds
     * it and reuses it), the process pointing at it, older results of the process removed, and the
     * session's quota slot decided (a respondent counted now is charged to the project's owner: `counted`). Nothing is
     * written when the generation is no longer current (false). `written` runs last in the same transaction (the
     * event that reports it is published there).
     */
    async finish(
      id: string,
      generation: number,
      outcome: ProcessOutcome,
      written?: (counted: Counted | null, trx: Kysely<DB>) => Promise<void>,
    ): Promise<false | { counted: Counted | null }> {
      const { result } = outcome;
      const summary = result.summary;
      return db.transaction().execute(async (trx) => {
        const process = await trx
          .selectFrom('video_processes')
          .select(['session_id'])
          .where('id', '=', id)
          .where('generation', '=', generation)
          .where('status', 'in', RUNNING)
          .forUpdate()
          .executeTakeFirst();
        if (!process) return false;
        const inserted = await trx
          .insertInto('process_results')
          .values({
            process_id: id,
            generation,
            engine_version: result.engineVersion,
            recording_seconds: result.recordingSeconds,
            fps: result.sampling.fps,
            frame_count: result.frameCount,
            frames: result.frames,
            series: JSON.stringify(result.series),
            people: JSON.stringify(result.people),
            summary: JSON.stringify(summary),
            face_found: summary.faceFound,
            bad_frame_share: summary.badFrameShare,
            usable: summary.usable,
            excluded_reason: summary.excludedReason,
            calibration_status: summary.calibration.status,
            calibration_accuracy_px: summary.calibration.accuracyPx,
            calibration_accuracy_percent: summary.calibration.accuracyPercent,
            calibration_precision_px: outcome.precision?.px ?? null,
            calibration_precision_percent: outcome.precision?.percentOfDiagonal ?? null,
            ...driftColumns(summary.drift),
            distance_cm: summary.distance?.cm ?? null,
            mean_engagement: summary.meanEngagement,
            report_digest: outcome.digest ?? null,
          })
          .onConflict((c) => c.columns(['process_id', 'generation']).doNothing())
          .returning('id')
          .executeTakeFirst();
        const resultId =
          inserted?.id ??
          (
            await trx
              .selectFrom('process_results')
              .select('id')
              .where('process_id', '=', id)
              .where('generation', '=', generation)
              .executeTakeFirstOrThrow()
          ).id;
        await trx
          .updateTable('video_processes')
          .set({
            status: outcome.status,
            progress: 100,
            result_id: resultId,
            engine_version: result.engineVersion,
            finished_at: sql<Date>`now()`,
            updated_at: sql<Date>`now()`,
          })
          .where('id', '=', id)
          .execute();
        await trx.deleteFrom('process_results').where('process_id', '=', id).where('id', '!=', resultId).execute();
        const counted = await decideQuota(trx, process.session_id);
        await written?.(counted, trx);
        return { counted };
      });
    },

    /** The attempt failed for good: a typed error on the process (when its generation is still current). */
    async fail(id: string, generation: number, code: ProcessErrorCode): Promise<boolean> {
      const result = await db
        .updateTable('video_processes')
        .set({ status: 'error', error_code: code, finished_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .where('generation', '=', generation)
        .where('status', 'in', RUNNING)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** An ended process runs again as a new generation; its current result stays until the new one is done. */
    restart(id: string) {
      return db
        .updateTable('video_processes')
        .set(restarted())
        .where('id', '=', id)
        .where('status', 'in', FINAL)
        .returning(['id', 'generation'])
        .executeTakeFirst();
    },

    /** Every ended process of a research runs again (reprocess with the current engine). */
    restartResearch(researchId: string) {
      return db
        .updateTable('video_processes')
        .set(restarted())
        .where('campaign_id', '=', researchId)
        .where('status', 'in', FINAL)
        .returning(['id', 'generation'])
        .execute();
    },

    /** A waiting or running process stops: a new generation, so the running attempt's writes are refused. */
    cancel(id: string) {
      return db
        .updateTable('video_processes')
        .set({
          status: 'canceled',
          generation: sql<number>`generation + 1`,
          finished_at: sql<Date>`now()`,
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .where('status', 'in', RUNNING)
        .returning(['id', 'generation'])
        .executeTakeFirst();
    },

    /** Processes waiting for a worker whose generation has no job yet. */
    unqueued(limit: number) {
      return db
        .selectFrom('video_processes')
        .select(['id', 'generation'])
        .where('status', 'in', ['collected', 'restarted'])
        .where((eb) =>
          eb.or([eb('queued_generation', 'is', null), eb('queued_generation', '!=', eb.ref('generation'))]),
        )
        .orderBy('updated_at')
        .limit(limit)
        .execute();
    },

    async markQueued(id: string, generation: number): Promise<void> {
      await db
        .updateTable('video_processes')
        .set({ queued_generation: generation })
        .where('id', '=', id)
        .where('generation', '=', generation)
        .execute();
    },

    /** The session's processes waiting for a worker (just completed). */
    ofSession(sessionId: string) {
      return db
        .selectFrom('video_processes')
        .select(['id', 'generation'])
        .where('session_id', '=', sessionId)
        .where('status', 'in', ['collected', 'restarted'])
        .execute();
    },
  };
}

export type ProcessingRepository = ReturnType<typeof createProcessingRepository>;

/**
 * A completed session's quota slot, from its processes' current results (design section 6): any
 * excluded result releases a pending slot (the link reopens); every research done and usable turns it
 * into a counted one. Only a pending slot changes: the panel's end was decided at completion. A slot counted
 * now charges the interview to the project's owner when the owner is metered.
 */
async function decideQuota(trx: Kysely<DB>, sessionId: string): Promise<Counted | null> {
  const rows = await trx
    .selectFrom('video_processes as v')
    .leftJoin('process_results as r', 'r.id', 'v.result_id')
    .select(['v.status', 'r.usable'])
    .where('v.session_id', '=', sessionId)
    .execute();
  const excluded = rows.some((r) => r.usable === false);
  const usable = rows.length > 0 && rows.every((r) => r.usable === true);
  if (!excluded && !usable) return null;
  const decided = await trx
    .updateTable('respondent_sessions')
    .set({ quota_state: excluded ? 'released' : 'counted' })
    .where('id', '=', sessionId)
    .where('quota_state', '=', 'pending')
    .returning('project_id')
    .executeTakeFirst();
  // A usable respondent, counted now: the interview is charged to the project's owner (issue 15, item 3).
  if (excluded || !decided) return null;
  return { projectId: decided.project_id, charge: await chargeRespondent(trx, sessionId) };
}

/** A respondent counted for the quota: their project, and the charge of their interview (null: not metered). */
export interface Counted {
  projectId: string;
  charge: RespondentCharge | null;
}
