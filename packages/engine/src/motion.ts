/**
 * Head motion, blinks and distraction (issue 11, item 6): pure functions over a time series of per-frame
 * values (seconds on one clock, any sampling rate, frames may be missing). Formulas in docs/engine.md,
 * section "Head motion, blinks and distraction".
 */
import { HEAD_TURN_LIMIT } from './face.ts';
import { median } from './median.ts';
import { DEFAULT_SMOOTHING_SIGMA_SECONDS, smoothSeries } from './metrics.ts';
import type { Distraction, HeadPose } from './types.ts';

/** Consecutive valid frames further apart than this are not joined: the motion or closure between is unknown. */
export const MAX_FRAME_GAP_SECONDS = 0.5;
/**
 * Hysteresis on eye closure (0 open as at rest, 1 shut): an eye closes at ≥ 0.25 and opens again at ≤ 0.15. The
 * face mesh's lids never meet: shut lids read 0.40–0.53 (the phantoms' blinks, decision 036), so these are about half
 * and a third of a shut eye's reading; still open eyes jitter by σ 0.02, a strong smile's raised lower lids reach 0.10.
 */
export const EYE_CLOSE_AT = 0.25;
export const EYE_OPEN_AT = 0.15;
/** A closure up to this long is a blink; longer ones are eyes closed. */
export const MAX_BLINK_SECONDS = 0.5;
/**
 * A blink closes fast: its first closed frame comes at most this long after a frame with the eye open (≤ EYE_OPEN_AT).
 * A closure reached from a half-closed stretch (a drift of the reading, lids lowered for a while) is no blink.
 */
export const MAX_BLINK_CLOSING_SECONDS = 0.2;
/** Eyes closed longer than this distract. */
export const EYES_CLOSED_DISTRACTION_SECONDS = 1;

/** The head's turn between a frame and the previous valid one. */
export interface HeadStep {
  /** Angle turned, degrees. */
  degrees: number;
  /** Time between the two frames, seconds. */
  seconds: number;
}

const wrap = (deg: number) => ((((deg + 180) % 360) + 360) % 360) - 180;

/**
 * Per frame, how far the head turned since the previous frame with a pose:
 *
 *   degrees_i = √(Δyaw² + Δpitch² + Δroll²),  Δ between the smoothed poses of frames i and j (the previous valid
 *   frame), seconds_i = t_i − t_j; null for the first valid frame, frames without a pose, and when
 *   t_i − t_j > 0.5 s (a gap: the motion across it is unknown, and it is left out rather than spread).
 *
 * Yaw, pitch and roll are first smoothed with `smoothSeries` (σ = 0.3 s, as the expressions), which removes the
 * frame-to-frame jitter of the pose estimate; σ = 0 uses the raw poses. Speed over any set of frames =
 * Σ degrees / Σ seconds (`headSpeed`).
 */
export function headSteps(
  times: number[],
  poses: (HeadPose | null)[],
  sigmaSeconds: number = DEFAULT_SMOOTHING_SIGMA_SECONDS,
): (HeadStep | null)[] {
  if (times.length !== poses.length) throw new RangeError(`headSteps: ${times.length} times but ${poses.length} poses`);
  const axis = (k: keyof HeadPose) =>
    smoothSeries(
      times,
      poses.map((p) => (p && Number.isFinite(p[k]) ? p[k] : null)),
      sigmaSeconds,
    );
  const [yaw, pitch, roll] = [axis('yaw'), axis('pitch'), axis('roll')];
  const valid = (i: number) =>
    poses[i] !== null &&
    Number.isFinite(times[i]) &&
    typeof yaw[i] === 'number' &&
    typeof pitch[i] === 'number' &&
    typeof roll[i] === 'number';
  const order = times.map((_, i) => i).filter(valid);
  order.sort((a, b) => (times[a] as number) - (times[b] as number));
  const out: (HeadStep | null)[] = times.map(() => null);
  for (let k = 1; k < order.length; k++) {
    const i = order[k] as number;
    const j = order[k - 1] as number;
    const seconds = (times[i] as number) - (times[j] as number);
    if (!(seconds > 0) || seconds > MAX_FRAME_GAP_SECONDS) continue;
    const d = (a: (number | null)[]) => wrap((a[i] as number) - (a[j] as number));
    out[i] = { degrees: Math.hypot(d(yaw), d(pitch), d(roll)), seconds };
  }
  return out;
}

