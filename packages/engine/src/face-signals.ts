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
  NEUTRAL_MOUTH_WIDTH,
  SMILE_GEOMETRY_MAX_TURN_DEGREES,
  SMILE_THRESHOLD,
  smileIndex,
  smoothActionUnits,
} from './action-units.ts';
import { median } from './median.ts';
import { DEFAULT_SMOOTHING_SIGMA_SECONDS, smoothSeries } from './metrics.ts';
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
   * The smile's geometry (`frameSmile`): the lip-corner pull's change from the baseline's (raw minus
   * NEUTRAL_LIP_CORNER_PULL without a baseline) and the mouth's width's (raw minus NEUTRAL_MOUTH_WIDTH), each smoothed
   * over the frames where the head is within `SMILE_GEOMETRY_MAX_TURN_DEGREES` of its resting pose. Null where the
   * head is turned further, or the frame has no action units; a width is also null where its baseline has none (made
   * before it).
   */
  smilePullChanges: (number | null)[];
  mouthWidthChanges: (number | null)[];
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
  // The smile's geometry, read near the resting pose only; a frame without a value stays without one, as the action
  // units' null frames do.
  const near = nearRestingPose(poses, units, baseline);
  const restingWidth = baseline ? baseline.mouthWidth : NEUTRAL_MOUTH_WIDTH;
  const smileGeometry = (change: (i: number) => number | null) => {
    const raw = units.map((v, i) => (v && near[i] ? change(i) : null));
    const smoothed = smoothSeries(times, raw, sigma);
    return raw.map((x, i) => (x === null ? null : (smoothed[i] ?? x)));
  };
  return {
    units: smoothActionUnits(
      times,
      units.map((v) => v?.units ?? null),
      sigma,
    ),
    smilePullChanges: smileGeometry((i) => {
      const v = units[i] as FrameActionUnits;
      return changes[i]?.lipCornerPull ?? v.units.lipCornerPull - NEUTRAL_LIP_CORNER_PULL;
    }),
    mouthWidthChanges: smileGeometry((i) => {
      const width = units[i]?.mouthWidth;
      return width !== undefined && restingWidth !== undefined ? width - restingWidth : null;
    }),
    changes: baseline ? smoothActionUnits(times, changes, sigma) : changes,
    steps: motion.steps,
    blinkStarts: times.map((t) => blinkAt.has(t)),
    distraction: motion.distraction,
    blinksPerMinute: motion.blinksPerMinute,
    restingHappy: baseline?.happy ?? 0,
    fast,
  };
}

/**
 * The smile index of frame `k` of `signals` (`smileIndex`): its smoothed expressions `scores`, its smoothed lip-corner
 * pull and mouth width as changes from the resting face (raw minus NEUTRAL_LIP_CORNER_PULL and NEUTRAL_MOUTH_WIDTH
 * without one; none where the head is turned from rest, `smilePullChanges`) and the resting "happy".
 * Null without action units or expressions. The frame table's `smile` column and the series' `smile` are both this.
 */
export function frameSmile(signals: FaceSignals, k: number, scores: ExpressionScores | null): number | null {
  if (!signals.units[k] || !scores) return null;
  return smileIndex(
    scores,
    signals.smilePullChanges[k] ?? null,
    signals.restingHappy,
    signals.mouthWidthChanges[k] ?? null,
  );
}

/**
 * Per frame: the head's yaw and pitch each within `SMILE_GEOMETRY_MAX_TURN_DEGREES` of the resting pose (the
 * baseline's; without one, the median over the frames with action units). A frame without a pose is not near.
 */
