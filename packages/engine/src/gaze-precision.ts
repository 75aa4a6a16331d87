/**
 * Gaze precision on the validation dots (issue 31 item 2, decision 052): how much the gaze the reports use moves while
 * the eyes hold still on a dot — the root mean square of the distances between successive gaze samples (RMS
 * sample-to-sample, the eye-tracking convention, as the validation measures it on the phantoms), in screen CSS px.
 *
 * Read from what a session's result stores (each analysed frame's gaze, which is already the median of the points
 * within ±200 ms, `gazeTrack`) and its event log: the validation dots of the calibration before the research, each
 * after the eyes' settling time (`DEFAULT_SETTLE_MS`, as the fit and the accuracy skip it). Without validation dots in
 * the log, the still calibration dots; a moving dot is never held still.
 */

import type { FramesTable } from './frames-codec.ts';
import { type CalibrationDot, calibrationDots, DEFAULT_SETTLE_MS } from './gaze-calibration.ts';
import { calibrationLog, sessionWindows } from './session-timeline.ts';
import type { ResearchTarget, SessionEvent } from './session-types.ts';

/** Fewer successive pairs than this on the dots: no figure (a few frames say little about the spread). */
export const MIN_PRECISION_PAIRS = 10;

export interface GazePrecision {
  /** RMS of the sample-to-sample distances, screen CSS px. */
  px: number;
  /** The same as a percentage of the screen's diagonal. */
  percentOfDiagonal: number;
  /** Successive pairs of samples it is measured on. */
  pairs: number;
}

/** The gaze samples of a session in time order: seconds on the session clock, screen CSS px (NaN: no gaze). */
export interface GazeSamples {
  time: ArrayLike<number>;
  x: ArrayLike<number>;
  y: ArrayLike<number>;
}

/**
 * The precision of `samples` on the held-still dots of the calibration before `research` (null: the whole log), or
 * null when the log has no calibration or screen, or fewer than `MIN_PRECISION_PAIRS` pairs of successive samples
 * with gaze fall on one dot after its settling time.
 */
export function validationPrecision(
  samples: GazeSamples,
  events: readonly SessionEvent[],
  research: Pick<ResearchTarget, 'researchId'> | null,
): GazePrecision | null {
  let windows: ReturnType<typeof sessionWindows>;
  try {
    windows = sessionWindows(events, research as ResearchTarget | null, null, []);
  } catch {
    return null;
  }
  if (!windows.calibration || !windows.screen) return null;
  const { width, height } = windows.screen;
  const dots = calibrationDots(calibrationLog(events, windows.calibration, windows.screen));
  const validation = dots.filter((d) => d.validation);
  const held = (validation.length > 0 ? validation : dots).filter((d) => !d.group.startsWith('cell:'));
  if (held.length === 0) return null;
  const dotAt = (ms: number): CalibrationDot | undefined =>
    held.find((d) => ms >= d.settleFromMs + DEFAULT_SETTLE_MS && ms >= d.startMs && ms < d.endMs);
  let sum = 0;
  let pairs = 0;
  const n = samples.time.length;
  for (let i = 1; i < n; i++) {
    const x0 = samples.x[i - 1] as number;
    const y0 = samples.y[i - 1] as number;
    const x1 = samples.x[i] as number;
    const y1 = samples.y[i] as number;
    if (![x0, y0, x1, y1].every(Number.isFinite)) continue;
    const dot = dotAt((samples.time[i - 1] as number) * 1000);
    if (!dot || dot !== dotAt((samples.time[i] as number) * 1000)) continue;
    sum += (x1 - x0) ** 2 + (y1 - y0) ** 2;
    pairs++;
  }
  if (pairs < MIN_PRECISION_PAIRS) return null;
  const px = Math.sqrt(sum / pairs);
  return { px, percentOfDiagonal: (px / Math.hypot(width, height)) * 100, pairs };
}

/**
 * `validationPrecision` of a result's stored frames (`decodeFramesTable`): the gaze track's rows (every analysed frame,
 * light ones too, decision 049) when the data has one, else the frame table's time and gaze columns.
 */
export function storedGazePrecision(
  table: FramesTable,
  events: readonly SessionEvent[],
  research: Pick<ResearchTarget, 'researchId'> | null,
): GazePrecision | null {
  const c = table.gaze?.columns ?? table.columns;
  return validationPrecision({ time: c.time, x: c.gaze_x, y: c.gaze_y }, events, research);
}