/**
 * A head turning faster than this (degrees per second, frame to frame on the raw poses) is not read for its expressions
 * or action units (`fastHeadTurns`): people watching a screen move their heads at up to a few tens of degrees a
 * second; a glance away and back runs at 100–300°/s, and then the face mesh, fitted in a box placed from the previous
 * frame and blurred within the exposure, misreads the mouth's shape (decision 059: a phantom turning back from 40° at
 * ~120°/s read two frames of a strong smile that was not there).
 */
export const FAST_HEAD_TURN_DEGREES_PER_SECOND = 60;

/** Per frame, whether the head turned faster than `FAST_HEAD_TURN_DEGREES_PER_SECOND` since the previous frame. */
export function fastHeadTurns(times: number[], poses: (HeadPose | null)[]): boolean[] {
  return headSteps(times, poses, 0).map(
    (step) => step !== null && step.degrees > FAST_HEAD_TURN_DEGREES_PER_SECOND * step.seconds,
  );
}

/** Degrees per second over a set of steps: Σ degrees / Σ seconds; null without any. */
export function headSpeed(steps: (HeadStep | null)[]): number | null {
  let degrees = 0;
  let seconds = 0;
  for (const s of steps) {
    if (!s) continue;
    degrees += s.degrees;
    seconds += s.seconds;
  }
  return seconds > 0 ? degrees / seconds : null;
}

/** One stretch with the eyes closed. */
export interface EyeClosure {
  /** Time of the first closed frame. */
  start: number;
  /** Time of the first frame open again. */
  end: number;
  /** end − start ≤ 0.5 s, and closed within 0.2 s of an open frame (`MAX_BLINK_CLOSING_SECONDS`). */
  blink: boolean;
}

/**
 * Eye closures by hysteresis over per-frame eye closure (0 open as at rest, 1 shut; use the unsmoothed values,
 * smoothing erases blinks): closed from the first frame with closure ≥ EYE_CLOSE_AT to the first later frame with
 * closure ≤ EYE_OPEN_AT. A closure is a blink when it lasts at most 0.5 s and its first closed frame comes within
 * 0.2 s of a frame with closure ≤ EYE_OPEN_AT (a blink closes fast; a reading that hovers near the threshold does not). Frames without a value are skipped. Only
 * closures whose start and end are seen count: one begins only after an open frame (closure < EYE_CLOSE_AT) with no gap
 * over 0.5 s since, a gap over 0.5 s while closed drops it, and so does the series ending while closed.
 */
export function eyeClosures(times: number[], closure: (number | null)[]): EyeClosure[] {
  if (times.length !== closure.length) {
    throw new RangeError(`eyeClosures: ${times.length} times but ${closure.length} values`);
  }
  const order = times
    .map((_, i) => i)
    .filter((i) => Number.isFinite(times[i]) && Number.isFinite(closure[i]))
    .sort((a, b) => (times[a] as number) - (times[b] as number));
  const out: EyeClosure[] = [];
  let start: number | null = null;
  // A closure starts only after an open frame seen without a gap since: its start must be known.
  let armed = false;
  let last = Number.NEGATIVE_INFINITY;
  let lastOpen = Number.NEGATIVE_INFINITY;
  let fast = false;
  for (const i of order) {
    const t = times[i] as number;
    const c = closure[i] as number;
    if (t - last > MAX_FRAME_GAP_SECONDS) {
      start = null;
      armed = false;
    }
    if (start === null) {
      if (c >= EYE_CLOSE_AT) {
        if (armed) {
          start = t;
          fast = t - lastOpen <= MAX_BLINK_CLOSING_SECONDS + 1e-9;
        }
      } else armed = true;
    } else if (c <= EYE_OPEN_AT) {
      out.push({ start, end: t, blink: fast && t - start <= MAX_BLINK_SECONDS });
      start = null;
    }
    if (c <= EYE_OPEN_AT) lastOpen = t;
    last = t;
  }
  return out;
}

