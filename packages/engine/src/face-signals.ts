/**
 * The face's geometry per frame and per second, next to the expressions (issue 11, items 5 and 6): smoothed action
 * units, their change from the respondent's calibration baseline, the smile index, head motion, blinks and
 * distraction. `faceSignals` derives the per-frame values of one person's frames; `FaceSignalSums` adds frames
 * into a per-second bucket; `faceSignalColumns` turns buckets into the series' columns. The session (its content
 * buckets) and the multi-face person tracks (seconds of the recording) both build their series with these.
 */
import {
  type ActionUnitBaseline,
  actionUnitChange,
  NEUTRAL_LIP_CORNER_PULL,
  SMILE_THRESHOLD,
  smileIndex,
  smoothActionUnits,
} from './action-units.ts';
import { DEFAULT_SMOOTHING_SIGMA_SECONDS } from './metrics.ts';
import { fastHeadTurns, type HeadStep, motionSeries } from './motion.ts';
import {
  ACTION_UNITS,
  type ActionUnit,
  type ActionUnits,
  type Distraction,
  type ExpressionScores,
  type FrameActionUnits,
  type HeadPose,
} from './types.ts';

export interface FaceSignalInput {
  /** Seconds, one clock, in time order. */
  times: number[];
  /** The face's pose in every frame it was seen, bad frames included (turning away is motion); else null. */
  poses: (HeadPose | null)[];
  /** The face's action units in good frames; null in bad frames and without a mesh. */
  units: (FrameActionUnits | null)[];
  /** The respondent's resting face (calibration window, `restingFaceOf`: with its resting "happy"), or null. */
  baseline: ActionUnitBaseline | null;
  sigmaSeconds?: number;
}

/** Per frame, parallel to the input. */
export interface FaceSignals {
  /** Action units smoothed as the expressions are. */
  units: (ActionUnits | null)[];
  /** Smoothed change from the baseline (`actionUnitChange`); all null without a baseline. */
  changes: (ActionUnits | null)[];
  /**
   * The lip-corner pull against rest (`lipCornerPullAgainstRest`) of the frame's own reading, unsmoothed: the
   * geometry of `rawFrameSmile`. Null where `units` are.
   */
  rawPull: (number | null)[];
  /** The head's turn since the previous frame (`headSteps`). */
  steps: (HeadStep | null)[];
  /** A blink starts at this frame. */
  blinkStarts: boolean[];
  distraction: (Distraction | null)[];
  blinksPerMinute: number | null;
  /** The resting "happy" the smile index is measured from (0 without a calibration). */
  restingHappy: number;
  /**
   * The head turned too fast in this frame to read its face (`fastHeadTurns`): its action units are left out as a bad
   * frame's are, and its expressions should be (`smoothExpressions`' `unread`).
   */
  fast: boolean[];
}

/**
 * Per-frame signals of one person. Blinks and eyes-closed distraction read the unsmoothed eye closure: as a share
 * of the respondent's resting eye (1 − EAR / EAR at baseline) when there is a baseline, else against the typical
 * open eye (`eyeClosure`).
 */
export function faceSignals(input: FaceSignalInput): FaceSignals {
  const { times, poses, baseline } = input;
  const sigma = input.sigmaSeconds ?? DEFAULT_SMOOTHING_SIGMA_SECONDS;
  const allChanges = input.units.map((v) => (v && baseline ? actionUnitChange(v, baseline) : null));
  // Blinks read every frame's eyes, a fast turn's too (a glance away often comes with a blink).
  const eyeClosure = input.units.map((v, i) => (v ? (allChanges[i]?.eyeClosure ?? v.units.eyeClosure) : null));
  const motion = motionSeries({ times, poses, eyeClosure });
  const blinkAt = new Set(motion.closures.filter((c) => c.blink).map((c) => c.start));
  const fast = fastHeadTurns(times, poses);
  const units = input.units.map((v, i) => (fast[i] ? null : v));
  const changes = allChanges.map((v, i) => (fast[i] ? null : v));
  return {
    units: smoothActionUnits(
      times,
      units.map((v) => v?.units ?? null),
      sigma,
    ),
    changes: baseline ? smoothActionUnits(times, changes, sigma) : changes,
    rawPull: units.map((v, i) => (v ? lipCornerPullAgainstRest(v.units, changes[i] ?? null) : null)),
    steps: motion.steps,
    blinkStarts: times.map((t) => blinkAt.has(t)),
    distraction: motion.distraction,
    blinksPerMinute: motion.blinksPerMinute,
    restingHappy: baseline?.happy ?? 0,
    fast,
  };
}

/** The lip-corner pull against the resting face: its change from the baseline, or the raw pull minus NEUTRAL_LIP_CORNER_PULL without one. */
function lipCornerPullAgainstRest(units: ActionUnits, change: ActionUnits | null): number {
  return change ? change.lipCornerPull : units.lipCornerPull - NEUTRAL_LIP_CORNER_PULL;
}

