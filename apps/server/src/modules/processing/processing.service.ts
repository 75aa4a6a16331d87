import {
  FINAL_PROCESS_STATUSES,
  gazeDriftOf,
  pxToDegrees,
  RUNNING_PROCESS_STATUSES,
  roundedDegrees,
  VIDEO_PROCESS_STATUSES,
  type VideoProcess,
  type VideoProcessStatus,
} from '@emolens/contracts';
import type { Deps } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { toCsv } from '../../http/csv.ts';
import { AppError } from '../../http/errors.ts';
import { requireAccess } from '../access/access.ts';
import { RECRUITING_ADAPTERS } from '../recruiting/platforms/index.ts';
import { processRecordingJob } from './jobs/process-recording.job.ts';
import type { ProcessListRow } from './processing.repository.ts';

export type ProcessingDeps = Pick<Deps, 'access' | 'processing' | 'queue' | 'fieldwork'>;

const isRunning = (status: VideoProcessStatus) => (RUNNING_PROCESS_STATUSES as readonly string[]).includes(status);
const isFinal = (status: VideoProcessStatus) => (FINAL_PROCESS_STATUSES as readonly string[]).includes(status);

/**
 * Queues the job of one process generation. Without a started queue (an API-only process before
 * start, a test) or when a job for the process is still queued or running (the queue is exclusive
 * per process), nothing is marked: the dispatcher sends it later.
 */
export async function queueProcess(
  deps: Pick<Deps, 'processing' | 'queue'>,
  process: { id: string; generation: number },
): Promise<boolean> {
  if (!deps.queue.started) return false;
  const jobId = await deps.queue.send(
    processRecordingJob.name,
    { process_id: process.id, generation: process.generation },
    { singletonKey: process.id },
  );
  if (!jobId) return false;
  await deps.processing.markQueued(process.id, process.generation);
  return true;
}

/** The dispatcher's sweep: a job for every waiting process that has none. */
export async function queueWaiting(deps: Pick<Deps, 'processing' | 'queue'>): Promise<number> {
  let sent = 0;
  for (const process of await deps.processing.unqueued(500)) {
    if (await queueProcess(deps, process)) sent++;
  }
  return sent;
}

/** The processes a just-completed session created, queued at once (the dispatcher is the fallback). */
export async function queueSession(deps: Pick<Deps, 'processing' | 'queue' | 'log'>, sessionId: string) {
  try {
    for (const process of await deps.processing.ofSession(sessionId)) await queueProcess(deps, process);
  } catch (err) {
    deps.log.warn({ err, session: sessionId }, 'video processes not queued; the dispatcher will');
  }
}

function toOutput(row: ProcessListRow): VideoProcess {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: row.id,
    campaign_id: row.campaign_id,
    session_id: row.session_id,
    status: row.status,
    respondent: row.participant_id ?? row.session_id,
    progress: Math.round(row.progress),
    attempts: row.attempts,
    error: row.error_code,
    engine_version: row.engine_version,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    result:
      row.result_created_at && row.result_engine_version
        ? {
            engine_version: row.result_engine_version,
            created_at: row.result_created_at.toISOString(),
            recording_seconds: row.recording_seconds ?? 0,
            frames: row.frame_count ?? 0,
            face_found: row.face_found ?? false,
            bad_frame_share: row.bad_frame_share ?? 1,
            usable: row.usable ?? false,
            excluded_reason: row.excluded_reason,
            calibration_status: row.calibration_status ?? 'not_run',
            calibration_accuracy_px: row.calibration_accuracy_px,
            calibration_accuracy_percent: row.calibration_accuracy_percent,
            calibration_accuracy_degrees: roundedDegrees(pxToDegrees(row.calibration_accuracy_px, row.distance_cm)),
            calibration_precision_px: row.calibration_precision_px,
            calibration_precision_percent: row.calibration_precision_percent,
            calibration_precision_degrees: roundedDegrees(pxToDegrees(row.calibration_precision_px, row.distance_cm)),
            drift: gazeDriftOf(row, row.distance_cm),
            distance_cm: row.distance_cm === null ? null : Math.round(row.distance_cm),
            mean_engagement: row.mean_engagement,
          }
        : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    can: { restart: isFinal(row.status), cancel: isRunning(row.status) },
  };
}

/** GET /videoprocessor/campaigns-processes-list/?campaign= (spec section 7). */
export async function processesOf(deps: ProcessingDeps, user: User, researchId: string): Promise<VideoProcess[]> {
  await requireAccess(deps.access, user, 'campaign.manage', researchId);
  return (await deps.processing.list({ researchId })).map(toOutput);
}

