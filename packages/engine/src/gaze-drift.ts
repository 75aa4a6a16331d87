/**
 * Drift checkpoints (issue 31 item 4, decision 053): a still dot shown at a known place during the content (at a
 * natural break, or a short overlay), logged as `checkpoint_dot`. Where the gaze reads on it, against where it is,
 * is the drift of the calibration since it was made, read with the gaze's own error at a dot; the checkpoints' offsets
 * are smoothed together as readings of a random walk (decision 074) and the gaze of the content is corrected per
 * segment: the offset grows linearly from none at the calibration's end to each checkpoint's, from one checkpoint's to
 * the next, and stays at the last one's after it.
 */
import { DEFAULT_SETTLE_MS } from './gaze-calibration.ts';
import { median } from './median.ts';
import type { FrameGaze, ScreenPoint } from './types.ts';

/**
 * The longest the page shows a checkpoint dot (contracts' `DRIFT_CHECKPOINT_TIMING.breakDotMs`; the overlay's is
 * shorter): a dot without a later event by then ends there. The page logs `checkpoint_end` as a research's opening dot
 * goes, where nothing else would be logged (a contentless research logs nothing until its end, a video its first
 * `video_play` once loaded); logs from before it did not, and read longer, the dot's median would take in where the
 * eyes went after it (decision 057).
 */
export const CHECKPOINT_DOT_MAX_MS = 1500;
/** Dots less than this apart (ms) belong to one checkpoint (a drift check of three dots between researches). */
export const CHECKPOINT_GROUP_MS = 3000;
/** A checkpoint needs this many gaze samples on its dots after the eyes settled. */
export const MIN_CHECKPOINT_SAMPLES = 5;
/**
 * An offset beyond this share of the screen's diagonal is not drift but a respondent who did not look at the dot:
 * the checkpoint is reported and left out of the correction.
 */
export const MAX_DRIFT_SHARE = 0.25;

type LooseEvent = { type: string; t: number; x?: unknown; y?: unknown };

export interface CheckpointDot {
  x: number;
  y: number;
  startMs: number;
  endMs: number;
}

/** One checkpoint: its dots' time, the gaze's mean offset from them (px) and whether it corrects the gaze. */
export interface DriftCheckpoint {
  /** When it measured: the mean time of its samples (the middle of its dots without any), ms on the session clock. */
  ms: number;
  dots: number;
  samples: number;
  /** Measured minus true, screen CSS px; null with too few samples. */
  offset: ScreenPoint | null;
  /**
   * The offset the correction takes off at this checkpoint (a used one's; `smoothedOffsets`): the measured offsets
   * smoothed as readings of a random walk with the gaze's own error at a dot. Absent in results made before decision
   * 061 (the measured one was taken off); engines before 0.9.2 shrank each offset on its own (decision 061).
   */
  applied?: ScreenPoint;
  used: boolean;
}

/** A measured offset per axis: the value, and its measurement variance (px²). */
interface Reading {
  seconds: number;
  value: number;
  variance: number;
}

/**
 * One axis of the drift under a random walk from 0 at time 0 (the calibration just made): a Kalman filter over the
 * readings in time order, then the Rauch–Tung–Striebel pass back; `q` is the walk's variance per second (px²/s).
 * Returns the smoothed drift at each reading and the readings' log-likelihood under `q`.
 */
function smoothAxis(readings: readonly Reading[], q: number): { smoothed: number[]; logLikelihood: number } {
  const filtered: number[] = [];
  const filteredVar: number[] = [];
  const predictedVar: number[] = [];
  let mean = 0;
  let variance = 0;
  let previous = 0;
  let logLikelihood = 0;
  for (const r of readings) {
    const predicted = variance + q * Math.max(0, r.seconds - previous);
    previous = r.seconds;
    const s = predicted + r.variance;
    const innovation = r.value - mean;
    logLikelihood -= 0.5 * (Math.log(2 * Math.PI * s) + (innovation * innovation) / s);
    const gain = predicted / s;
    mean += gain * innovation;
    variance = (1 - gain) * predicted;
    filtered.push(mean);
    filteredVar.push(variance);
    predictedVar.push(predicted);
  }
  const smoothed = [...filtered];
  for (let k = readings.length - 2; k >= 0; k--) {
    const next = predictedVar[k + 1] as number;
    const back = next > 0 ? (filteredVar[k] as number) / next : 0;
    smoothed[k] = (filtered[k] as number) + back * ((smoothed[k + 1] as number) - (filtered[k] as number));
  }
  return { smoothed, logLikelihood };
}

