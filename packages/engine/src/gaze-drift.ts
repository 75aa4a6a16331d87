/**
 * Drift checkpoints (issue 31 item 4, decision 053): a still dot shown at a known place during the content (at a
 * natural break, or a short overlay), logged as `checkpoint_dot`. Where the gaze reads on it, against where it is,
 * is the drift of the calibration since it was made; the gaze of the content is corrected by it, per segment: the
 * offset grows linearly from none at the calibration's end to each checkpoint's, from one checkpoint's to the next,
 * and stays at the last one's after it.
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
   * The offset the correction takes off (`shrunkOffset`): the measured one shrunk by how much of it the gaze's own
   * error at a dot could explain. Absent in results made before it (the measured one was taken off).
   */
  applied?: ScreenPoint;
  used: boolean;
}

/**
 * A checkpoint's offset as the correction applies it: `offset` · max(0, 1 − (noise / |offset|)²), where `noise` is the
 * error a single fixation's gaze has without any drift (px; the calibration's validation-dot accuracy). A checkpoint
 * reads the drift plus that error; an offset no larger than the error is mostly the error, and taking it off would move
 * every gaze point after it by as much; a large one is mostly drift and is taken off nearly whole (a positive-part
 * James–Stein shrinkage, decision 061).
 */
export function shrunkOffset(offset: ScreenPoint, noise: number): ScreenPoint {
  const size2 = offset.x * offset.x + offset.y * offset.y;
  if (!(noise > 0) || size2 === 0) return offset;
  const k = Math.max(0, 1 - (noise * noise) / size2);
  return { x: offset.x * k, y: offset.y * k };
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
 * the settling time, their median offset per axis, the mean of its dots' offsets for the checkpoint; the offset the
 * correction applies shrunk by `noise`, the gaze's own error at a dot (`shrunkOffset`).
 */
export function measureCheckpoints(
  dots: readonly CheckpointDot[],
  track: readonly FrameGaze[],
  screen: { width: number; height: number },
  noise = 0,
): DriftCheckpoint[] {
  const groups: CheckpointDot[][] = [];
  for (const dot of dots) {
    const last = groups.at(-1);
    const previous = last?.at(-1);
    if (last && previous && dot.startMs - previous.startMs < CHECKPOINT_GROUP_MS) last.push(dot);
    else groups.push([dot]);
  }
  const limit = MAX_DRIFT_SHARE * Math.hypot(screen.width, screen.height);
  return groups.map((group) => {
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
      return { ms, dots: group.length, samples, offset: null, used: false };
    }
    const offset = {
      x: offsets.reduce((s, o) => s + o.x, 0) / offsets.length,
      y: offsets.reduce((s, o) => s + o.y, 0) / offsets.length,
    };
    const used = Math.hypot(offset.x, offset.y) <= limit;
    return { ms, dots: group.length, samples, offset, applied: shrunkOffset(offset, noise), used };
  });
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
