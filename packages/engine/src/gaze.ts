/**
 * Per-respondent gaze calibration (design section 4, "Gaze"): a WebGazer-style ridge regression from iris
 * position and head pose to screen coordinates, fitted on the calibration dots and checked on held-out dots.
 *
 * Model, for each screen axis a ∈ {x, y} separately, over that axis's feature set S_a (see `GAZE_FEATURE_SETS`):
 *
 *   z_j = (f_j − mean_j) / scale_j                       standardised feature j (mean, population SD of training)
 *   â   = w_0 + Σ_{j∈S_a} w_j · z_j                      w_0 = mean training target (intercept, not penalised)
 *   w   = argmin (1/n) Σ_i (a_i − â_i)² + λ Σ_{j∈S_a} w_j²
 *       = solution of (Z_Sᵀ Z_S / n + λI) w = Z_Sᵀ (a − ā) / n        (Cholesky)
 *
 * λ (shared by both axes) and each axis's feature set come from small grids by leave-one-dot-position-out
 * cross-validation on the training dots (minimum summed squared error of x and y). The accuracy figure is the
 * mean Euclidean error on the validation dots' frames, of the model fitted on the training dots only, in CSS
 * pixels and in % of the screen diagonal. The model gaze is then read with is chosen and fitted the same way on the
 * training and validation dots together (decision 084).
 *
 * `GazeModel.mean` / `scale` have one entry per `gazeFeatures` entry; `weightsX` / `weightsY` hold
 * [w_0, w_1, …, w_12]: the intercept first, then one weight per feature in `gazeFeatures` order, 0 for the
 * features outside that axis's set.
 */
import {
  type CalibrationOptions,
  type CalibrationSample,
  calibrationDots,
  calibrationSamples,
  DEFAULT_SETTLE_MS,
  distinctGroups,
  type SplitOptions,
  splitCalibration,
} from './gaze-calibration.ts';
import { GAZE_FEATURE_NAMES, GAZE_FEATURE_SETS, gazeFeatures } from './gaze-features.ts';
import { chooseModel, featuresVary, fitRidge, meanError, type RidgeSpec } from './gaze-ridge.ts';
import { median } from './median.ts';
import type { EventLog, FrameData, FrameGaze, GazeModel, GazeResult, Screen, ScreenPoint } from './types.ts';

export * from './gaze-calibration.ts';
export * from './gaze-features.ts';
export { cholesky, choleskySolve } from './gaze-ridge.ts';

export const DEFAULT_MIN_SAMPLES = 20;
export const DEFAULT_MIN_POSITIONS = 5;
/** See `FitGazeOptions.maxCvErrorRatio`. */
export const DEFAULT_MAX_CV_ERROR_RATIO = 0.5;
/** Ridge penalties tried by cross-validation (features are standardised, the loss is a mean, so λ is unitless). */
export const DEFAULT_LAMBDAS: readonly number[] = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1];

export interface FitGazeOptions extends CalibrationOptions, SplitOptions {
  /** Ridge penalties tried by cross-validation. Default `DEFAULT_LAMBDAS`. */
  lambdas?: readonly number[];
  /** Feature sets tried per axis by cross-validation. Default `GAZE_FEATURE_SETS`. */
  featureSets?: { x: readonly (readonly number[])[]; y: readonly (readonly number[])[] };
  /** Fewest usable calibration frames. Default 20. */
  minSamples?: number;
  /** Fewest distinct dot positions, in the log and with usable frames. Default 5. */
  minPositions?: number;
  /**
   * Largest cross-validated RMS error allowed, as a share of the RMS error of always guessing the mean dot
   * position. Default 0.5, i.e. the eyes must explain at least 75% of the dots' spread (R² ≥ 0.75).
   */
  maxCvErrorRatio?: number;
}

/**
 * Fits the gaze model of one respondent. Never throws on bad data: every problem is a `calibration_failed`
 * result with a reason a person can read.
 */
export function fitGaze(frames: FrameData[], log: EventLog, options: FitGazeOptions = {}): GazeResult {
  try {
    return fitGazeChecked(frames, log, options);
  } catch (error) {
    // Only malformed input (a frame without flags or pose, say) gets here; say what broke rather than throw.
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'calibration_failed', reason: `The calibration data is malformed: ${message}` };
  }
}