/** The open eye a frame's eye aspect ratio is read against: the median over this many seconds either side. */
export const EYE_REFERENCE_SECONDS = 5;
/** Fewer readings than this within the reference's reach leave a frame without a closure. */
export const EYE_REFERENCE_MIN_READINGS = 10;

/**
 * Per-frame eye closure from the eye aspect ratio (EAR, `FrameActionUnits.eyeAspectRatio`; null without one), against
 * the respondent's own open eye at that moment:
 *
 *   closure_i = 1 − EAR_i / reference(t_i),  reference(t) = median of the EARs within t ± 5 s
 *
 * (computed on whole seconds and interpolated linearly between them). Eyes are open most of the time, so the median is
 * the open eye, whatever its size on this face, behind these glasses or under this camera angle, and it follows slow
 * changes (a head tilted down for a while lowers the lids); a closure of more than about half the reach (5 s) starts
 * to pull it down. Null without an EAR or with under 10 readings within reach.
 */
export function eyeClosureSeries(times: number[], ear: (number | null)[]): (number | null)[] {
  if (times.length !== ear.length) {
    throw new RangeError(`eyeClosureSeries: ${times.length} times but ${ear.length} values`);
  }
  const valid = times
    .map((_, i) => i)
    .filter((i) => Number.isFinite(times[i]) && Number.isFinite(ear[i]))
    .sort((a, b) => (times[a] as number) - (times[b] as number));
  if (valid.length === 0) return ear.map(() => null);
  const first = Math.floor(times[valid[0] as number] as number);
  const last = Math.ceil(times[valid.at(-1) as number] as number);
  // The reference on whole seconds: a sliding window over the sorted readings.
  const grid: (number | null)[] = [];
  let lo = 0;
  let hi = 0;
  for (let g = first; g <= last; g++) {
    while (lo < valid.length && (times[valid[lo] as number] as number) < g - EYE_REFERENCE_SECONDS) lo++;
    while (hi < valid.length && (times[valid[hi] as number] as number) <= g + EYE_REFERENCE_SECONDS) hi++;
    grid.push(hi - lo >= EYE_REFERENCE_MIN_READINGS ? median(valid.slice(lo, hi).map((i) => ear[i] as number)) : null);
  }
  return times.map((t, i) => {
    const r = ear[i];
    if (!Number.isFinite(t) || r === null || r === undefined || !Number.isFinite(r)) return null;
    const k = Math.min(grid.length - 1, Math.max(0, t - first));
    const a = grid[Math.floor(k)] ?? null;
    const b = grid[Math.ceil(k)] ?? null;
    const reference = a !== null && b !== null ? a + (b - a) * (k - Math.floor(k)) : (a ?? b);
    return reference !== null && reference > 0 ? 1 - r / reference : null;
  });
}

/**
 * Blinks per minute: blinks / (observed seconds / 60), where observed seconds = Σ of the intervals between
 * consecutive frames with a closure value that are at most 0.5 s apart. Null with under 10 s observed, too short
 * for a rate (people blink ~15–20 times a minute).
 */
export function blinksPerMinute(times: number[], closure: (number | null)[], closures: EyeClosure[]): number | null {
  const t = times.filter((x, i) => Number.isFinite(x) && Number.isFinite(closure[i])).sort((a, b) => a - b);
  let observed = 0;
  for (let k = 1; k < t.length; k++) {
    const d = (t[k] as number) - (t[k - 1] as number);
    if (d <= MAX_FRAME_GAP_SECONDS) observed += d;
  }
  if (observed < 10) return null;
  return (closures.filter((c) => c.blink).length * 60) / observed;
}