function nearRestingPose(
  poses: readonly (HeadPose | null)[],
  units: readonly (FrameActionUnits | null)[],
  baseline: ActionUnitBaseline | null,
): boolean[] {
  const seen = poses.filter((p, i): p is HeadPose => p !== null && units[i] !== null);
  const rest = baseline?.pose ?? {
    yaw: median(seen.map((p) => p.yaw)),
    pitch: median(seen.map((p) => p.pitch)),
  };
  const limit = SMILE_GEOMETRY_MAX_TURN_DEGREES;
  return poses.map((p) => p !== null && Math.abs(p.yaw - rest.yaw) <= limit && Math.abs(p.pitch - rest.pitch) <= limit);
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
 * A smile also ends where it has fallen back below this share of its height (from its rest, the last low before its
 * rise, to its highest reading so far): the half-maximum of the full width at half maximum. Two smiles 0.6 s apart
 * at rest stay apart in the smoothed index, which between them need not come down to `SMILE_REST_LEVEL` (decision
 * 048).
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
 * A smile's rise (`smileEpisodes`) starts where it is at least this share as steep as at its steepest: back from the
 * detection, the first step flatter than that is its foot. A resting index that crept up slowly before the smile (the
 * resting face's noise, smoothed) is not yet the smile, and the onset is timed from where the rise took off (decision
 * 086).
 */
export const SMILE_FOOT_SLOPE_SHARE = 0.1;
/**
 * How far before a smile's detection its rest is looked for, and how far after it its peak: a smile's rise
 * (onset to apex) lasts about half a second (0.3–1 s; Schmidt et al. 2006), so 2 s hold it with room to spare.
 */
export const SMILE_RISE_SECONDS = 2;

/** One detected smile (`smileEpisodes`), seconds on the series' clock. */
export interface SmileEpisode {
  /**
   * The onset: where the rise leading to the detection passes `SMILE_ONSET_SHARE` of its height, interpolated between
   * the two frames around it. The height is from its foot to its peak (the highest reading in the `SMILE_RISE_SECONDS`
   * after the detection). The foot: back from the detection, the first frame where the rise is flatter than
   * `SMILE_FOOT_SLOPE_SHARE` of its steepest, and no further back than its rest (the last low before it: back from the
   * detection while the index keeps falling, at most `SMILE_RISE_SECONDS`).
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
 * end. Missing values (null, NaN) break a stretch and do not end a smile.
 */
export function smileEpisodes(times: readonly number[], smile: readonly (number | null)[]): SmileEpisode[] {
  const episodes: SmileEpisode[] = [];
  const value = (i: number) => {
    const v = smile[i];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  };
  let open: { episode: SmileEpisode; rest: number; peak: number } | null = null;
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
      if (v <= Math.max(SMILE_REST_LEVEL, open.rest + SMILE_END_SHARE * (open.peak - open.rest))) {
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
    const rise = riseOnset(times, value, stretch, i);
    open = { episode: { start: rise.start, detected: times[i] as number, end: null }, rest: rise.rest, peak: v };
    episodes.push(open.episode);
  }
  return episodes;
}

/**
 * The onset of the rise detected at frame `d`, its rest looked for from frame `from` (`SmileEpisode.start`), and the
 * rest level the smile's end is measured from.
 */
function riseOnset(
  times: readonly number[],
  value: (i: number) => number | null,
  from: number,
  d: number,
): { start: number; rest: number } {
  const at = (i: number) => times[i] as number;
  const v = (i: number) => value(i) as number;
  const detected = at(d);
  // The rest: back from the detection while the index does not rise, to the last low before the rise. A level it rose
  // to and held before the smile (a change of light) is where this rise starts, not the rest below it (decision 062).
  let rest = d;
  for (let i = d - 1; i >= from && detected - at(i) <= SMILE_RISE_SECONDS; i--) {
    if (v(i) > v(rest)) break;
    rest = i;
  }
  let top = d;
  for (let i = d + 1; i < times.length && at(i) - detected <= SMILE_RISE_SECONDS; i++) {
    const x = value(i);
    if (x !== null && x > v(top)) top = i;
  }
  const peak = v(top);
  if (rest === d) return { start: detected, rest: v(d) };
  // The rise's steepest step, from its rest to its peak (per second: a step across a missing frame counts whole).
  let steepest = 0;
  for (let i = rest + 1, last = rest; i <= top; i++) {
    if (value(i) === null) continue;
    steepest = Math.max(steepest, (v(i) - v(last)) / (at(i) - at(last)));
    last = i;
  }
  // The foot: back from the detection while the rise is at least `SMILE_FOOT_SLOPE_SHARE` as steep as at its
  // steepest; an index that crept up slowly before (the resting face's noise) is not yet the smile (decision 086).
  let foot = d;
  while (foot > rest && (v(foot) - v(foot - 1)) / (at(foot) - at(foot - 1)) >= SMILE_FOOT_SLOPE_SHARE * steepest)
    foot--;
  const base = v(foot);
  const level = base + SMILE_ONSET_SHARE * (peak - base);
  // The last frame at or below the level before the detection (the foot is), the onset between it and the next.
  let k = d - 1;
  while (v(k) > level) k--;
  const a = v(k);
  const b = v(k + 1);
  return {
    start: at(k) + (b > a ? Math.min(1, Math.max(0, (level - a) / (b - a))) : 0) * (at(k + 1) - at(k)),
    rest: v(rest),
  };
}