function fitGazeChecked(frames: FrameData[], log: EventLog, options: FitGazeOptions): GazeResult {
  const fail = (reason: string): GazeResult => ({ status: 'calibration_failed', reason });
  const minPositions = options.minPositions ?? DEFAULT_MIN_POSITIONS;
  const minSamples = options.minSamples ?? DEFAULT_MIN_SAMPLES;
  const settleMs = Math.max(0, options.settleMs ?? DEFAULT_SETTLE_MS);
  const lambdas = (options.lambdas ?? DEFAULT_LAMBDAS).filter((l) => Number.isFinite(l) && l > 0);
  if (lambdas.length === 0) return fail('No positive ridge penalty was given to try.');
  const validSet = (set: readonly number[]) =>
    set.length > 0 && set.every((j) => Number.isInteger(j) && j >= 0 && j < GAZE_FEATURE_NAMES.length);
  const sets = options.featureSets ?? GAZE_FEATURE_SETS;
  const candidates = { x: sets.x.filter(validSet), y: sets.y.filter(validSet) };
  if (candidates.x.length === 0 || candidates.y.length === 0) return fail('No valid feature set was given to try.');

  const screen = log?.screen;
  if (!screen || !(screen.width > 0) || !(screen.height > 0) || !Number.isFinite(screen.width + screen.height)) {
    return fail('The event log has no valid screen size, so gaze cannot be placed on the screen.');
  }
  const dots = calibrationDots(log);
  if (dots.length === 0) return fail('The event log has no calibration dots (no calibration_dot events).');
  const logPositions = new Set(dots.map((d) => d.group)).size;
  if (logPositions < minPositions) {
    return fail(
      `The calibration showed only ${logPositions} distinct dot position(s); at least ${minPositions} are needed.`,
    );
  }

  const samples = calibrationSamples(frames, log, { settleMs });
  if (samples.length < minSamples) {
    return fail(
      `Only ${samples.length} usable calibration frame(s) (one face, both eyes found, head towards the screen, at least ${settleMs} ms after each dot jump); at least ${minSamples} are needed.`,
    );
  }
  const usedPositions = distinctGroups(samples).length;
  if (usedPositions < minPositions) {
    return fail(
      `Only ${usedPositions} of ${logPositions} calibration dot positions have usable frames; at least ${minPositions} are needed.`,
    );
  }

  const split = splitCalibration(samples, {
    validationShare: options.validationShare,
    minTrainingPositions: options.minTrainingPositions,
    validationFromLog: dots.some((d) => d.validation),
  });
  if (!split.ok) return fail(split.reason);
  if (split.validation.length === 0) {
    return fail('None of the validation dots has usable frames, so the gaze accuracy cannot be measured.');
  }
  const { training, validation } = split;

  if (!featuresVary(training.map((s) => s.features))) {
    return fail(
      'The eye and head features do not change across the calibration dots, so the gaze model is degenerate.',
    );
  }

  const affordable = (fitOn: CalibrationSample[]) => {
    const positions = distinctGroups(fitOn).length;
    const fitting = (sets: readonly (readonly number[])[]) => {
      const within = sets.filter((set) => set.length + 3 <= positions);
      return within.length > 0 ? within : sets.slice(0, 1);
    };
    return { x: fitting(candidates.x), y: fitting(candidates.y) };
  };
  const choice = chooseModel(training, affordable(training), lambdas);
  if (choice === null) {
    return fail('The gaze regression could not be solved (degenerate features) for any ridge penalty.');
  }
  const maxRatio = options.maxCvErrorRatio ?? DEFAULT_MAX_CV_ERROR_RATIO;
  if (!(choice.rmsError <= maxRatio * choice.baselineRmsError)) {
    return fail(
      `The eye movements do not follow the calibration dots: the cross-validated gaze error (${Math.round(choice.rmsError)} px RMS) is not clearly better than always guessing the mean dot position (${Math.round(choice.baselineRmsError)} px RMS).`,
    );
  }

  const modelOf = (fitOn: CalibrationSample[], spec: RidgeSpec): GazeModel | null => {
    const fit = fitRidge(
      fitOn.map((s) => s.features),
      fitOn.map((s) => s.target),
      spec,
    );
    return fit && { kind: 'ridge', lambda: spec.lambda, ...fit, screen: { ...screen } };
  };
  const heldOutModel = modelOf(training, choice);
  if (!heldOutModel) return fail('The gaze regression could not be solved (degenerate features).');
  const accuracyPx = meanError(validation, (f) => predictGaze(heldOutModel, f));
  if (!Number.isFinite(accuracyPx)) return fail('The gaze regression produced non-finite predictions.');
  // The accuracy measured, the model gaze is read with is fitted again on every calibration frame, the validation
  // dots' too (decision 084): they are still fixations where the moving dot only passes, the centre among them. The
  // accuracy stays the held-out model's, an estimate of this model's that errs on the cautious side.
  const all = [...training, ...validation];
  const finalChoice = chooseModel(all, affordable(all), lambdas);
  const model = (finalChoice && modelOf(all, finalChoice)) ?? heldOutModel;
  return {
    status: 'calibrated',
    accuracyPx,
    accuracyPercentOfDiagonal: percentOfDiagonal(accuracyPx, screen),
    trainingSamples: training.length,
    validationSamples: validation.length,
    model,
    heldOutModel,
  };
}

/** 100 · px / √(width² + height²). */
export function percentOfDiagonal(px: number, screen: Screen): number {
  return (100 * px) / Math.hypot(screen.width, screen.height);
}

