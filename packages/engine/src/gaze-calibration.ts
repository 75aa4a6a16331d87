/** The calibration dots of an event log, the frames that calibrate on them, and their training/validation split. */
import { gazeFeatures } from './gaze-features.ts';
import { median } from './median.ts';
import type { EventLog, FrameData, QualityFlag, Screen, ScreenPoint } from './types.ts';

export const DEFAULT_SETTLE_MS = 400;
export const DEFAULT_MIN_TRAINING_POSITIONS = 4;
export const DEFAULT_VALIDATION_SHARE = 0.25;

/** Frames with these flags never calibrate: the main face may not be the respondent's, or the eyes are hidden. */
const UNUSABLE_FLAGS: readonly QualityFlag[] = ['several_faces', 'head_turned'];

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
  /**
   * Where a moving dot goes next: the following dot of its run, whose start (this dot's `endMs`) it reaches. The
   * respondent page moves the dot every animation frame and logs it every ~100 ms, so between two logged positions
   * it is on the way from one to the other. Null for a still dot and for a run's last.
   */
  toward: ScreenPoint | null;
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
    const before = raw.at(-1);
    if (continues && before) before.toward = { x, y };
    if (continues && !moving) {
      moving = true;
      if (before) before.group = cellKey(before, screen);
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
      toward: null,
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
      target: dotPosition(dot, ms),
      validation: dot.validation,
      group: dot.group,
      features,
    });
  }
  return samples;
}

/**
 * Where the dot was at `ms`: a moving dot on the straight line from its logged position to the next one's, at the
 * share of its interval gone by (the page logs the dot's position every ~100 ms; between logs it glides on, and
 * a target held at the last logged position would lag the eyes by half a step, tens of pixels, on average); a still
 * dot where it was logged.
 */
export function dotPosition(dot: CalibrationDot, ms: number): ScreenPoint {
  const span = dot.endMs - dot.startMs;
  if (!dot.toward || !(span > 0)) return { x: dot.x, y: dot.y };
  const share = Math.min(1, Math.max(0, (ms - dot.startMs) / span));
  return { x: dot.x + share * (dot.toward.x - dot.x), y: dot.y + share * (dot.toward.y - dot.y) };
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
