import { CALIBRATION_CHECK_LIMITS } from '@emolens/contracts';
import { calibrationCheckTask, type SessionEvent, type SessionResult, type SessionTask } from '@emolens/engine';
import type { AppContext } from '../../../context.ts';
import type { JobAttempt } from '../../../jobs/define.ts';
import { joinSegments, runEngineWork } from '../../processing/engine-job.ts';
import { readingsSources } from '../../processing/readings-sources.ts';

/**
 * The validation's error as the check judges it: the calibration's median error over the validation dots, % of the
 * diagonal; null when the engine mapped no gaze (no face, a calibration that failed to fit: a failure too).
 */
export function checkedAccuracy(result: SessionResult): number | null {
  const calibration = result.summary.calibration;
  if (!result.summary.faceFound || calibration.status !== 'calibrated') return null;
  const percent = calibration.accuracyPercent;
  return percent === null || !Number.isFinite(percent) ? null : percent;
}

/** One check: the session's recording so far through the engine, just this attempt's calibration and validation. */
export async function handle(
  payload: { session_id: string; attempt: number },
  ctx: AppContext,
  attempt: JobAttempt,
): Promise<void> {
  const repo = ctx.deps.calibrationChecks;
  const check = await repo.claim(payload);
  if (!check) return;
  const log = ctx.log.child({ session: payload.session_id, check: payload.attempt, attempt: attempt.retryCount });
  const started = performance.now();
  let couldNotRun = false;
  const result = await runEngineWork(ctx, attempt, {
    log,
    progressEveryMs: 1000,
    async prepare(dir, signal) {
      const recording = await repo.recording(payload.session_id);
      const taskOf = (sources: SessionTask['sources']) =>
        calibrationCheckTask(
          sources,
          recording.events as SessionEvent[],
          check.validation_end_ms,
          CALIBRATION_CHECK_LIMITS.fps,
        );
      // Privacy mode (decision 064): a device session's readings are checked the same way, without video.
      const readings = await readingsSources(ctx, recording.segments, signal);
      if (readings) return { readings: { ...taskOf([]), sources: readings } };
      return taskOf(await joinSegments(ctx, recording.segments, dir, signal));
    },
    progress: (percent) => repo.progress(payload, percent),
    fail: async (code) => {
      couldNotRun = await repo.fail(payload, code);
    },
  });
  if (couldNotRun) await repo.setVerdict(payload.session_id, 'not_checked');
  if (!result) return;
  const accuracy = checkedAccuracy(result);
  if (result.summary.calibration.status === 'not_run') {
    // No calibration window in what was analysed: not the respondent's failure.
    if (await repo.fail(payload, 'event_log_inconsistent')) await repo.setVerdict(payload.session_id, 'not_checked');
    return;
  }
  const passed = accuracy !== null && accuracy <= check.threshold_percent;
  if (!(await repo.finish(payload, passed, accuracy))) return;
  if (passed) await repo.setVerdict(payload.session_id, 'passed');
  else if (check.attempt >= CALIBRATION_CHECK_LIMITS.attempts) {
    if (check.on_failure === 'end') await repo.endCalibrationFailed(payload.session_id);
    else await repo.setVerdict(payload.session_id, 'flagged');
  }
  log.info(
    { passed, accuracyPercent: accuracy, seconds: Math.round((performance.now() - started) / 100) / 10 },
    'calibration checked',
  );
}
