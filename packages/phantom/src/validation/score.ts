/**
 * The validation's arithmetic: what the engine measured against what the phantom put in. Pure functions over plain
 * numbers, so each figure of docs/validation.md can be checked on its own.
 */
import type { ScreenGeometry } from './session-plan.ts';

/** The q-quantile (0…1) by linear interpolation; NaN for no values. */
export function quantile(values: readonly number[], q: number): number {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return Number.NaN;
  const pos = (v.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (v[lo] as number) + ((v[hi] as number) - (v[lo] as number)) * (pos - lo);
}

export const median = (values: readonly number[]) => quantile(values, 0.5);

/** Screen CSS px → degrees of visual angle at the screen's distance (centred, small-angle exact via atan). */
export function pxToDegrees(px: number, screen: ScreenGeometry): number {
  const cm = px * (screen.widthCm / screen.width);
  return (Math.atan(cm / screen.distanceCm) * 180) / Math.PI;
}

export const screenDiagonalPx = (screen: ScreenGeometry) => Math.hypot(screen.width, screen.height);

/** One analysed frame's gaze against the planned one; `x`/`y` NaN when the engine gave none. */
export interface GazeSample {
  t: number;
  x: number;
  y: number;
  trueX: number;
  trueY: number;
  /** The truth is a still target here (a fixation), so sample-to-sample change is noise. */
  fixation: boolean;
}

export interface GazeAccuracy {
  samples: number;
  lostShare: number;
  medianPx: number;
  p95Px: number;
  medianPercent: number;
  p95Percent: number;
  medianDegrees: number;
  p95Degrees: number;
  /** RMS of sample-to-sample distances within fixations. */
  precisionPx: number;
  precisionDegrees: number;
}

export function gazeAccuracy(samples: readonly GazeSample[], screen: ScreenGeometry): GazeAccuracy {
  const seen = samples.filter((s) => Number.isFinite(s.x) && Number.isFinite(s.y));
  const errors = seen.map((s) => Math.hypot(s.x - s.trueX, s.y - s.trueY));
  const diagonal = screenDiagonalPx(screen);
  const steps: number[] = [];
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1] as GazeSample;
    const b = samples[i] as GazeSample;
    const still = a.fixation && b.fixation && a.trueX === b.trueX && a.trueY === b.trueY;
    if (still && Number.isFinite(a.x) && Number.isFinite(b.x)) steps.push(Math.hypot(b.x - a.x, b.y - a.y) ** 2);
  }
  const precisionPx = steps.length ? Math.sqrt(steps.reduce((s, v) => s + v, 0) / steps.length) : Number.NaN;
  const medianPx = median(errors);
  const p95Px = quantile(errors, 0.95);
  return {
    samples: samples.length,
    lostShare: samples.length ? 1 - seen.length / samples.length : Number.NaN,
    medianPx,
    p95Px,
    medianPercent: (medianPx / diagonal) * 100,
    p95Percent: (p95Px / diagonal) * 100,
    medianDegrees: pxToDegrees(medianPx, screen),
    p95Degrees: pxToDegrees(p95Px, screen),
    precisionPx,
    precisionDegrees: pxToDegrees(precisionPx, screen),
  };
}

/** Which of nine screen regions (3 × 3) a point is in: "top left" … "bottom right". */
export function screenRegion(x: number, y: number, screen: ScreenGeometry): string {
  const col = ['left', 'centre', 'right'][Math.min(2, Math.max(0, Math.floor((x / screen.width) * 3)))];
  const row = ['top', 'middle', 'bottom'][Math.min(2, Math.max(0, Math.floor((y / screen.height) * 3)))];
  return `${row} ${col}`;
}

/** An injected expression: its intensity rises from `onset` to `apex`, holds, and is gone at `offset` (ms). */
export interface InjectedEvent {
  onset: number;
  apex: number;
  offset: number;
  intensity: number;
}

/** A measured series over time (ms), NaN where there was no reading. */
export interface Series {
  t: number[];
  v: number[];
}

export interface Detection {
  injected: number;
  hits: number;
  /** Measured first crossing minus the injected onset, ms, per hit. */
  onsetErrorsMs: number[];
  /** Crossings that start in a stretch with nothing injected (at least `neutralMs` clear of any event). */
  falseAlarms: number;
  /** Seconds of neutral stretches checked for false alarms. */
  neutralSeconds: number;
}

/**
 * Detection of injected events by a threshold on a measured series: a hit when the series reaches `threshold`
 * between half a guard before the event's onset and `lateMs` after its offset; its onset error is the first such
 * reading's time minus the onset (where the injected change starts). False alarms: upward crossings at least
 * `guardMs` away from every injected event.
 */