/**
 * The smile index of frame `k` of `signals` (`smileIndex`): its smoothed expressions `scores`, its smoothed lip-corner
 * pull against rest (`lipCornerPullAgainstRest`) and the resting "happy". Null without action units or expressions.
 * The frame table's `smile` column and the series' `smile` are both this.
 */
export function frameSmile(signals: FaceSignals, k: number, scores: ExpressionScores | null): number | null {
  const units = signals.units[k];
  if (!units || !scores) return null;
  return smileIndex(scores, lipCornerPullAgainstRest(units, signals.changes[k] ?? null), signals.restingHappy);
}

/**
 * The smile index of frame `k` from the frame's own readings, unsmoothed: its expression `scores` as the model gave
 * them and its raw lip-corner pull (`FaceSignals.rawPull`). Noisier than `frameSmile`, but a rise in it starts where the
 * face moved, where the smoothed index's rise starts up to a smoothing width earlier: `smileEpisodes` times a smile's
 * onset on it (the frame table's `smile_raw`, decision 059).
 */
export function rawFrameSmile(signals: FaceSignals, k: number, scores: ExpressionScores | null): number | null {
  const pull = signals.rawPull[k];
  if (pull === null || pull === undefined || !scores) return null;
  return smileIndex(scores, pull, signals.restingHappy);
}

/** The face-signal columns of a per-second series: one entry per bucket. */
export interface FaceSignalColumns {
  /** Mean smoothed action units over the good frames with a mesh (IOD; eyeClosure 0 open … 1 shut). */
  actionUnits: Record<ActionUnit, (number | null)[]>;
  /** Mean change from the respondent's calibration baseline; null without a baseline. */
  actionUnitChanges: Record<ActionUnit, (number | null)[]>;
  /** Mean smile index (`smileIndex`, 0..1) over the good frames with expressions and a mesh. */
  smile: (number | null)[];
  /** Head movement, degrees per second: Σ degrees / Σ seconds of the steps ending in the bucket (`headSpeed`); null without any. */
  headMotion: (number | null)[];
  /** Blinks starting in the bucket. */
  blinks: number[];
  /** Share of the bucket's frames that are distracted (head turned away, or eyes closed for over 1 s). */
  distracted: (number | null)[];
}

const zeros = () => Object.fromEntries(ACTION_UNITS.map((u) => [u, 0])) as ActionUnits;

/** One bucket's sums. */
export class FaceSignalSums {
  frames = 0;
  private unitFrames = 0;
  private readonly units = zeros();
  private changeFrames = 0;
  private readonly changes = zeros();
  private smileFrames = 0;
  private smile = 0;
  private headDegrees = 0;
  private headSeconds = 0;
  private blinks = 0;
  private distracted = 0;

  /** Frame `k` of `signals`; `good` and `scores` (its smoothed expressions) as the bucket's expressions count it. */
  add(signals: FaceSignals, k: number, good: boolean, scores: ExpressionScores | null): void {
    this.frames++;
    const step = signals.steps[k];
    if (step) {
      this.headDegrees += step.degrees;
      this.headSeconds += step.seconds;
    }
    if (signals.blinkStarts[k]) this.blinks++;
    if (signals.distraction[k]) this.distracted++;
    const units = good ? signals.units[k] : null;
    if (!units) return;
    const change = signals.changes[k] ?? null;
    this.unitFrames++;
    for (const u of ACTION_UNITS) this.units[u] += units[u];
    if (change) {
      this.changeFrames++;
      for (const u of ACTION_UNITS) this.changes[u] += change[u];
    }
    const smile = frameSmile(signals, k, scores);
    if (smile !== null) {
      this.smileFrames++;
      this.smile += smile;
    }
  }

  /** The bucket's values, in `FaceSignalColumns` order. */
  result() {
    const per = (sum: number, n: number) => (n > 0 ? sum / n : null);
    return {
      units: ACTION_UNITS.map((u) => per(this.units[u], this.unitFrames)),
      changes: ACTION_UNITS.map((u) => per(this.changes[u], this.changeFrames)),
      smile: per(this.smile, this.smileFrames),
      headMotion: per(this.headDegrees, this.headSeconds),
      blinks: this.blinks,
      distracted: per(this.distracted, this.frames),
    };
  }
}