/** The random walk's variance per second tried first (px²/s): none, then 10⁻² to 10⁶ in steps of 10^0.05. */
const WALK_STEP = 0.05;
const WALK_VARIANCES = [0, ...Array.from({ length: 161 }, (_, i) => 10 ** (-2 + i * WALK_STEP))];

/** The maximum of `f` near `q` (a grid point), by golden-section search on log q within one grid step either side. */
function refineMaximum(f: (q: number) => number, q: number): number {
  const ratio = (Math.sqrt(5) - 1) / 2;
  let [lo, hi] = [Math.log10(q) - WALK_STEP, Math.log10(q) + WALK_STEP];
  for (let i = 0; i < 40; i++) {
    const a = hi - ratio * (hi - lo);
    const b = lo + ratio * (hi - lo);
    if (f(10 ** a) >= f(10 ** b)) hi = b;
    else lo = a;
  }
  return 10 ** ((lo + hi) / 2);
}

/**
 * The drift at each checkpoint as the correction takes it off (decision 074): the measured offsets smoothed as
 * readings of a random walk that starts at 0 when the calibration ends (`fromMs`). A checkpoint reads the drift plus
 * the gaze's own error at its dots, whose size per dot is `noise` (px; the calibration's validation-dot accuracy, as
 * the error of one fixation: variance noise²/2 per axis, divided among the checkpoint's measured dots). How fast drift
 * walks is the session's own: the walk's variance that makes its readings most likely (both axes, one value). An
 * offset no larger than the noise then stays mostly untaken (the walk most likely stood still), one well above it is
 * taken nearly whole, and neighbouring checkpoints inform each other. A lone checkpoint's offset comes out as decision
 * 061 took it: offset · max(0, 1 − (noise / |offset|)²). Without noise the offsets are taken as read.
 */
export function smoothedOffsets(
  checkpoints: readonly { ms: number; offset: ScreenPoint; measuredDots: number }[],
  fromMs: number,
  noise: number,
): ScreenPoint[] {
  if (!(noise > 0)) return checkpoints.map((c) => ({ ...c.offset }));
  const sorted = checkpoints.map((c, i) => ({ c, i })).sort((a, b) => a.c.ms - b.c.ms);
  const axis = (key: 'x' | 'y'): Reading[] =>
    sorted.map(({ c }) => ({
      seconds: Math.max(0, c.ms - fromMs) / 1000,
      value: c.offset[key],
      variance: (noise * noise) / 2 / Math.max(1, c.measuredDots),
    }));
  const xs = axis('x');
  const ys = axis('y');
  const likelihood = (q: number) => smoothAxis(xs, q).logLikelihood + smoothAxis(ys, q).logLikelihood;
  let best = { q: 0, logLikelihood: -Infinity };
  for (const q of WALK_VARIANCES) {
    const logLikelihood = likelihood(q);
    if (logLikelihood > best.logLikelihood) best = { q, logLikelihood };
  }
  const q = best.q > 0 ? refineMaximum(likelihood, best.q) : 0;
  const sx = smoothAxis(xs, q).smoothed;
  const sy = smoothAxis(ys, q).smoothed;
  const out: ScreenPoint[] = new Array(checkpoints.length);
  sorted.forEach(({ i }, k) => {
    out[i] = { x: sx[k] as number, y: sy[k] as number };
  });
  return out;
}

/** The `checkpoint_dot`s in [startMs, endMs) of an event log, each until the next event (at most 1.5 s). */
export function checkpointDots(events: readonly LooseEvent[], startMs: number, endMs: number): CheckpointDot[] {
  const sorted = events.filter((e) => Number.isFinite(e.t)).sort((a, b) => a.t - b.t);
  const dots: CheckpointDot[] = [];
  sorted.forEach((e, i) => {
    if (e.type !== 'checkpoint_dot' || e.t < startMs || e.t >= endMs) return;
    if (typeof e.x !== 'number' || typeof e.y !== 'number' || !Number.isFinite(e.x) || !Number.isFinite(e.y)) return;
    const next = sorted.slice(i + 1).find((n) => n.t > e.t);
    dots.push({ x: e.x, y: e.y, startMs: e.t, endMs: Math.min(next?.t ?? Infinity, e.t + CHECKPOINT_DOT_MAX_MS) });
  });
  return dots;
}

