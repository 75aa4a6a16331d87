import { FIXATION_DEFAULTS, type FixationSettings } from '@emolens/contracts';

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

export function fixations(
  samples: readonly GazeSample[],
  size: { width: number; height: number },
  settings: FixationSettings = FIXATION_DEFAULTS,
): Fixation[] {
  const diagonal = Math.hypot(size.width, size.height);
  const valid = samples.filter(
    (s): s is { t: number; x: number; y: number } =>
      Number.isFinite(s.t) &&
      typeof s.x === 'number' &&
      Number.isFinite(s.x) &&
      typeof s.y === 'number' &&
      Number.isFinite(s.y),
  );
  // 1–2: runs of slow samples.
  const runs: { t: number; x: number; y: number }[][] = [];
  let run: { t: number; x: number; y: number }[] = [];
  let pending: { t: number; x: number; y: number } | null = null; // a run's first sample, waiting for its class
  for (let i = 0; i < valid.length; i++) {
    const here = valid[i] as { t: number; x: number; y: number };
    const before = valid[i - 1];
    const dt = before ? here.t - before.t : Number.POSITIVE_INFINITY;
    if (!before || dt <= 0 || dt > MAX_SAMPLE_GAP_S) {
      if (run.length) runs.push(run);
      run = [];
      pending = here;
      continue;
    }
    const velocity = Math.hypot(here.x - before.x, here.y - before.y) / diagonal / dt;
    if (velocity <= settings.velocity) {
      if (pending) run.push(pending);
      pending = null;
      run.push(here);
    } else {
      if (run.length) runs.push(run);
      run = [];
      pending = here;
    }
  }
  if (run.length) runs.push(run);
  const found = runs.map(centroid);
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

function centroid(run: { t: number; x: number; y: number }[]): Fixation {
  const n = run.length;
  return {
    start: run[0]?.t ?? 0,
    end: run[n - 1]?.t ?? 0,
    x: run.reduce((s, p) => s + p.x, 0) / n,
    y: run.reduce((s, p) => s + p.y, 0) / n,
    samples: n,
  };
}

/** A rectangle on the content, in its pixels. */
export interface AreaOfInterest {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface AreaMetrics {
  id: string;
  /** Respondents given, and how many had at least one fixation in the area; their share. */
  respondents: number;
  looked: number;
  lookedShare: number;
  /** Of those who looked: mean seconds from the onset to the first fixation in the area. */
  timeToFirstFixation: number | null;
  /** Mean over all respondents: seconds of fixation in the area, and its share of their fixation time. */
  dwellTime: number;
  dwellShare: number;
  /** Mean over those who looked: visits after the first (a visit is a run of consecutive fixations in it). */
  revisits: number | null;
  /** Mean over all respondents: fixations in the area. */
  fixationCount: number;
}

const inside = (a: AreaOfInterest, f: Fixation) =>
  f.x >= a.x && f.x <= a.x + a.width && f.y >= a.y && f.y <= a.y + a.height;

/** Per area, over respondents' fixations (each respondent's in time order, times from the onset). */
export function areaMetrics(
  areas: readonly AreaOfInterest[],
  respondents: readonly (readonly Fixation[])[],
): AreaMetrics[] {
  const n = respondents.length;
  return areas.map((area) => {
    let looked = 0;
    let firstSum = 0;
    let dwellSum = 0;
    let shareSum = 0;
    let revisitSum = 0;
    let countSum = 0;
    for (const fixes of respondents) {
      const total = fixes.reduce((s, f) => s + (f.end - f.start), 0);
      let dwell = 0;
      let visits = 0;
      let wasInside = false;
      let first: number | null = null;
      for (const f of fixes) {
        const isInside = inside(area, f);
        if (isInside) {
          dwell += f.end - f.start;
          countSum += 1;
          first ??= f.start;
          if (!wasInside) visits += 1;
        }
        wasInside = isInside;
      }
      dwellSum += dwell;
      shareSum += total > 0 ? dwell / total : 0;
      if (first !== null) {
        looked += 1;
        firstSum += first;
        revisitSum += visits - 1;
      }
    }
    return {
      id: area.id,
      respondents: n,
      looked,
      lookedShare: n ? looked / n : 0,
      timeToFirstFixation: looked ? firstSum / looked : null,
      dwellTime: n ? dwellSum / n : 0,
      dwellShare: n ? shareSum / n : 0,
      revisits: looked ? revisitSum / looked : null,
      fixationCount: n ? countSum / n : 0,
    };
  });
}
