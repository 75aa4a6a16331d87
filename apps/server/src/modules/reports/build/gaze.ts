import { degreesPerContentPixel, FIXATION_DEFAULTS, type FixationSettings, VIEWING } from '@emolens/contracts';
import type { GazeTrack } from '../../processing/digest.ts';

/**
 * Fixations (issue 13, item 3; issue 31, item 6; design section 8; decision 042), a pure function over one
 * respondent's gaze in content coordinates (pixels of the picture, shelf image, screenshot or video frame).
 *
 * The filter is the Tobii I-VT filter as Olsen (2012, "The Tobii I-VT Fixation Filter") describes it, step by step;
 * angles are degrees of visual angle (`degreesPerContentPixel`: the content letterboxed into the screen, the eyes at
 * `distanceCm`).
 *  1. Gap fill-in: where samples are missing (the time between two samples exceeds the track's usual interval), a
 *     stretch of at most `gapFillMs` without gaze is filled by linear interpolation; a longer one (a blink, a lost
 *     face) ends the stretch of data, and no fixation spans it.
 *  2. Noise reduction: a moving median (or average) of `noiseWindow` samples centred on each sample, per axis,
 *     narrowed symmetrically at a stretch's ends; 'none' leaves the positions as they are.
 *  3. Velocity calculator: a sample's velocity is the angle between the first and last samples of a window of
 *     `velocityWindowMs` centred on it (at least one sample each side; one-sided at a stretch's end) over their
 *     time apart. The sample landing after a saccade therefore has the saccade in its window: it is no fixation
 *     sample (nor is the last one before it).
 *  4. I-VT classifier: a sample is a fixation sample when its velocity is at most `velocityThreshold` (°/s);
 *     consecutive fixation samples form a fixation from the first's time to the last's, at the centroid of its
 *     measured samples (after noise reduction; interpolated ones left out).
 *  5. Merge adjacent fixations: one that starts at most `mergeGapMs` after the previous ends, its centroid within
 *     `mergeAngle` degrees of the previous one's, joins it.
 *  6. Discard short fixations: those lasting less than `minDurationMs`.
 * The defaults and bounds are the contracts' `FIXATION_DEFAULTS` / `FIXATION_LIMITS` (for 30 Hz webcam gaze).
 */

export interface GazeSample {
  /** Seconds from the stimulus onset. */
  t: number;
  x: number | null;
  y: number | null;
}

export interface Fixation {
  start: number;
  end: number;
  x: number;
  y: number;
  /** Measured samples in it (interpolated ones not counted). */
  samples: number;
}

type Size = { width: number; height: number };

/** The filter over samples that may lack gaze (left out). */
export function fixations(
  samples: readonly GazeSample[],
  size: Size,
  settings: FixationSettings = FIXATION_DEFAULTS,
  distanceCm: number = VIEWING.distanceCm,
): Fixation[] {
  const valid = samples.filter(
    (s): s is { t: number; x: number; y: number } =>
      Number.isFinite(s.t) &&
      typeof s.x === 'number' &&
      Number.isFinite(s.x) &&
      typeof s.y === 'number' &&
      Number.isFinite(s.y),
  );
  return fixationsOf(
    { length: valid.length, t: valid.map((s) => s.t), x: valid.map((s) => s.x), y: valid.map((s) => s.y) },
    size,
    settings,
    distanceCm,
  );
}

/** The track's usual time between samples (s): the median of its steps. */
function usualInterval(t: ArrayLike<number>, n: number): number {
  const steps: number[] = [];
  for (let i = 1; i < n; i++) {
    const dt = (t[i] as number) - (t[i - 1] as number);
    if (dt > 0) steps.push(dt);
  }
  steps.sort((a, b) => a - b);
  return steps.length ? (steps[steps.length >> 1] as number) : Number.NaN;
}

/** Step 1: the samples in time order with short gaps filled; `breaks` holds the index where each stretch starts. */
function filledIn(track: GazeTrack, interval: number, gapFillMs: number) {
  const { t, x, y } = track;
  const T: number[] = [];
  const X: number[] = [];
  const Y: number[] = [];
  const measured: boolean[] = [];
  const breaks: number[] = [];
  for (let i = 0; i < track.length; i++) {
    const ti = t[i] as number;
    const xi = x[i] as number;
    const yi = y[i] as number;
    const last = T.length - 1;
    if (last < 0) breaks.push(0);
    else {
      const dt = ti - (T[last] as number);
      if (!(dt > 0)) continue; // a repeated or out-of-order time: not a new sample
      const missing = Math.round(dt / interval) - 1;
      if (missing >= 1) {
        if ((dt - interval) * 1000 <= gapFillMs + 1e-6) {
          const x0 = X[last] as number;
          const y0 = Y[last] as number;
          const t0 = T[last] as number;
          for (let k = 1; k <= missing; k++) {
            const f = k / (missing + 1);
            T.push(t0 + f * dt);
            X.push(x0 + f * (xi - x0));
            Y.push(y0 + f * (yi - y0));
            measured.push(false);
          }
        } else breaks.push(T.length);
      }
    }
    T.push(ti);
    X.push(xi);
    Y.push(yi);
    measured.push(true);
  }
  return { T, X, Y, measured, breaks };
}