/** The columns of buckets in series order. */
export function faceSignalColumns(buckets: FaceSignalSums[]): FaceSignalColumns {
  const values = buckets.map((b) => b.result());
  const byUnit = (pick: (v: (typeof values)[number]) => (number | null)[]) =>
    Object.fromEntries(ACTION_UNITS.map((u, k) => [u, values.map((v) => pick(v)[k] ?? null)])) as Record<
      ActionUnit,
      (number | null)[]
    >;
  return {
    actionUnits: byUnit((v) => v.units),
    actionUnitChanges: byUnit((v) => v.changes),
    smile: values.map((v) => v.smile),
    headMotion: values.map((v) => v.headMotion),
    blinks: values.map((v) => v.blinks),
    distracted: values.map((v) => v.distracted),
  };
}

/**
 * Where the smile index counts as "at rest" (`smileEpisodes`): a tenth of a full smile's lip-corner pull (0.004 IOD)
 * with the classifier unmoved, below the threshold by more than half of it. A smile always ends here.
 */
export const SMILE_REST_LEVEL = 0.05;
/**
 * A smile also ends where it has fallen back below this share of its height (from its foot to its highest reading so
 * far): the half-maximum of the full width at half maximum. Two smiles 0.6 s apart at rest stay apart in the smoothed
 * index, which between them need not come down to `SMILE_REST_LEVEL` (decision 048).
 */
export const SMILE_END_SHARE = 0.5;
/**
 * A smile's onset (`smileEpisodes`) is where its rise passes this share of its height above the rise's foot: the
 * 10 % point of the usual 10–90 % rise-time convention. Timed against the foot rather than against zero, a resting
 * level that has drifted (the light changed, the face relaxed differently since the calibration) does not move the
 * onset back to where the drift began.
 */
export const SMILE_ONSET_SHARE = 0.1;
/**
 * How far before a smile's detection its rise's foot is looked for, and how far after it its height: a smile's rise
 * (onset to apex) lasts about half a second (0.3–1 s; Schmidt et al. 2006), so 2 s hold it with room to spare.
 */
export const SMILE_RISE_SECONDS = 2;

/** One detected smile (`smileEpisodes`), seconds on the series' clock. */
export interface SmileEpisode {
  /**
   * The onset: where the rise leading to the detection passes `SMILE_ONSET_SHARE` of its height (from its foot, the
   * lowest reading in the `SMILE_RISE_SECONDS` before the detection, to its peak, the highest in the ones after),
   * interpolated between the two frames around it.
   */
  start: number;
  /** The first frame at or above `SMILE_THRESHOLD`: where the smile is detected. */
  detected: number;
  /**
   * The first frame back at or below `SMILE_REST_LEVEL` or below `SMILE_END_SHARE` of its height; null when the
   * series ends first.
   */
  end: number | null;
}

/**
 * The smiles of a per-frame smile index (the frame table's `smile` column, `frameSmile`), by hysteresis as the blinks
 * are: a smile is detected where the index crosses `SMILE_THRESHOLD` upwards (a slight smile: a quarter of a full
 * smile's corner pull) and lasts until the index is back at rest (`SMILE_REST_LEVEL`) or below half its height
 * (`SMILE_END_SHARE`); a dip that stays above both is the same smile. Its onset is timed on its rise
 * (`SmileEpisode.start`) within the unbroken stretch of readings before the detection, after the previous smile's
 * end: on `raw`, the unsmoothed index of the same frames (the `smile_raw` column, `rawFrameSmile`), when given.
 * Missing values (null, NaN) break a stretch and do not end a smile.
 */
export function smileEpisodes(
  times: readonly number[],
  smile: readonly (number | null)[],
  raw?: readonly (number | null)[],
): SmileEpisode[] {
  const episodes: SmileEpisode[] = [];
  const value = reading(smile);
  const rawValue = raw ? reading(raw) : null;
  let open: { episode: SmileEpisode; foot: number; peak: number } | null = null;
  // The first frame of the current unbroken stretch of readings outside a smile; whether a reading below the threshold
  // came since the last smile ended (a new one is detected on a crossing, not on the last one's way down).
  let stretch = 0;
  let armed = true;
  for (let i = 0; i < times.length; i++) {
    const v = value(i);
    if (v === null) {
      if (!open) stretch = i + 1;
      continue;
    }
    if (open) {
      open.peak = Math.max(open.peak, v);
      if (v <= Math.max(SMILE_REST_LEVEL, open.foot + SMILE_END_SHARE * (open.peak - open.foot))) {
        open.episode.end = times[i] as number;
        open = null;
        stretch = i;
        armed = v < SMILE_THRESHOLD;
      }
      continue;
    }
    if (v < SMILE_THRESHOLD) {
      armed = true;
      continue;
    }
    if (!armed) continue;
    const rise = riseOnset(times, value, rawValue, stretch, i);
    open = { episode: { start: rise.start, detected: times[i] as number, end: null }, foot: rise.foot, peak: v };
    episodes.push(open.episode);
  }
  return episodes;
}

/** Frame `i`'s finite reading of `series`, else null. */
function reading(series: readonly (number | null)[]): (i: number) => number | null {
  return (i) => {
    const v = series[i];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  };
}

