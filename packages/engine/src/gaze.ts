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
 * pixels and in % of the screen diagonal.
 *
 * `GazeModel.mean` / `scale` have one entry per `gazeFeatures` entry; `weightsX` / `weightsY` hold
 * [w_0, w_1, …, w_12]: the intercept first, then one weight per feature in `gazeFeatures` order, 0 for the
 * features outside that axis's set.
 */
import type {
  EventLog,
  FaceData,
  FrameData,
  FrameGaze,
  GazeModel,
  GazeResult,
  QualityFlag,
  Screen,
  ScreenPoint,
} from './types.ts';

/**
 * Names of the entries of `gazeFeatures`, in order. Because each eye's x runs from its outer to its inner corner,
 * a glance sideways moves the two x values in opposite directions, so
 *
 *   h = (right.x − left.x) / 2      conjugate horizontal iris offset (both eyes turn together)
 *   v = (left.y + right.y) / 2      conjugate vertical iris offset
 *   vergence = (left.x + right.x) / 2, tilt = (left.y − right.y) / 2   what the eyes do apart from that
 *
 * (h, v, vergence, tilt) is an invertible linear recoding of the four iris coordinates, so no information is lost.
 * The second-order terms let the fit bend with the eye's rotation (h², v², h·v) and with head turns
 * (h·yaw, v·pitch). Pose is in degrees.
 */
export const GAZE_FEATURE_NAMES = [
  'h',
  'v',
  'yaw',
  'pitch',
  'roll',
  'vergence',
  'tilt',
  'h^2',
  'v^2',
  'h*v',
  'h*yaw',
  'v*pitch',
] as const;

/**
 * Candidate feature sets per screen axis (indices into `GAZE_FEATURE_NAMES`), simplest first: the axis's own
 * iris offset and head turn, plus roll (a tilted head moves the eyes and turns the axis the irises are measured
 * along); that plus eye-rotation curvature and the axis's iris-head interaction; every first-order term;
 * everything. Cross-validation picks one per axis, so a calibration with few dots is not overfitted by
 * terms it cannot pin down (with 7 training dots, the y fit must not lean on yaw, say). A set of k features is
 * only tried when there are at least k + 3 training positions, so that every cross-validation fold still has
 * more positions than the set has parameters (k + intercept); the first set is always tried.
 */
export const GAZE_FEATURE_SETS: { x: readonly (readonly number[])[]; y: readonly (readonly number[])[] } = {
  x: [
    [0, 2, 4],
    [0, 2, 4, 7, 8, 9, 10],
    [0, 1, 2, 3, 4, 5, 6],
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  ],
  y: [
    [1, 3, 4],
    [1, 3, 4, 7, 8, 9, 11],
    [0, 1, 2, 3, 4, 5, 6],
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  ],
};

export const DEFAULT_SETTLE_MS = 400;
export const DEFAULT_MIN_SAMPLES = 20;
export const DEFAULT_MIN_POSITIONS = 5;
export const DEFAULT_MIN_TRAINING_POSITIONS = 4;
export const DEFAULT_VALIDATION_SHARE = 0.25;
/** See `FitGazeOptions.maxCvErrorRatio`. */
export const DEFAULT_MAX_CV_ERROR_RATIO = 0.5;
/** Ridge penalties tried by cross-validation (features are standardised, the loss is a mean, so λ is unitless). */
export const DEFAULT_LAMBDAS: readonly number[] = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1];

/** Frames with these flags never calibrate: the main face may not be the respondent's, or the eyes are hidden. */
const UNUSABLE_FLAGS: readonly QualityFlag[] = ['several_faces', 'head_turned'];

/**
 * The feature vector of one face (see `GAZE_FEATURE_NAMES`; pose in degrees), or null when its eyes were not found
 * or a value is not finite.
 */