/** Step 2 over one stretch [from, to): a centred moving median or average, narrowed at the ends. */
function smoothed(values: readonly number[], from: number, to: number, settings: FixationSettings): number[] {
  const out = values.slice(from, to);
  if (settings.noise === 'none') return out;
  const half = Math.floor(settings.noiseWindow / 2);
  const window: number[] = [];
  for (let i = from; i < to; i++) {
    const h = Math.min(half, i - from, to - 1 - i);
    if (h === 0) continue;
    window.length = 0;
    for (let k = i - h; k <= i + h; k++) window.push(values[k] as number);
    if (settings.noise === 'median') {
      window.sort((a, b) => a - b);
      out[i - from] = window[h] as number;
    } else out[i - from] = window.reduce((s, v) => s + v, 0) / window.length;
  }
  return out;
}

/** The filter over a track of valid samples in time order (steps 1–6 above), without an object per sample. */
export function fixationsOf(
  track: GazeTrack,
  size: Size,
  settings: FixationSettings = FIXATION_DEFAULTS,
  distanceCm: number = VIEWING.distanceCm,
): Fixation[] {
  const interval = usualInterval(track.t, track.length);
  if (!(interval > 0)) return [];
  const perPixel = degreesPerContentPixel(size, distanceCm);
  const { T, X, Y, measured, breaks } = filledIn(track, interval, settings.gapFillMs);
  const reach = Math.max(1, Math.round(settings.velocityWindowMs / 2 / 1000 / interval));

  const found: Fixation[] = [];
  for (let b = 0; b < breaks.length; b++) {
    const from = breaks[b] as number;
    const to = (breaks[b + 1] ?? T.length) as number;
    if (to - from < 2) continue;
    const sx = smoothed(X, from, to, settings);
    const sy = smoothed(Y, from, to, settings);
    /** A fixation over samples [first, last]: the centroid of its measured samples (all, if none is). */
    const fixationOf = (first: number, last: number): Fixation => {
      let n = 0;
      for (let k = first; k <= last; k++) if (measured[k]) n++;
      let cx = 0;
      let cy = 0;
      for (let k = first; k <= last; k++) {
        if (n > 0 && !measured[k]) continue;
        cx += sx[k - from] as number;
        cy += sy[k - from] as number;
      }
      const count = n > 0 ? n : last - first + 1;
      return { start: T[first] as number, end: T[last] as number, x: cx / count, y: cy / count, samples: n };
    };
    // Steps 3–4: classify each sample by the velocity over its centred window; runs of slow ones are fixations.
    let runStart = -1;
    for (let i = from; i <= to; i++) {
      let slow = false;
      if (i < to) {
        const a = Math.max(from, i - reach);
        const z = Math.min(to - 1, i + reach);
        const dx = (sx[z - from] as number) - (sx[a - from] as number);
        const dy = (sy[z - from] as number) - (sy[a - from] as number);
        const velocity = (Math.hypot(dx, dy) * perPixel) / ((T[z] as number) - (T[a] as number));
        slow = velocity <= settings.velocityThreshold;
      }
      if (slow && runStart < 0) runStart = i;
      else if (!slow && runStart >= 0) {
        found.push(fixationOf(runStart, i - 1));
        runStart = -1;
      }
    }
  }

  // Step 5: merge adjacent fixations close in time and angle.
  const merged: Fixation[] = [];
  for (const f of found) {
    const last = merged.at(-1);
    if (
      last &&
      (f.start - last.end) * 1000 <= settings.mergeGapMs + 1e-6 &&
      Math.hypot(f.x - last.x, f.y - last.y) * perPixel <= settings.mergeAngle
    ) {
      const weightLast = Math.max(last.samples, 1);
      const weight = Math.max(f.samples, 1);
      merged[merged.length - 1] = {
        start: last.start,
        end: f.end,
        x: (last.x * weightLast + f.x * weight) / (weightLast + weight),
        y: (last.y * weightLast + f.y * weight) / (weightLast + weight),
        samples: last.samples + f.samples,
      };
    } else merged.push(f);
  }
  // Step 6: discard short ones.
  return merged.filter((f) => (f.end - f.start) * 1000 >= settings.minDurationMs - 1e-6);
}
