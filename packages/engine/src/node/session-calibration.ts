/** The gaze calibration of one session: the fit, and the validation dots with the gaze measured on each. */
import { calibrationDots, calibrationSamples, fitGaze, predictGaze, splitCalibration } from '../gaze.ts';
import { calibrationLog, type MsWindow } from '../session-timeline.ts';
import type { CalibrationOutcome, SessionTask } from '../session-types.ts';
import type { FrameData, GazeResult } from '../types.ts';

export function calibrate(
  task: Pick<SessionTask, 'events'>,
  window: MsWindow | null,
  screen: { width: number; height: number } | null,
  frames: FrameData[],
): { outcome: CalibrationOutcome; gaze: GazeResult | null } {
  const notRun = (reason: string): { outcome: CalibrationOutcome; gaze: null } => ({
    outcome: { status: 'not_run', accuracyPx: null, accuracyPercent: null, reason, validation: [] },
    gaze: null,
  });
  if (!window) return notRun('The event log has no calibration before the research.');
  if (!screen) return notRun('The event log has no screen size, so gaze cannot be placed.');
  const log = calibrationLog(task.events, window, screen);
  const gaze = fitGaze(frames, log);
  // The validation dots with the mean gaze measured on each, for the dot test's drawing: the log's validation
  // dots, or the positions fitGaze held out when the log marks none (same samples and model as its accuracy figure).
  const samples = calibrationSamples(frames, log);
  const split = splitCalibration(samples, { validationFromLog: calibrationDots(log).some((d) => d.validation) });
  const measured = new Map<string, { x: number; y: number; n: number }>();
  if (gaze.status === 'calibrated' && split.ok) {
    for (const sample of split.validation) {
      const point = predictGaze(gaze.heldOutModel, sample.features);
      const key = sample.group;
      const acc = measured.get(key) ?? { x: 0, y: 0, n: 0 };
      acc.x += point.x;
      acc.y += point.y;
      acc.n++;
      measured.set(key, acc);
    }
  }
  const logged = calibrationDots(log).filter((d) => d.validation);
  const targets: { x: number; y: number; group: string }[] =
    logged.length > 0
      ? [...new Map(logged.map((d) => [d.group, { x: d.x, y: d.y, group: d.group }])).values()]
      : split.ok
        ? split.validationPoints.map((p, i) => ({ ...p, group: split.validationPositions[i] ?? '' }))
        : [];
  const validation: CalibrationOutcome['validation'] = targets.map(({ x, y, group }) => {
    const m = measured.get(group);
    return { x, y, gazeX: m ? m.x / m.n : null, gazeY: m ? m.y / m.n : null };
  });
  if (gaze.status === 'calibrated') {
    return {
      outcome: {
        status: 'calibrated',
        accuracyPx: gaze.accuracyPx,
        accuracyPercent: gaze.accuracyPercentOfDiagonal,
        reason: null,
        validation,
      },
      gaze,
    };
  }
  return {
    outcome: { status: 'calibration_failed', accuracyPx: null, accuracyPercent: null, reason: gaze.reason, validation },
    gaze,
  };
}