/**
 * The checkpoints of `dots` measured on `track` (gaze points in time order, seconds): each dot's gaze samples after
 * the settling time, their median offset per axis, the mean of its dots' offsets for the checkpoint; the offsets the
 * correction applies (the used checkpoints') smoothed from `fromMs` with `noise`, the gaze's own error at a dot
 * (`smoothedOffsets`; without noise, as measured).
 */
export function measureCheckpoints(
  dots: readonly CheckpointDot[],
  track: readonly FrameGaze[],
  screen: { width: number; height: number },
  { noise = 0, fromMs = 0 }: { noise?: number; fromMs?: number } = {},
): DriftCheckpoint[] {
  const groups: CheckpointDot[][] = [];
  for (const dot of dots) {
    const last = groups.at(-1);
    const previous = last?.at(-1);
    if (last && previous && dot.startMs - previous.startMs < CHECKPOINT_GROUP_MS) last.push(dot);
    else groups.push([dot]);
  }
  const limit = MAX_DRIFT_SHARE * Math.hypot(screen.width, screen.height);
  const measured = groups.map((group): { checkpoint: DriftCheckpoint; measuredDots: number } => {
    const offsets: ScreenPoint[] = [];
    let samples = 0;
    let timeSum = 0;
    for (const dot of group) {
      const xs: number[] = [];
      const ys: number[] = [];
      for (const g of track) {
        const ms = g.time * 1000;
        if (ms < dot.startMs + DEFAULT_SETTLE_MS || ms >= dot.endMs || !g.point) continue;
        xs.push(g.point.x);
        ys.push(g.point.y);
        timeSum += ms;
      }
      samples += xs.length;
      if (xs.length > 0) offsets.push({ x: median(xs) - dot.x, y: median(ys) - dot.y });
    }
    const first = group[0] as CheckpointDot;
    const ms = samples > 0 ? timeSum / samples : (first.startMs + (group.at(-1) as CheckpointDot).endMs) / 2;
    if (samples < MIN_CHECKPOINT_SAMPLES || offsets.length === 0) {
      return { checkpoint: { ms, dots: group.length, samples, offset: null, used: false }, measuredDots: 0 };
    }
    const offset = {
      x: offsets.reduce((s, o) => s + o.x, 0) / offsets.length,
      y: offsets.reduce((s, o) => s + o.y, 0) / offsets.length,
    };
    const used = Math.hypot(offset.x, offset.y) <= limit;
    return { checkpoint: { ms, dots: group.length, samples, offset, used }, measuredDots: offsets.length };
  });
  const used = measured.filter(({ checkpoint }) => checkpoint.used && checkpoint.offset);
  const applied = smoothedOffsets(
    used.map(({ checkpoint, measuredDots }) => ({
      ms: checkpoint.ms,
      offset: checkpoint.offset as ScreenPoint,
      measuredDots,
    })),
    fromMs,
    noise,
  );
  used.forEach(({ checkpoint }, i) => {
    checkpoint.applied = applied[i] as ScreenPoint;
  });
  return measured.map(({ checkpoint }) => checkpoint);
}

/**
 * The drift offset at `ms` (px): none until `fromMs` (the calibration's end), then linear from none to the first
 * used checkpoint's, between used checkpoints, and the last one's after it.
 */
export function driftAt(checkpoints: readonly DriftCheckpoint[], fromMs: number, ms: number): ScreenPoint {
  let a = { ms: fromMs, x: 0, y: 0 };
  if (ms <= fromMs) return { x: 0, y: 0 };
  for (const c of checkpoints) {
    const offset = c.applied ?? c.offset;
    if (!c.used || !offset) continue;
    const b = { ms: c.ms, x: offset.x, y: offset.y };
    if (ms <= b.ms) {
      const f = b.ms > a.ms ? (ms - a.ms) / (b.ms - a.ms) : 1;
      return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
    }
    a = b;
  }
  return { x: a.x, y: a.y };
}

/** `track` with the drift taken off every point after `fromMs` (a new array; `onScreen` read again). */
export function correctDrift(
  track: readonly FrameGaze[],
  checkpoints: readonly DriftCheckpoint[],
  fromMs: number,
  screen: { width: number; height: number },
): FrameGaze[] {
  if (!checkpoints.some((c) => c.used)) return [...track];
  return track.map((g) => {
    if (!g.point) return g;
    const d = driftAt(checkpoints, fromMs, g.time * 1000);
    const point = { x: g.point.x - d.x, y: g.point.y - d.y };
    return {
      ...g,
      point,
      onScreen: point.x >= 0 && point.x <= screen.width && point.y >= 0 && point.y <= screen.height,
    };
  });
}
