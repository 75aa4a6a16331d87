import { FIXATION_DEFAULTS, type FixationSettings } from '@emolens/contracts';
import type { GazeTrack } from '../../processing/digest.ts';

/**
 * Fixations and areas of interest (issue 13, item 3; design section 8), pure functions over one respondent's gaze
 * in content coordinates (pixels of the picture, shelf image, screenshot or video frame).
 *
 * The fixation filter is a velocity-threshold one (I-VT, after Olsen 2012, "The Tobii I-VT fixation filter"),
 * with the units a webcam allows: no eye-to-screen distance is known, so velocity is in content diagonals per
 * second rather than degrees.
 *  1. Between consecutive valid samples no further apart than `maxSampleGapMs`, the velocity is the distance
 *     over the time, in diagonals per second; a sample is a fixation sample when the velocity that reaches it
 *     is at most `velocity` (the first sample of a run takes the class of the second).
 *  2. Consecutive fixation samples form a fixation at their centroid, from the first sample's time to the last's.
 *  3. Fixations less than `mergeGapMs` apart whose centroids are within `mergeDistance` diagonals are merged
 *     (a saccade too short to be real, or a blink).
 *  4. Fixations shorter than `minDurationMs` are dropped.
 * The thresholds and their bounds are the contracts' `FIXATION_DEFAULTS` / `fixationSettingsSchema`.
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
  samples: number;
}

/** Samples further apart than this never join one fixation (a lost face, a dropped stretch of video). */
const MAX_SAMPLE_GAP_S = 0.25;

/** The filter over samples that may lack gaze (left out). */
export function fixations(
  samples: readonly GazeSample[],
  size: { width: number; height: number },
  settings: FixationSettings = FIXATION_DEFAULTS,
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
  );
}

/** The filter over a track of valid samples (steps 1–4 above), without an object per sample. */
export function fixationsOf(
  track: GazeTrack,
  size: { width: number; height: number },
  settings: FixationSettings = FIXATION_DEFAULTS,
): Fixation[] {
  const { t, x, y } = track;
  const diagonal = Math.hypot(size.width, size.height);
  const centroid = (from: number, to: number): Fixation => {
    let sx = 0;
    let sy = 0;
    for (let i = from; i <= to; i++) {
      sx += x[i] as number;
      sy += y[i] as number;
    }
    const n = to - from + 1;
    return { start: t[from] as number, end: t[to] as number, x: sx / n, y: sy / n, samples: n };
  };
  // 1–2: runs of slow samples, as index ranges; a run's first sample waits (`pending`) for the class of the next.
  const found: Fixation[] = [];
  let runStart = -1;
  let runEnd = -1;
  let pending = -1;
  const close = () => {
    if (runStart >= 0) found.push(centroid(runStart, runEnd));
    runStart = -1;
  };
  for (let i = 0; i < track.length; i++) {
    const dt = i > 0 ? (t[i] as number) - (t[i - 1] as number) : Number.POSITIVE_INFINITY;
    if (i === 0 || dt <= 0 || dt > MAX_SAMPLE_GAP_S) {
      close();
      pending = i;
      continue;
    }
    const dx = (x[i] as number) - (x[i - 1] as number);
    const dy = (y[i] as number) - (y[i - 1] as number);
    const velocity = Math.sqrt(dx * dx + dy * dy) / diagonal / dt;
    if (velocity <= settings.velocity) {
      if (pending >= 0) runStart = pending;
      pending = -1;
      runEnd = i;
    } else {
      close();
      pending = i;
    }
  }
  close();
  // 3: merge neighbours.
  const merged: Fixation[] = [];
  for (const f of found) {
    const last = merged.at(-1);
    if (
      last &&
      (f.start - last.end) * 1000 <= settings.mergeGapMs &&
      Math.hypot(f.x - last.x, f.y - last.y) / diagonal <= settings.mergeDistance
    ) {
      const samplesTotal = last.samples + f.samples;
      merged[merged.length - 1] = {
        start: last.start,
        end: f.end,
        x: (last.x * last.samples + f.x * f.samples) / samplesTotal,
        y: (last.y * last.samples + f.y * f.samples) / samplesTotal,
        samples: samplesTotal,
      };
    } else merged.push(f);
  }
  // 4: long enough.
  return merged.filter((f) => (f.end - f.start) * 1000 >= settings.minDurationMs - 1e-6);
}