export function gazeFeatures(face: FaceData): number[] | null {
  const eyes = face.eyes;
  if (!eyes) return null;
  const { left, right } = eyes;
  const { yaw, pitch, roll } = face.pose;
  const h = (right.x - left.x) / 2;
  const v = (left.y + right.y) / 2;
  const vergence = (left.x + right.x) / 2;
  const tilt = (left.y - right.y) / 2;
  const features = [h, v, yaw, pitch, roll, vergence, tilt, h * h, v * v, h * v, h * yaw, v * pitch];
  return features.every(Number.isFinite) ? features : null;
}

/** One calibration dot as the log shows it, with the interval it stayed on screen (ms, recording clock). */
export interface CalibrationDot {
  /** Order among the usable calibration_dot events, by time. */
  index: number;
  x: number;
  y: number;
  validation: boolean;
  startMs: number;
  /** Exclusive. */
  endMs: number;
  /**
   * When the eyes set off for this dot: its own start after a jump, or the start of the run of small steps it
   * continues (a dot moving smoothly over the screen is logged every ~100 ms; the eyes pursue it, they do not
   * jump again each time).
   */
  settleFromMs: number;
  /**
   * The group its samples are split and cross-validated by: a still dot's own position, or, for a moving dot,
   * the cell of a 4 × 4 grid over the screen it is in (so held-out samples are away from the training ones).
   */
  group: string;
}

/** A step of the dot larger than this share of the screen diagonal, or after this pause, is a jump. */
export const JUMP_SHARE_OF_DIAGONAL = 0.15;
export const MOVING_STEP_MAX_MS = 300;
const MOVING_GRID = 4;

type LooseEvent = { type: string; t: number; [key: string]: unknown };

/**
 * The calibration dots of a log. A dot stays until the next calibration_dot or calibration_end event. When the
 * last dot has neither after it, it is given the median duration of the other dots (so content frames are not
 * taken for calibration), or an open end when it is the only dot. Dots with non-finite coordinates are dropped
 * but still end the dot before them.
 */
export function calibrationDots(log: EventLog): CalibrationDot[] {
  const all: unknown[] = Array.isArray(log?.events) ? log.events : [];
  const events = (all as LooseEvent[])
    .filter((e) => e !== null && typeof e === 'object' && Number.isFinite(e.t))
    .filter((e) => e.type === 'calibration_dot' || e.type === 'calibration_end')
    .sort((a, b) => a.t - b.t);
  const screen = log?.screen;
  const diagonal = screen && screen.width > 0 && screen.height > 0 ? Math.hypot(screen.width, screen.height) : 0;
  const raw: (Omit<CalibrationDot, 'index'> & { openEnded: boolean })[] = [];
  let previous: LooseEvent | undefined;
  let runStart = 0;
  let moving = false;
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as LooseEvent;
    if (e.type !== 'calibration_dot') {
      previous = undefined;
      continue;
    }
    const { x, y } = e;
    if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) continue;
    // Without a screen size every dot is a jump (as before moving dots were known).
    const step =
      previous &&
      diagonal > 0 &&
      (previous.validation === true) === (e.validation === true) &&
      e.t - previous.t <= MOVING_STEP_MAX_MS
        ? Math.hypot(x - (previous.x as number), y - (previous.y as number))
        : Number.POSITIVE_INFINITY;
    const continues = step <= JUMP_SHARE_OF_DIAGONAL * diagonal;
    if (!continues) runStart = e.t;
    // A run of small steps is a moving dot: its dots (the first one too) are grouped by screen cell.
    if (continues && !moving) {
      moving = true;
      const first = raw.at(-1);
      if (first) first.group = cellKey(first, screen);
    } else if (!continues) moving = false;
    const next = events[i + 1];
    raw.push({
      x,
      y,
      validation: e.validation === true,
      startMs: e.t,
      endMs: next ? next.t : Number.POSITIVE_INFINITY,
      settleFromMs: runStart,
      group: moving ? cellKey({ x, y }, screen) : positionKey({ x, y }),
      openEnded: next === undefined,
    });
    previous = e;
  }
  const last = raw.at(-1);
  if (last?.openEnded && raw.length > 1) {
    const durations = raw
      .slice(0, -1)
      .map((d) => d.endMs - d.startMs)
      .sort((a, b) => a - b);
    last.endMs = last.startMs + median(durations);
  }
  return raw.map(({ openEnded: _, ...d }, index) => ({ index, ...d }));
}