export function detect(
  events: readonly InjectedEvent[],
  series: Series,
  threshold: number,
  { lateMs = 500, guardMs = 1000 } = {},
): Detection {
  const crossings: number[] = [];
  let above = false;
  for (let i = 0; i < series.t.length; i++) {
    const v = series.v[i] as number;
    if (!Number.isFinite(v)) continue;
    if (!above && v >= threshold) crossings.push(series.t[i] as number);
    above = v >= threshold;
  }
  let hits = 0;
  const onsetErrorsMs: number[] = [];
  for (const e of events) {
    // The first reading at or above the threshold from shortly before the onset to shortly after the offset.
    const i = series.t.findIndex(
      (t, k) => t >= e.onset - guardMs / 2 && t <= e.offset + lateMs && (series.v[k] as number) >= threshold,
    );
    if (i >= 0) {
      hits++;
      onsetErrorsMs.push((series.t[i] as number) - e.onset);
    }
  }
  const nearEvent = (t: number) => events.some((e) => t >= e.onset - guardMs && t <= e.offset + guardMs);
  const falseAlarms = crossings.filter((t) => !nearEvent(t)).length;
  let neutral = 0;
  for (let i = 1; i < series.t.length; i++) {
    const t = series.t[i] as number;
    if (!nearEvent(t)) neutral += t - (series.t[i - 1] as number);
  }
  return {
    injected: events.length,
    hits,
    onsetErrorsMs,
    falseAlarms,
    neutralSeconds: neutral / 1000,
  };
}

/** A detected episode of a measured expression: its start, the moment it was detected, its end (ms). */
export interface MeasuredEpisode {
  start: number;
  detected: number;
  end: number | null;
}

/**
 * Detection of injected events by episodes the engine reports (a smile: `smileEpisodes`): a hit when an episode is
 * detected between half a guard before the event's onset and `lateMs` after its offset; its onset error is the
 * episode's start minus the injected onset. False alarms: episodes detected at least `guardMs` away from every
 * injected event. Neutral seconds: the spans between `times` (ms) away from every event.
 */
export function detectEpisodes(
  events: readonly InjectedEvent[],
  episodes: readonly MeasuredEpisode[],
  times: readonly number[],
  { lateMs = 500, guardMs = 1000 } = {},
): Detection {
  let hits = 0;
  const onsetErrorsMs: number[] = [];
  for (const e of events) {
    const found = episodes.find((p) => p.detected >= e.onset - guardMs / 2 && p.detected <= e.offset + lateMs);
    if (found) {
      hits++;
      onsetErrorsMs.push(found.start - e.onset);
    }
  }
  const nearEvent = (t: number) => events.some((e) => t >= e.onset - guardMs && t <= e.offset + guardMs);
  let neutral = 0;
  for (let i = 1; i < times.length; i++) {
    const t = times[i] as number;
    if (!nearEvent(t)) neutral += t - (times[i - 1] as number);
  }
  return {
    injected: events.length,
    hits,
    onsetErrorsMs,
    falseAlarms: episodes.filter((p) => !nearEvent(p.detected)).length,
    neutralSeconds: neutral / 1000,
  };
}

/** Pearson's r of paired finite values; NaN under three pairs or without variance. */
export function pearson(xs: readonly number[], ys: readonly number[]): number {
  const pairs: [number, number][] = [];
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    const x = xs[i] as number;
    const y = ys[i] as number;
    if (Number.isFinite(x) && Number.isFinite(y)) pairs.push([x, y]);
  }
  if (pairs.length < 3) return Number.NaN;
  const mx = pairs.reduce((s, p) => s + p[0], 0) / pairs.length;
  const my = pairs.reduce((s, p) => s + p[1], 0) / pairs.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [x, y] of pairs) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : Number.NaN;
}

/** Each measured event matched to at most one injected one within `toleranceMs`: recall and precision. */
export function matchEvents(
  injected: readonly number[],
  measured: readonly number[],
  toleranceMs: number,
): { injected: number; measured: number; matched: number; recall: number; precision: number } {
  const used = new Set<number>();
  let matched = 0;
  for (const t of injected) {
    let best = -1;
    let bestGap = Number.POSITIVE_INFINITY;
    measured.forEach((m, i) => {
      const gap = Math.abs(m - t);
      if (!used.has(i) && gap <= toleranceMs && gap < bestGap) {
        best = i;
        bestGap = gap;
      }
    });
    if (best >= 0) {
      used.add(best);
      matched++;
    }
  }
  return {
    injected: injected.length,
    measured: measured.length,
    matched,
    recall: injected.length ? matched / injected.length : Number.NaN,
    precision: measured.length ? matched / measured.length : Number.NaN,
  };
}

/** Absolute errors' median and 95th percentile. */
export function errorStats(
  measured: readonly number[],
  truth: readonly number[],
): { n: number; median: number; p95: number } {
  const errors: number[] = [];
  for (let i = 0; i < Math.min(measured.length, truth.length); i++) {
    const m = measured[i] as number;
    const t = truth[i] as number;
    if (Number.isFinite(m) && Number.isFinite(t)) errors.push(Math.abs(m - t));
  }
  return { n: errors.length, median: median(errors), p95: quantile(errors, 0.95) };
}