/** POST /cabinet/campaigns/videoprocesses-statistic/: counts by status of each research (all visible, or 404). */
export async function processesStatistic(deps: ProcessingDeps, user: User, researchIds: string[]) {
  const ids = [...new Set(researchIds)];
  await requireAccess(deps.access, user, 'campaign.manage', ids);
  const [counts, devices] = await Promise.all([deps.processing.counts(ids), deps.fieldwork.deviceAnalysis(ids)]);
  return {
    items: ids.map((researchId) => {
      const byStatus = Object.fromEntries(VIDEO_PROCESS_STATUSES.map((s) => [s, 0])) as Record<
        VideoProcessStatus,
        number
      >;
      let usable = 0;
      let excluded = 0;
      for (const row of counts) {
        if (row.campaign_id !== researchId) continue;
        byStatus[row.status] = row.n;
        usable += row.usable;
        excluded += row.excluded;
      }
      return {
        campaign_id: researchId,
        total: Object.values(byStatus).reduce((a, b) => a + b, 0),
        by_status: byStatus,
        usable,
        excluded,
        can_reprocess: FINAL_PROCESS_STATUSES.some((s) => byStatus[s] > 0),
        device_analysis: deviceFigures(devices.find((d) => d.campaign_id === researchId)),
      };
    }),
  };
}

/** Privacy mode's figures of a research (decision 064): null for a research without it and no device measured. */
function deviceFigures(row: Awaited<ReturnType<Deps['fieldwork']['deviceAnalysis']>>[number] | undefined) {
  if (!row || (!row.video_on_device && row.measured === 0)) return null;
  return { measured: row.measured, on_device: row.on_device, fell_back: row.fell_back, too_slow: row.too_slow };
}

async function processForUser(deps: ProcessingDeps, user: User, id: string) {
  await requireAccess(deps.access, user, 'videoProcess.manage', id);
  const process = await deps.processing.findProcess(id);
  if (!process) throw new AppError('not_found', { message: 'processing.processNotFound' });
  return process;
}

/** Spec section 4: "Restarting a video triggers reprocessing" — an ended process runs again. */
export async function restartProcess(deps: ProcessingDeps, user: User, id: string): Promise<VideoProcess> {
  await processForUser(deps, user, id);
  const restarted = await deps.processing.restart(id);
  if (!restarted) throw new AppError('invalid_state', { message: 'processing.notRestartable' });
  await queueProcess(deps, restarted);
  return listed(deps, id);
}

/** A waiting or running process stops; a running attempt notices at its next progress report. */
export async function cancelProcess(deps: ProcessingDeps, user: User, id: string): Promise<VideoProcess> {
  await processForUser(deps, user, id);
  if (!(await deps.processing.cancel(id))) throw new AppError('invalid_state', { message: 'processing.notCancelable' });
  return listed(deps, id);
}

/** Every ended process of the research again, with the current engine; current results stay until replaced. */
export async function reprocessResearch(deps: ProcessingDeps, user: User, researchId: string) {
  await requireAccess(deps.access, user, 'campaign.manage', researchId);
  const restarted = await deps.processing.restartResearch(researchId);
  if (!restarted.length) throw new AppError('invalid_state', { message: 'processing.nothingToReprocess' });
  for (const process of restarted) await queueProcess(deps, process);
  return { restarted: restarted.length };
}

async function listed(deps: ProcessingDeps, id: string): Promise<VideoProcess> {
  const [row] = await deps.processing.list({ id });
  if (!row) throw new AppError('not_found', { message: 'processing.processNotFound' });
  return toOutput(row);
}

/**
 * GET /videoprocessor/campaigns-processes-list/cint-processes-statistic/{id} (spec section 7): the
 * research's processes as a CSV file for the panel (one line per process).
 */
export async function cintStatisticFile(
  deps: ProcessingDeps,
  user: User,
  researchId: string,
): Promise<{ filename: string; csv: string }> {
  await requireAccess(deps.access, user, 'campaign.manage', researchId);
  const found = await deps.processing.cintRows(researchId);
  if (!found) throw new AppError('not_found', { message: 'campaign.notFound' });
  const file = RECRUITING_ADAPTERS.cint.file;
  return { filename: file.filename(found.title), csv: toCsv([[...file.columns], ...found.rows.map(file.line)]) };
}