/** A key that identifies a dot position; two dots at the same place share it. */
export function positionKey(point: ScreenPoint): string {
  return `${point.x},${point.y}`;
}

/** The cell of a moving dot's position on a 4 × 4 grid over the screen. */
function cellKey(point: ScreenPoint, screen: Screen | undefined): string {
  const cell = (value: number, size: number) =>
    Math.min(MOVING_GRID - 1, Math.max(0, Math.floor((value / size) * MOVING_GRID)));
  return `cell:${cell(point.x, screen?.width ?? 1)},${cell(point.y, screen?.height ?? 1)}`;
}

export interface CalibrationOptions {
  /** Milliseconds after each jump whose frames are skipped while the eyes travel to the dot. Default 400. */
  settleMs?: number;
}

export interface CalibrationSample {
  frameIndex: number;
  /** Seconds, recording clock. */
  time: number;
  /** `CalibrationDot.index` of the dot on screen. */
  dotIndex: number;
  target: ScreenPoint;
  /** Marked as a validation dot in the log. */
  validation: boolean;
  /** `CalibrationDot.group`: what the split and the cross-validation hold out together. */
  group: string;
  features: number[];
}

/** True when a frame may calibrate: one main face with both eyes found, head towards the screen. */
export function isCalibrationFrame(frame: FrameData): boolean {
  if (!frame.face?.eyes) return false;
  return !frame.flags.some((flag) => UNUSABLE_FLAGS.includes(flag));
}

/**
 * Pairs frames with the dot on screen. A frame at `time` seconds belongs to the dot whose interval satisfies
 * settleFromMs + settleMs ≤ 1000·time < endMs (settling once after a jump, not at every step of a moving dot);
 * frames that are not `isCalibrationFrame` are skipped.
 */
export function calibrationSamples(
  frames: FrameData[],
  log: EventLog,
  options: CalibrationOptions = {},
): CalibrationSample[] {
  const settleMs = Math.max(0, options.settleMs ?? DEFAULT_SETTLE_MS);
  const dots = calibrationDots(log);
  const samples: CalibrationSample[] = [];
  if (dots.length === 0) return samples;
  for (const frame of frames) {
    if (!Number.isFinite(frame.time) || !isCalibrationFrame(frame) || !frame.face) continue;
    const ms = frame.time * 1000;
    const dot = dotAt(dots, ms);
    if (!dot || ms < dot.settleFromMs + settleMs || ms >= dot.endMs) continue;
    const features = gazeFeatures(frame.face);
    if (!features) continue;
    samples.push({
      frameIndex: frame.index,
      time: frame.time,
      dotIndex: dot.index,
      target: { x: dot.x, y: dot.y },
      validation: dot.validation,
      group: dot.group,
      features,
    });
  }
  return samples;
}