/**
 * Per frame: 'head_turned' when |yaw| > 30° or |pitch| > 25° (`HEAD_TURN_LIMIT`, the limits of the quality flag),
 * 'eyes_closed' when the frame lies inside an eye closure (start ≤ t < end) lasting over 1 s, else null. A frame
 * without a pose (no face) is not judged here: attention already counts it as inattentive.
 */
export function distraction(
  times: number[],
  poses: (HeadPose | null)[],
  closures: EyeClosure[],
): (Distraction | null)[] {
  if (times.length !== poses.length)
    throw new RangeError(`distraction: ${times.length} times but ${poses.length} poses`);
  const long = closures.filter((c) => c.end - c.start > EYES_CLOSED_DISTRACTION_SECONDS);
  return times.map((t, i) => {
    const p = poses[i];
    if (p && (Math.abs(p.yaw) > HEAD_TURN_LIMIT.yaw || Math.abs(p.pitch) > HEAD_TURN_LIMIT.pitch)) return 'head_turned';
    if (long.some((c) => t >= c.start && t < c.end)) return 'eyes_closed';
    return null;
  });
}

/** One second of motion. */
export interface MotionSecond {
  /** floor(time): the second [second, second + 1) on the series' clock. */
  second: number;
  frames: number;
  /** `headSpeed` of the steps ending in this second; null without any. */
  headDegreesPerSecond: number | null;
  /** Blinks starting in this second. */
  blinks: number;
  /** Frames of the second that are distracted / frames of the second. */
  distractedShare: number;
  /** distractedShare ≥ 0.5. */
  distracted: boolean;
}

export interface MotionInput {
  times: number[];
  /** Per frame: the main face's pose, null without a face. */
  poses: (HeadPose | null)[];
  /** Per frame: eye closure (0 open as at rest, 1 shut), unsmoothed; null without a face. Re-read against the open eye around each moment (`motionSeries`). */
  eyeClosure: (number | null)[];
}

export interface MotionResult {
  seconds: MotionSecond[];
  closures: EyeClosure[];
  /** Per frame, parallel to the input. */
  steps: (HeadStep | null)[];
  distraction: (Distraction | null)[];
  blinksPerMinute: number | null;
}

/**
 * Everything above at once, per second of the series' clock (floor(time); seconds without frames are left out). The
 * eye closure is first read against the open eye around each moment: `eyeClosureSeries` of 1 − closure, which is
 * EAR / the fixed reference it was computed with (a baseline, or the typical open eye), so that reference cancels
 * out and the closure thresholds mean the same on every path (decision 036).
 */
export function motionSeries(input: MotionInput): MotionResult {
  const { times, poses } = input;
  if (times.length !== input.eyeClosure.length) {
    throw new RangeError(`motionSeries: ${times.length} times but ${input.eyeClosure.length} eye closures`);
  }
  const eyeClosure = eyeClosureSeries(
    times,
    input.eyeClosure.map((c) => (c === null || !Number.isFinite(c) ? null : 1 - c)),
  );
  const steps = headSteps(times, poses);
  const closures = eyeClosures(times, eyeClosure);
  const flags = distraction(times, poses, closures);
  const buckets = new Map<number, number[]>();
  times.forEach((t, i) => {
    if (!Number.isFinite(t)) return;
    const s = Math.floor(t);
    const list = buckets.get(s);
    if (list) list.push(i);
    else buckets.set(s, [i]);
  });
  const seconds = [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([second, idx]): MotionSecond => {
      const distracted = idx.filter((i) => flags[i] !== null).length / idx.length;
      return {
        second,
        frames: idx.length,
        headDegreesPerSecond: headSpeed(idx.map((i) => steps[i] ?? null)),
        blinks: closures.filter((c) => c.blink && Math.floor(c.start) === second).length,
        distractedShare: distracted,
        distracted: distracted >= 0.5,
      };
    });
  return {
    seconds,
    closures,
    steps,
    distraction: flags,
    blinksPerMinute: blinksPerMinute(times, eyeClosure, closures),
  };
}