/** The gaze point of one `gazeFeatures` vector: x̂ = w_0 + Σ_j w_j · (f_j − mean_j) / scale_j, likewise ŷ. */
export function predictGaze(
  model: Pick<GazeModel, 'mean' | 'scale' | 'weightsX' | 'weightsY'>,
  features: number[],
): ScreenPoint {
  let x = model.weightsX[0] ?? 0;
  let y = model.weightsY[0] ?? 0;
  for (let j = 0; j < model.mean.length; j++) {
    const z = ((features[j] ?? 0) - (model.mean[j] ?? 0)) / (model.scale[j] ?? 1);
    x += (model.weightsX[j + 1] ?? 0) * z;
    y += (model.weightsY[j + 1] ?? 0) * z;
  }
  return { x, y };
}

/**
 * Half-width (ms) of the median window of `gazeTrack`. Each frame's gaze point scatters by about a hundred screen
 * pixels at 640 px (the iris and eye landmarks move by tenths of a pixel from frame to frame); the median of the
 * points within ±200 ms (5 at the engine's 10 fps) more than halves that on a fixation, and follows a jump of the
 * eyes as soon as most of the window is past it (decision 032).
 */
export const DEFAULT_GAZE_WINDOW_MS = 200;

/**
 * The gaze point of every frame. `point` is null when the frame has no face or no eye features; `onScreen` is
 * true when the point lies in [0, width] × [0, height] of the model's screen. `windowMs`: each point the median,
 * per axis, of the frames' points within ± that many ms (`medianGaze`; default 0, the frame's own point).
 */
export function applyGaze(model: GazeModel, frames: FrameData[], options: { windowMs?: number } = {}): FrameGaze[] {
  return gazeTrack(model, frames.length, (i) => frames[i] as FrameData, options.windowMs ?? 0);
}

/** Readings of the eyes between the frames (decision 040): times in seconds, feature vectors or null. */
export interface GazeReadings {
  times: readonly number[];
  features: readonly (number[] | null)[];
}

/**
 * `applyGaze` over `count` frames read one at a time by `frameAt` (a session's frame store keeps them as columns),
 * with the median window of `windowMs` (default `DEFAULT_GAZE_WINDOW_MS`). The model maps each frame on its own,
 * its head pose and eyes together; only the points are then combined over time. `between`: readings that are not
 * frames (a session's light frames) but join each frame's median window; their points are `gazeTracks`' `between`.
 */
export function gazeTrack(
  model: GazeModel,
  count: number,
  frameAt: (index: number) => FrameData,
  windowMs: number = DEFAULT_GAZE_WINDOW_MS,
  between: GazeReadings | null = null,
): FrameGaze[] {
  return gazeTracks(model, count, frameAt, windowMs, between).frames;
}

/** `gazeTrack`, with the points of the `between` readings too (in their order), each the median of its window. */
export function gazeTracks(
  model: GazeModel,
  count: number,
  frameAt: (index: number) => FrameData,
  windowMs: number = DEFAULT_GAZE_WINDOW_MS,
  between: GazeReadings | null = null,
): { frames: FrameGaze[]; between: FrameGaze[] } {
  const times: number[] = [];
  const points: (ScreenPoint | null)[] = [];
  for (let i = 0; i < count; i++) {
    const frame = frameAt(i);
    const features = frame.face ? gazeFeatures(frame.face) : null;
    times.push(frame.time);
    points.push(features ? predictGaze(model, features) : null);
  }
  if (between) {
    for (let k = 0; k < between.times.length; k++) {
      const features = between.features[k];
      times.push(between.times[k] as number);
      points.push(features ? predictGaze(model, features) : null);
    }
  }
  const all = medianGaze(times, points, windowMs).map((point, i) => ({
    time: times[i] as number,
    point,
    onScreen: point !== null && isOnScreen(point, model.screen),
  }));
  return { frames: all.slice(0, count), between: all.slice(count) };
}

/**
 * Each point replaced by the per-axis median of the points within ±`windowMs` of it (itself included; times in
 * seconds, any order). Null stays null and is nobody's neighbour; `windowMs` 0 leaves every point as it is.
 */
export function medianGaze(
  times: readonly number[],
  points: readonly (ScreenPoint | null)[],
  windowMs: number,
): (ScreenPoint | null)[] {
  const out = points.map((p) => (p ? { x: p.x, y: p.y } : null));
  if (!(windowMs > 0)) return out;
  const order = points.map((_, i) => i).filter((i) => points[i] && Number.isFinite(times[i]));
  order.sort((a, b) => (times[a] as number) - (times[b] as number));
  // Frame times are decimal seconds (0.1 + 0.2 ≠ 0.3): a neighbour exactly at the window's edge counts.
  const half = windowMs / 1000 + 1e-9;
  let lo = 0;
  let hi = 0;
  for (const i of order) {
    const t = times[i] as number;
    while ((times[order[lo] as number] as number) < t - half) lo++;
    while (hi < order.length && (times[order[hi] as number] as number) <= t + half) hi++;
    const near = order.slice(lo, hi).map((j) => points[j] as ScreenPoint);
    out[i] = { x: median(near.map((p) => p.x)), y: median(near.map((p) => p.y)) };
  }
  return out;
}

export function isOnScreen(point: ScreenPoint, screen: Screen): boolean {
  return point.x >= 0 && point.x <= screen.width && point.y >= 0 && point.y <= screen.height;
}