/** The last dot that started at or before `ms` (dots are sorted by start). */
function dotAt(dots: CalibrationDot[], ms: number): CalibrationDot | undefined {
  let lo = 0;
  let hi = dots.length - 1;
  let found: CalibrationDot | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const dot = dots[mid] as CalibrationDot;
    if (dot.startMs <= ms) {
      found = dot;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

export interface SplitOptions {
  /**
   * Whether the log marks validation dots; then exactly those are the validation set, even when none of them has
   * usable frames. Default: whether any sample is marked.
   */
  validationFromLog?: boolean;
  /** Share of distinct positions held out when the log marks no validation dots. Default 0.25. */
  validationShare?: number;
  /** Default 4. */
  minTrainingPositions?: number;
}

export type CalibrationSplit =
  | {
      ok: true;
      training: CalibrationSample[];
      validation: CalibrationSample[];
      /** 'log': the log's validation dots; 'held_out': positions chosen by `splitCalibration`. */
      source: 'log' | 'held_out';
      /** The validation groups' keys (`CalibrationSample.group`) and their mean positions. */
      validationPositions: string[];
      validationPoints: ScreenPoint[];
    }
  | { ok: false; reason: string };

/**
 * Splits samples into training and validation, whole positions at a time (a dot's frames never straddle the
 * split). When any sample comes from a dot the log marks `validation`, those dots are the validation set.
 * Otherwise k = min(P − minTrainingPositions, max(1, round(validationShare · P))) of the P distinct positions
 * are held out, the most central first: centrality = Euclidean distance from the centre of the positions'
 * bounding box, each axis as a share of the box's width or height (so a 3×3 grid gives up its centre, then edge
 * midpoints, and never a corner). Validation then measures interpolation while the training dots still span
 * the screen. Ties go to the position shown first.
 */
export function splitCalibration(samples: CalibrationSample[], options: SplitOptions = {}): CalibrationSplit {
  const minTraining = options.minTrainingPositions ?? DEFAULT_MIN_TRAINING_POSITIONS;
  const share = options.validationShare ?? DEFAULT_VALIDATION_SHARE;
  if (options.validationFromLog ?? samples.some((s) => s.validation)) {
    const training = samples.filter((s) => !s.validation);
    const validation = samples.filter((s) => s.validation);
    const trainingPositions = distinctGroups(training).length;
    if (trainingPositions < minTraining) {
      return {
        ok: false,
        reason: `Only ${trainingPositions} calibration dot position(s) with usable frames remain besides the validation dots; at least ${minTraining} are needed to fit the gaze model.`,
      };
    }
    return {
      ok: true,
      training,
      validation,
      source: 'log',
      validationPositions: distinctGroups(validation).map((g) => g.key),
      validationPoints: distinctGroups(validation).map((g) => g.point),
    };
  }
  const groups = distinctGroups(samples);
  const positions = groups.map((g) => g.point);
  const count = Math.min(positions.length - minTraining, Math.max(1, Math.round(share * positions.length)));
  if (count < 1) {
    return {
      ok: false,
      reason: `Only ${positions.length} calibration dot position(s) have usable frames, too few to hold one out for validation and keep ${minTraining} for training.`,
    };
  }
  const heldGroups = rankByCentrality(positions)
    .slice(0, count)
    .map((p) => groups[positions.indexOf(p)] as { key: string; point: ScreenPoint });
  const held = new Set(heldGroups.map((g) => g.key));
  return {
    ok: true,
    training: samples.filter((s) => !held.has(s.group)),
    validation: samples.filter((s) => held.has(s.group)),
    source: 'held_out',
    validationPositions: heldGroups.map((g) => g.key),
    validationPoints: heldGroups.map((g) => g.point),
  };
}

/**
 * Distinct sample groups in order of first appearance (samples come in frame order), each with the mean of its
 * targets: a still dot's position, or the centre of a moving dot's samples in one screen cell.
 */
export function distinctGroups(samples: CalibrationSample[]): { key: string; point: ScreenPoint }[] {
  const sums = new Map<string, { x: number; y: number; n: number }>();
  for (const s of samples) {
    const sum = sums.get(s.group) ?? { x: 0, y: 0, n: 0 };
    sum.x += s.target.x;
    sum.y += s.target.y;
    sum.n++;
    sums.set(s.group, sum);
  }
  return [...sums].map(([key, sum]) => ({ key, point: { x: sum.x / sum.n, y: sum.y / sum.n } }));
}

function rankByCentrality(positions: ScreenPoint[]): ScreenPoint[] {
  const xs = positions.map((p) => p.x);
  const ys = positions.map((p) => p.y);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const minY = Math.min(...ys);
  const maxY = Math.max(...ys);
  const offset = (value: number, min: number, max: number) => (max > min ? (value - min) / (max - min) - 0.5 : 0);
  const scored = positions.map((p, order) => ({
    p,
    order,
    distance: Math.hypot(offset(p.x, minX, maxX), offset(p.y, minY, maxY)),
  }));
  scored.sort((a, b) => a.distance - b.distance || a.order - b.order);
  return scored.map((s) => s.p);
}

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

  const trainingPositions = distinctGroups(training).length;
  const affordable = (sets: readonly (readonly number[])[]) => {
    const fitting = sets.filter((set) => set.length + 3 <= trainingPositions);
    return fitting.length > 0 ? fitting : sets.slice(0, 1);
  };
  const choice = chooseModel(training, { x: affordable(candidates.x), y: affordable(candidates.y) }, lambdas);
  if (choice === null) {
    return fail('The gaze regression could not be solved (degenerate features) for any ridge penalty.');
  }
  const maxRatio = options.maxCvErrorRatio ?? DEFAULT_MAX_CV_ERROR_RATIO;
  if (!(choice.rmsError <= maxRatio * choice.baselineRmsError)) {
    return fail(
      `The eye movements do not follow the calibration dots: the cross-validated gaze error (${Math.round(choice.rmsError)} px RMS) is not clearly better than always guessing the mean dot position (${Math.round(choice.baselineRmsError)} px RMS).`,
    );
  }

  const fit = fitRidge(
    training.map((s) => s.features),
    training.map((s) => s.target),
    choice,
  );
  if (!fit) return fail('The gaze regression could not be solved (degenerate features).');
  const model: GazeModel = { kind: 'ridge', lambda: choice.lambda, ...fit, screen: { ...screen } };
  const accuracyPx = meanError(validation, (f) => predictGaze(model, f));
  if (!Number.isFinite(accuracyPx)) return fail('The gaze regression produced non-finite predictions.');
  return {
    status: 'calibrated',
    accuracyPx,
    accuracyPercentOfDiagonal: percentOfDiagonal(accuracyPx, screen),
    trainingSamples: training.length,
    validationSamples: validation.length,
    model,
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
 * The gaze point of every frame. `point` is null when the frame has no face or no eye features; `onScreen` is
 * true when the point lies in [0, width] × [0, height] of the model's screen.
 */
export function applyGaze(model: GazeModel, frames: FrameData[]): FrameGaze[] {
  return frames.map((frame) => {
    const features = frame.face ? gazeFeatures(frame.face) : null;
    if (!features) return { time: frame.time, point: null, onScreen: false };
    const point = predictGaze(model, features);
    return { time: frame.time, point, onScreen: isOnScreen(point, model.screen) };
  });
}

export function isOnScreen(point: ScreenPoint, screen: Screen): boolean {
  return point.x >= 0 && point.x <= screen.width && point.y >= 0 && point.y <= screen.height;
}

// ---------------------------------------------------------------------------------------------------------------
// Ridge regression

interface RidgeFit {
  mean: number[];
  scale: number[];
  weightsX: number[];
  weightsY: number[];
}

/** Which features each axis uses, and the penalty. */
interface RidgeSpec {
  lambda: number;
  x: readonly number[];
  y: readonly number[];
}

function featuresVary(rows: number[][]): boolean {
  return standardisation(rows).varying.some(Boolean);
}

/**
 * Column means and population SDs. A (near-)constant column gets scale 1, so its z is 0 and its weight stays 0
 * rather than dividing by zero.
 */
function standardisation(rows: number[][]): { mean: number[]; scale: number[]; varying: boolean[] } {
  const n = rows.length;
  const p = rows[0]?.length ?? 0;
  const mean = new Array<number>(p).fill(0);
  const variance = new Array<number>(p).fill(0);
  for (const r of rows) for (let j = 0; j < p; j++) mean[j] = (mean[j] as number) + (r[j] ?? 0) / n;
  for (const r of rows) {
    for (let j = 0; j < p; j++) {
      const d = (r[j] ?? 0) - (mean[j] as number);
      variance[j] = (variance[j] as number) + (d * d) / n;
    }
  }
  const varying = variance.map((v, j) => Math.sqrt(v) > 1e-9 * Math.max(1, Math.abs(mean[j] as number)));
  const scale = variance.map((v, j) => (varying[j] ? Math.sqrt(v) : 1));
  return { mean, scale, varying };
}

function standardise(rows: number[][], mean: number[], scale: number[]): number[][] {
  return rows.map((r) => r.map((v, j) => (v - (mean[j] as number)) / (scale[j] as number)));
}

/**
 * Ridge weights of one axis on standardised rows `z`, using the columns in `columns` only: solves
 * (Z_Sᵀ Z_S / n + λI) w = Z_Sᵀ (t − t̄) / n. Returns [t̄, w_1, …, w_p] over all p columns (0 outside `columns`),
 * or null when the system is not positive definite.
 */
function ridgeAxis(z: number[][], t: number[], columns: readonly number[], lambda: number): number[] | null {
  const n = z.length;
  const p = z[0]?.length ?? 0;
  const k = columns.length;
  if (n === 0) return null;
  const mean = t.reduce((a, b) => a + b, 0) / n;
  const gram: number[][] = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const rhs = new Array<number>(k).fill(0);
  for (let i = 0; i < n; i++) {
    const zi = z[i] as number[];
    const ti = (t[i] as number) - mean;
    for (let a = 0; a < k; a++) {
      const za = zi[columns[a] as number] as number;
      rhs[a] = (rhs[a] as number) + (za * ti) / n;
      const row = gram[a] as number[];
      for (let b = 0; b <= a; b++) row[b] = (row[b] as number) + (za * (zi[columns[b] as number] as number)) / n;
    }
  }
  for (let a = 0; a < k; a++) {
    const row = gram[a] as number[];
    row[a] = (row[a] as number) + lambda;
    for (let b = 0; b < a; b++) (gram[b] as number[])[a] = row[b] as number;
  }
  const factor = cholesky(gram);
  if (!factor) return null;
  const w = choleskySolve(factor, rhs);
  if (!w.every(Number.isFinite)) return null;
  const weights = new Array<number>(p + 1).fill(0);
  weights[0] = mean;
  columns.forEach((column, a) => {
    weights[column + 1] = w[a] as number;
  });
  return weights;
}

function fitRidge(rows: number[][], targets: ScreenPoint[], spec: RidgeSpec): RidgeFit | null {
  const { mean, scale } = standardisation(rows);
  const z = standardise(rows, mean, scale);
  const weightsX = ridgeAxis(
    z,
    targets.map((t) => t.x),
    spec.x,
    spec.lambda,
  );
  const weightsY = ridgeAxis(
    z,
    targets.map((t) => t.y),
    spec.y,
    spec.lambda,
  );
  return weightsX && weightsY ? { mean, scale, weightsX, weightsY } : null;
}

/** Lower-triangular L with A = L·Lᵀ, or null when A is not (numerically) positive definite. */
export function cholesky(a: number[][]): number[][] | null {
  const p = a.length;
  const maxDiag = Math.max(0, ...a.map((row, i) => Math.abs(row[i] ?? 0)));
  const tolerance = 1e-12 * Math.max(maxDiag, Number.MIN_VALUE);
  const l: number[][] = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  for (let i = 0; i < p; i++) {
    const li = l[i] as number[];
    for (let j = 0; j <= i; j++) {
      const lj = l[j] as number[];
      let sum = (a[i] as number[])[j] ?? 0;
      for (let k = 0; k < j; k++) sum -= (li[k] as number) * (lj[k] as number);
      if (i === j) {
        if (!(sum > tolerance)) return null;
        li[i] = Math.sqrt(sum);
      } else {
        li[j] = sum / (lj[j] as number);
      }
    }
  }
  return l;
}

/** Solves L·Lᵀ·x = b by forward then backward substitution. */
export function choleskySolve(l: number[][], b: number[]): number[] {
  const p = l.length;
  const y = new Array<number>(p).fill(0);
  for (let i = 0; i < p; i++) {
    let sum = b[i] ?? 0;
    for (let k = 0; k < i; k++) sum -= ((l[i] as number[])[k] as number) * (y[k] as number);
    y[i] = sum / ((l[i] as number[])[i] as number);
  }
  const x = new Array<number>(p).fill(0);
  for (let i = p - 1; i >= 0; i--) {
    let sum = y[i] as number;
    for (let k = i + 1; k < p; k++) sum -= ((l[k] as number[])[i] as number) * (x[k] as number);
    x[i] = sum / ((l[i] as number[])[i] as number);
  }
  return x;
}

/** Mean over samples of the Euclidean distance between prediction and target. */
function meanError(samples: CalibrationSample[], predict: (features: number[]) => ScreenPoint): number {
  let sum = 0;
  for (const s of samples) {
    const p = predict(s.features);
    sum += Math.hypot(p.x - s.target.x, p.y - s.target.y);
  }
  return sum / samples.length;
}

interface ModelChoice extends RidgeSpec {
  /** Cross-validated RMS Euclidean error of this choice, and of always guessing the other dots' mean position. */
  rmsError: number;
  baselineRmsError: number;
}

/**
 * Leave-one-dot-position-out cross-validation: each training position's frames are predicted by models fitted
 * (standardisation included) on the other positions, for every λ and every candidate set of each axis. For each
 * λ, each axis takes its set with the smallest summed squared error; the λ with the smallest x + y total wins.
 * Ties go to the simpler choice (earlier set, larger λ). Null when no λ solves every fold.
 */
function chooseModel(
  training: CalibrationSample[],
  candidates: { x: readonly (readonly number[])[]; y: readonly (readonly number[])[] },
  lambdas: readonly number[],
): ModelChoice | null {
  const groups = new Map<string, CalibrationSample[]>();
  for (const s of training) {
    const key = s.group;
    const group = groups.get(key);
    if (group) group.push(s);
    else groups.set(key, [s]);
  }
  const sorted = [...lambdas].sort((a, b) => a - b);
  // sse[axis][lambda][set]: summed squared held-out error.
  const sse = {
    x: sorted.map(() => candidates.x.map(() => 0)),
    y: sorted.map(() => candidates.y.map(() => 0)),
  };
  let baseline = 0;
  for (const [key, held] of groups) {
    const rest = training.filter((s) => s.group !== key);
    if (rest.length === 0) return null;
    const { mean, scale } = standardisation(rest.map((s) => s.features));
    const zRest = standardise(
      rest.map((s) => s.features),
      mean,
      scale,
    );
    const zHeld = standardise(
      held.map((s) => s.features),
      mean,
      scale,
    );
    const centre = {
      x: rest.reduce((acc, s) => acc + s.target.x, 0) / rest.length,
      y: rest.reduce((acc, s) => acc + s.target.y, 0) / rest.length,
    };
    for (const s of held) baseline += (s.target.x - centre.x) ** 2 + (s.target.y - centre.y) ** 2;
    for (const axis of ['x', 'y'] as const) {
      const targets = rest.map((s) => s.target[axis]);
      sorted.forEach((lambda, l) => {
        candidates[axis].forEach((columns, c) => {
          const row = sse[axis][l] as number[];
          const weights = ridgeAxis(zRest, targets, columns, lambda);
          if (!weights) {
            row[c] = Number.POSITIVE_INFINITY;
            return;
          }
          held.forEach((s, i) => {
            const zi = zHeld[i] as number[];
            let estimate = weights[0] as number;
            for (const j of columns) estimate += (weights[j + 1] as number) * (zi[j] as number);
            row[c] = (row[c] as number) + (estimate - s.target[axis]) ** 2;
          });
        });
      });
    }
  }
  const bestSet = (errors: number[]) =>
    errors.reduce((best, error, index) => (error < (errors[best] as number) ? index : best), 0);
  let choice: ModelChoice | null = null;
  let bestTotal = Number.POSITIVE_INFINITY;
  sorted.forEach((lambda, l) => {
    const ex = sse.x[l] as number[];
    const ey = sse.y[l] as number[];
    const cx = bestSet(ex);
    const cy = bestSet(ey);
    const total = (ex[cx] as number) + (ey[cy] as number);
    if (Number.isFinite(total) && total <= bestTotal) {
      bestTotal = total;
      choice = {
        lambda,
        x: candidates.x[cx] as readonly number[],
        y: candidates.y[cy] as readonly number[],
        rmsError: Math.sqrt(total / training.length),
        baselineRmsError: Math.sqrt(baseline / training.length),
      };
    }
  });
  return choice;
}

function median(sorted: number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