/**
 * The onset of the rise detected at frame `d`, its foot looked for from frame `from` (`SmileEpisode.start`): where the
 * smoothed index passes `SMILE_ONSET_SHARE` of the rise's height above its foot, or, given the unsmoothed index
 * (`raw`), where the rise's own line meets the foot (`backExtrapolatedOnset`).
 */
function riseOnset(
  times: readonly number[],
  value: (i: number) => number | null,
  raw: ((i: number) => number | null) | null,
  from: number,
  d: number,
): { start: number; foot: number } {
  const at = (i: number) => times[i] as number;
  const detected = at(d);
  let foot = d;
  for (let i = d - 1; i >= from && detected - at(i) <= SMILE_RISE_SECONDS; i--)
    if ((value(i) as number) < (value(foot) as number)) foot = i;
  let peak = d;
  for (let i = d + 1; i < times.length && at(i) - detected <= SMILE_RISE_SECONDS; i++) {
    const v = value(i);
    if (v !== null && v > (value(peak) as number)) peak = i;
  }
  const base = value(foot) as number;
  if (foot === d) return { start: detected, foot: base };
  const rise = { foot, peak, base, height: (value(peak) as number) - base };
  const level = base + SMILE_ONSET_SHARE * rise.height;
  const onRaw = raw ? backExtrapolatedOnset(times, raw, rise, d) : null;
  return { start: onRaw ?? (crossing(times, value, level, foot, d) as number), foot: base };
}

/**
 * The rise's share of its height that `backExtrapolatedOnset` fits its line to: from the `SMILE_ONSET_SHARE` crossing
 * to here, the 10–90 % band of the rise-time convention.
 */
const SMILE_RISE_TOP_SHARE = 0.9;

/**
 * A smile's onset on its unsmoothed index: the least-squares line through the raw readings of its rise — from where
 * they pass `SMILE_ONSET_SHARE` of the height (of the smoothed rise, foot to peak) up to the first at
 * `SMILE_RISE_TOP_SHARE` of it or the peak — carried back to the foot's level, not before the foot and not after the
 * first reading of the line. The smoothed index's rise starts up to a smoothing width before the face moved, and any
 * level on the rise is passed after it started; a rise's line meets its foot where it left it (the back-extrapolated
 * onset of EMG and reaction-time work; decision 059). Null with fewer than two readings or no rise in them.
 */
function backExtrapolatedOnset(
  times: readonly number[],
  raw: (i: number) => number | null,
  rise: { foot: number; peak: number; base: number; height: number },
  d: number,
): number | null {
  const start = crossing(times, raw, rise.base + SMILE_ONSET_SHARE * rise.height, rise.foot, d);
  if (start === null) return null;
  const top = rise.base + SMILE_RISE_TOP_SHARE * rise.height;
  const points: [number, number][] = [];
  for (let i = rise.foot; i <= rise.peak; i++) {
    const v = raw(i);
    if (v === null || (times[i] as number) < start) continue;
    points.push([times[i] as number, v]);
    if (v >= top) break;
  }
  if (points.length < 2) return null;
  const n = points.length;
  const mt = points.reduce((sum, [t]) => sum + t, 0) / n;
  const mv = points.reduce((sum, [, v]) => sum + v, 0) / n;
  let tv = 0;
  let tt = 0;
  for (const [t, v] of points) {
    tv += (t - mt) * (v - mv);
    tt += (t - mt) ** 2;
  }
  const slope = tv / tt;
  if (!(slope > 0)) return null;
  return Math.min(
    Math.max(mt + (rise.base - mv) / slope, times[rise.foot] as number),
    (points[0] as [number, number])[0],
  );
}

/**
 * Where `series` passes `level` upwards on the way to frame `d`: from the first reading above it at or after `d`
 * (within `SMILE_RISE_SECONDS`), back over the unbroken readings above it, not before frame `foot`; interpolated between
 * the frame at or below the level and the next. Null when no reading above the level is found.
 */
function crossing(
  times: readonly number[],
  series: (i: number) => number | null,
  level: number,
  foot: number,
  d: number,
): number | null {
  const at = (i: number) => times[i] as number;
  let j = d;
  while (j < times.length && at(j) - at(d) <= SMILE_RISE_SECONDS && !((series(j) ?? level) > level)) j++;
  if (j >= times.length || at(j) - at(d) > SMILE_RISE_SECONDS) return null;
  let k = j - 1;
  while (k >= foot && (series(k) ?? Number.NaN) > level) k--;
  const a = series(k);
  if (k < foot || a === null) return at(k + 1);
  const b = series(k + 1) as number;
  return at(k) + (b > a ? Math.min(1, Math.max(0, (level - a) / (b - a))) : 0) * (at(k + 1) - at(k));
}
