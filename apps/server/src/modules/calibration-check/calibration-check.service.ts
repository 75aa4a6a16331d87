import { CALIBRATION_CHECK_LIMITS, type CalibrationCheckInput, type CalibrationCheckState } from '@emolens/contracts';
import { lastValidatedCalibration, type SessionEvent } from '@emolens/engine';
import type { Deps } from '../../context.ts';
import type { CalibrationCheckRow, RespondentSessionRow } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import {
  endOfSession,
  type RespondentsDeps,
  requireRecording,
  researchesInOrder,
  type Signing,
} from '../respondents/respondents.service.ts';
import { checkCalibrationJob } from './jobs/calibration-check-jobs.ts';
import { checkRules } from './rules.ts';

export type CalibrationCheckDeps = RespondentsDeps & Pick<Deps, 'calibrationChecks'>;

/** What the page does after a check that is over (null while it runs). */
function nextOf(row: CalibrationCheckRow): CalibrationCheckState['next'] {
  switch (row.status) {
    case 'queued':
    case 'processing':
      return null;
    case 'passed':
    case 'error':
      return 'content';
    case 'failed':
      if (row.attempt < CALIBRATION_CHECK_LIMITS.attempts) return 'repeat';
      return row.on_failure === 'end' ? 'end' : 'continue_flagged';
  }
}

/**
 * One check as the page polls it. A check that ran past the page's timeout is over as "could not run" (its job's
 * late answer is not written), so the page and the server agree that the respondent went on.
 */
export async function checkState(
  deps: CalibrationCheckDeps,
  signing: Signing,
  session: RespondentSessionRow,
  attempt: number,
): Promise<CalibrationCheckState> {
  let row = await deps.calibrationChecks.find(session.id, attempt);
  if (!row) throw new AppError('not_found', { message: 'respondent.calibrationCheckNotFound' });
  const running = row.status === 'queued' || row.status === 'processing';
  if (running && Date.now() - new Date(row.created_at).getTime() > CALIBRATION_CHECK_LIMITS.pageTimeoutMs) {
    if (await deps.calibrationChecks.fail({ session_id: session.id, attempt }, 'engine_crashed')) {
      await deps.calibrationChecks.setVerdict(session.id, 'not_checked');
    }
    row = (await deps.calibrationChecks.find(session.id, attempt)) ?? row;
  }
  const next = nextOf(row);
  let end = null;
  if (next === 'end') {
    const current = (await deps.respondents.findSessionById(session.id)) ?? session;
    end = await endOfSession(deps, signing, current);
  }
  return {
    attempt: row.attempt,
    status: row.status,
    progress: Math.round(row.progress),
    threshold_percent: row.threshold_percent,
    accuracy_percent: row.accuracy_percent === null ? null : Number(row.accuracy_percent.toFixed(1)),
    error: row.error_code,
    next,
    end,
  };
}

/** The stored recording holds at least what the page listed, with no gap, and the listed event batches. */
async function checkUploaded(deps: CalibrationCheckDeps, session: RespondentSessionRow, input: CalibrationCheckInput) {
  const stored = await deps.recording.segments(session.id);
  for (const listed of input.segments) {
    const found = stored.find((s) => s.segment === listed.segment);
    if (!found || found.chunks < listed.chunks || found.next_index !== found.chunks) {
      throw new AppError('invalid_state', { message: 'respondent.recordingIncomplete' });
    }
  }
  if ((await deps.recording.nextEventSeq('session', session.id)) < input.event_batches) {
    throw new AppError('invalid_state', { message: 'respondent.recordingIncomplete' });
  }
}

/**
 * The page has sent everything through the attempt's validation_end: the check is queued (idempotent per attempt: a
 * repeat answers the check asked for first). Attempt 2 only after attempt 1 failed, on a calibration after it.
 */
export async function startCheck(
  deps: CalibrationCheckDeps,
  signing: Signing,
  session: RespondentSessionRow,
  input: CalibrationCheckInput,
): Promise<CalibrationCheckState> {
  const existing = await deps.calibrationChecks.find(session.id, input.attempt);
  if (existing) return checkState(deps, signing, session, input.attempt);
  requireRecording(session);
  const rules = checkRules(await researchesInOrder(deps, session));
  if (!rules.enabled) throw new AppError('invalid_state', { message: 'respondent.calibrationCheckOff' });
  await checkUploaded(deps, session, input);
  const events = (await deps.calibrationChecks.recording(session.id)).events as SessionEvent[];
  const calibration = lastValidatedCalibration(events);
  if (!calibration) throw new AppError('invalid_state', { message: 'respondent.calibrationIncomplete' });
  if (input.attempt > 1) {
    const previous = await deps.calibrationChecks.find(session.id, input.attempt - 1);
    if (previous?.status !== 'failed' || calibration.calibrationStartMs <= previous.validation_end_ms) {
      throw new AppError('invalid_state', { message: 'respondent.calibrationIncomplete' });
    }
  }
  const { row, created } = await deps.calibrationChecks.create({
    session_id: session.id,
    attempt: input.attempt,
    status: 'queued',
    threshold_percent: rules.thresholdPercent,
    on_failure: rules.onFailure,
    validation_end_ms: calibration.validationEndMs,
  });
  if (created) await queueCheck(deps, row);
  return checkState(deps, signing, session, input.attempt);
}

/**
 * Queues the check's analysis. When sending fails the check is over as "could not run" at once; without a started
 * queue (a process that only answers requests) it waits, and the page's timeout ends it the same way.
 */
async function queueCheck(deps: CalibrationCheckDeps, row: CalibrationCheckRow): Promise<void> {
  const key = { session_id: row.session_id, attempt: row.attempt };
  if (!deps.queue.started) return;
  try {
    await deps.queue.send(checkCalibrationJob.name, key, { singletonKey: `${row.session_id}:${row.attempt}` });
  } catch (err) {
    deps.log.warn({ err, session: row.session_id }, 'calibration check not queued: the respondent goes on');
    if (await deps.calibrationChecks.fail(key, 'engine_crashed')) {
      await deps.calibrationChecks.setVerdict(row.session_id, 'not_checked');
    }
  }
}
