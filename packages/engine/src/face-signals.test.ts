import { describe, expect, it } from 'vitest';
import {
  actionUnitBaseline,
  FULL_SMILE_PULL,
  FULL_SMILE_WIDTH,
  NEUTRAL_LIP_CORNER_PULL,
  NEUTRAL_MOUTH_WIDTH,
  SMILE_GEOMETRY_MAX_TURN_DEGREES,
  SMILE_THRESHOLD,
} from './action-units.ts';
import {
  FaceSignalSums,
  type FaceSignals,
  faceSignalColumns,
  faceSignals,
  frameSmile,
  SMILE_END_SHARE,
  SMILE_FOOT_SLOPE_SHARE,
  SMILE_ONSET_SHARE,
  SMILE_REST_LEVEL,
  smileEpisodes,
} from './face-signals.ts';
import { attention, SummaryAccumulator, smoothSeries } from './metrics.ts';
import { gaussian, prng } from './random.ts';
import {
  ACTION_UNITS,
  type ActionUnits,
  EXPRESSIONS,
  type ExpressionScores,
  type FrameActionUnits,
  type FrameData,
  type HeadPose,
} from './types.ts';

const FPS = 10;
const REST: ActionUnits = {
  lipCornerPull: NEUTRAL_LIP_CORNER_PULL,
  lipCornerDepression: -0.3,
  browRaiseInner: 0.3,
  browRaiseOuter: 0.2,
  browLowering: 0.1,
  eyeClosure: 0,
  jawDrop: 1.1,
  lipPress: -0.2,
};
const OPEN_EAR = 0.3;

/** A face at rest, with `change` added to its units and its eyes open to `open` of the resting eye. */
function units(change: Partial<ActionUnits> = {}, open = 1): FrameActionUnits {
  const out = { ...REST };
  for (const [k, v] of Object.entries(change)) out[k as keyof ActionUnits] += v;
  out.eyeClosure = 1 - (open * OPEN_EAR) / 0.34;
  return { units: out, eyeAspectRatio: open * OPEN_EAR };
}

const still: HeadPose = { yaw: 0, pitch: 0, roll: 0 };
const times = (n: number) => Array.from({ length: n }, (_, i) => i / FPS);

/** The signals' per-second columns, one bucket per second, every frame good with `scores`. */
function perSecond(signals: FaceSignals, t: number[], scores: ExpressionScores | null = null) {
  const buckets: FaceSignalSums[] = [];
  for (const [k, time] of t.entries()) {
    const second = Math.floor(time + 1e-9);
    buckets[second] ??= new FaceSignalSums();
    buckets[second].add(signals, k, true, scores);
  }
  return faceSignalColumns(buckets);
}

describe('face signals', () => {
  it('measures action units against the resting face and smooths them like the expressions', () => {
    const t = times(40);
    const rest = Array.from({ length: 20 }, () => units());
    const baseline = actionUnitBaseline(rest);
    // Seconds 0–1 at rest, seconds 2–3 smiling by a full smile's pull.
    const values = t.map((_, i) => (i < 20 ? units() : units({ lipCornerPull: FULL_SMILE_PULL })));
    const signals = faceSignals({ times: t, poses: t.map(() => still), units: values, baseline });
    const happy = Object.fromEntries(EXPRESSIONS.map((e) => [e, e === 'happy' ? 0.6 : 0.4 / 6])) as ExpressionScores;
    const columns = perSecond(signals, t, happy);
    expect(columns.actionUnits.lipCornerPull[0]).toBeCloseTo(REST.lipCornerPull, 6);
    expect(columns.actionUnitChanges.lipCornerPull[0]).toBeCloseTo(0, 6);
    expect(columns.actionUnitChanges.lipCornerPull[3]).toBeCloseTo(FULL_SMILE_PULL, 6);
    // Smoothing spreads the step over the seconds next to it, never beyond the two values.
    const second1 = columns.actionUnitChanges.lipCornerPull[1] ?? 0;
    const second2 = columns.actionUnitChanges.lipCornerPull[2] ?? 0;
    expect(second1).toBeGreaterThan(0);
    expect(second1).toBeLessThan(second2);
    expect(second2).toBeLessThan(FULL_SMILE_PULL);
    // Smile index: ½ · 0.6 + ½ · (pull change / full smile).
    expect(columns.smile[0]).toBeCloseTo(0.3, 6);
    expect(columns.smile[3]).toBeCloseTo(0.8, 6);
    for (const unit of ACTION_UNITS.filter((u) => u !== 'lipCornerPull')) {
      expect(columns.actionUnitChanges[unit][3], unit).toBeCloseTo(0, 6);
    }
  });

  it('scores the smile from the resting "happy" of the baseline, per frame as per second', () => {
    const t = times(20);
    const baseline = {
      ...(actionUnitBaseline([units()]) as NonNullable<ReturnType<typeof actionUnitBaseline>>),
      happy: 0.9,
    };
    // A face that reads happy 0.9 at rest, then its corners up by half a full smile with happy at 0.95.
    const values = t.map((_, i) => (i < 10 ? units() : units({ lipCornerPull: FULL_SMILE_PULL / 2 })));
    const signals = faceSignals({ times: t, poses: t.map(() => still), units: values, baseline, sigmaSeconds: 0 });
    const scores = (h: number) =>
      Object.fromEntries(EXPRESSIONS.map((e) => [e, e === 'happy' ? h : (1 - h) / 6])) as ExpressionScores;
    expect(signals.restingHappy).toBe(0.9);
    expect(frameSmile(signals, 0, scores(0.9))).toBeCloseTo(0, 12);
    expect(frameSmile(signals, 15, scores(0.95))).toBeCloseTo(0.5 * 0.05 + 0.5 * 0.5, 12);
    expect(frameSmile(signals, 15, null)).toBeNull();
    const columns = perSecond(signals, t, scores(0.9));
    expect(columns.smile[0]).toBeCloseTo(0, 12);
    expect(columns.smile[1]).toBeCloseTo(0.25, 12);
  });

  it("reads the smile's geometry only near the resting pose; turned further, the smile is the classifier's alone", () => {
    const t = times(30);
    const scores = Object.fromEntries(EXPRESSIONS.map((e) => [e, e === 'happy' ? 0.7 : 0.3 / 6])) as ExpressionScores;
    // A neutral face whose mesh reads the corners up and the mouth wider by a full smile's while the head is turned
    // (as the phantoms' meshes do at 15–20°): frames 10–19 turned 15° from a resting pose of yaw 5°, pitch −3°.
    const turned = (i: number) => i >= 10 && i < 20;
    const poses = t.map((_, i) => (turned(i) ? { yaw: 5 - 15, pitch: -3, roll: 0 } : { yaw: 5, pitch: -3, roll: 0 }));
    const values = t.map((_, i) =>
      turned(i)
        ? { ...units({ lipCornerPull: FULL_SMILE_PULL }), mouthWidth: NEUTRAL_MOUTH_WIDTH + FULL_SMILE_WIDTH }
        : { ...units(), mouthWidth: NEUTRAL_MOUTH_WIDTH },
    );
    const resting = actionUnitBaseline(values.slice(0, 10)) as NonNullable<ReturnType<typeof actionUnitBaseline>>;
    const baseline = { ...resting, happy: 0.7, pose: { yaw: 5, pitch: -3 } };
    for (const signals of [
      faceSignals({ times: t, poses, units: values, baseline, sigmaSeconds: 0.3 }),
      // Without a calibration, the rest is the person's median pose (yaw 5°); the changes are from the neutral mouth.
      faceSignals({ times: t, poses, units: values, baseline: null, sigmaSeconds: 0.3 }),
    ]) {
      const restingHappy = signals.restingHappy;
      expect(signals.smilePullChanges.slice(10, 20)).toEqual(Array(10).fill(null));
      expect(signals.mouthWidthChanges.slice(10, 20)).toEqual(Array(10).fill(null));
      // The turned frames read only the classifier's half (frames 10 and 20, where the head jumps, are not read at all:
      // a fast turn); the frames around them keep their own geometry (at rest), not smoothed with the turned frames'.
      for (let k = 11; k < 20; k++) expect(frameSmile(signals, k, scores)).toBeCloseTo(0.5 * (0.7 - restingHappy), 9);
      expect(signals.smilePullChanges[9]).toBeCloseTo(0, 9);
      expect(signals.mouthWidthChanges[21]).toBeCloseTo(0, 9);
    }
    // Within 10° of rest, the same mesh is read: its geometry counts.
    const near = poses.map((p, i) => (turned(i) ? { ...p, yaw: 5 - SMILE_GEOMETRY_MAX_TURN_DEGREES } : p));
    const read = faceSignals({ times: t, poses: near, units: values, baseline, sigmaSeconds: 0 });
    expect(frameSmile(read, 15, scores)).toBeCloseTo(0.5, 9);
  });

  it('finds smiles by hysteresis: detected at the threshold, timed on its rise, ended below half its height', () => {
    const rest = SMILE_REST_LEVEL / 2;
    const rising = (SMILE_REST_LEVEL + SMILE_THRESHOLD) / 2;
    const up = SMILE_THRESHOLD + 0.1;
    const t = times(40);
    const v: (number | null)[] = t.map(() => rest);
    // A rise from 1.0 s, detected at 1.2 s; a dip that stays above half its height is the same smile; below half its
    // height (rest + ½ · (up + 0.2 − rest)) again at 1.6 s.
    [rising, rising, up, up + 0.2, up + 0.05, up + 0.2, rising].forEach((x, k) => {
      v[10 + k] = x;
    });
    // A bump that never reaches the threshold, then a rise broken by a missing frame, detected and left open.
    v[25] = rising;
    v[30] = rising;
    v[31] = null;
    v[32] = rising;
    v[33] = up;
    for (let i = 34; i < 40; i++) v[i] = up;
    const episodes = smileEpisodes(t, v);
    expect(episodes).toHaveLength(2);
    // The first rise: from `rest` (0.9 s) it pauses at `rising` for a frame (1.0–1.1 s), flatter than a tenth of its
    // steepest, so it took off at 1.1 s (its foot); peak up + 0.2, so the onset is where it passes
    // rising + 0.1 · (up + 0.2 − rising), between 1.1 s and 1.2 s.
    const level = rising + SMILE_ONSET_SHARE * (up + 0.2 - rising);
    expect(episodes[0]?.start).toBeCloseTo(1.1 + (0.1 * (level - rising)) / (up - rising), 9);
    expect(episodes[0]?.detected).toBeCloseTo(1.2, 9);
    expect(episodes[0]?.end).toBeCloseTo(1.6, 9);
    // The second: its stretch starts after the missing frame, at 3.2 s (the foot).
    expect(episodes[1]?.start).toBeCloseTo(3.2 + 0.1 * SMILE_ONSET_SHARE, 9);
    expect(episodes[1]?.detected).toBeCloseTo(3.3, 9);
    expect(episodes[1]?.end).toBeNull();
    expect(SMILE_REST_LEVEL).toBeLessThan(SMILE_THRESHOLD);
  });

  it('parts two smiles whose dip between them stays above rest but falls below half their height', () => {
    const t = times(60);
    // Up from 1.0 s to 0.5 at 1.5 s, held to 3.0 s, down to 0.06 at 3.5 s (above SMILE_REST_LEVEL), up again to 0.5 at
    // 4.0 s, held: the smoothed index of two smiles 0.5 s apart.
    const v = t.map((s) => {
      if (s <= 1) return 0;
      if (s <= 1.5) return ((s - 1) / 0.5) * 0.5;
      if (s <= 3) return 0.5;
      if (s <= 3.5) return 0.5 - ((s - 3) / 0.5) * 0.44;
      if (s <= 4) return 0.06 + ((s - 3.5) / 0.5) * 0.44;
      return 0.5;
    });
    const episodes = smileEpisodes(t, v);
    expect(episodes).toHaveLength(2);
    // The first ends where it is back under 0.25 (3.3 s: 0.236); the second is detected on its crossing of the
    // threshold (3.6 s: 0.148), not on the first's way down, and dated from its own foot (0.06 at 3.5 s).
    expect(episodes[0]?.end).toBeCloseTo(3.3, 9);
    expect(episodes[1]?.detected).toBeCloseTo(3.6, 9);
    expect(episodes[1]?.start).toBeGreaterThan(3.5);
    expect(episodes[1]?.start).toBeLessThan(3.6);
    expect(SMILE_END_SHARE).toBe(0.5);
  });

  it('times a smile from its rise, not from where a drifted resting level left rest', () => {
    const t = times(60);
    // Rest drifted to 0.08 ± 0.02 (above SMILE_REST_LEVEL) from the start; a smile rising linearly from 3.0 s to 3.6 s
    // up to 0.5, held.
    const v = t.map((s, i) => {
      const drift = 0.08 + (i % 2 ? 0.02 : -0.02);
      return s <= 3 ? drift : drift + Math.min(1, (s - 3) / 0.6) * 0.42;
    });
    const [episode, ...more] = smileEpisodes(t, v);
    expect(more).toHaveLength(0);
    // Detected on the rise (0.125 is passed at 3.1 s); the onset within a frame (0.1 s) of 3.0 s, not at 0 s.
    expect(episode?.detected).toBeCloseTo(3.1, 9);
    expect(episode?.start).toBeGreaterThan(2.9);
    expect(episode?.start).toBeLessThan(3.1);
    expect(episode?.end).toBeNull();
    // Noise before the rise that passes the onset level leaves the onset at the rise: the last crossing counts.
    const noisy = v.map((x, i) => (i === 25 ? 0.12 : x));
    expect(smileEpisodes(t, noisy)[0]?.start).toBeCloseTo(episode?.start as number, 9);
  });

  it('times a smile from where its rise took off, not from where the resting index began to creep up', () => {
    const t = times(60);
    // At rest 0.013 until 1.5 s, creeping up to 0.035 by 3.0 s (the resting face's noise, as on sample6-0's phantom);
    // a smile rising linearly from 3.0 s to 3.6 s by 0.24, held; smoothed as the engine smooths the index (σ 0.3 s).
    const raw = t.map(
      (s) => 0.013 + 0.022 * Math.min(1, Math.max(0, (s - 1.5) / 1.5)) + 0.24 * Math.min(1, Math.max(0, (s - 3) / 0.6)),
    );
    const smoothed = smoothSeries(t, raw, 0.3) as number[];
    const [episode, ...more] = smileEpisodes(t, smoothed);
    expect(more).toHaveLength(0);
    // Within 0.2 s of 3.0 s (the smoothing itself starts the rise early).
    expect(episode?.start).toBeGreaterThan(2.8);
    expect(episode?.start).toBeLessThan(3.1);
    // Timed from its rest (the lowest reading before, 0.013) instead, the onset level is crossed 0.3 s early.
    const peak = Math.max(...smoothed);
    const fromRest = 0.013 + SMILE_ONSET_SHARE * (peak - 0.013);
    expect(t[smoothed.findIndex((v) => v > fromRest)]).toBeLessThan(2.8);
    expect(SMILE_FOOT_SLOPE_SHARE).toBe(0.1);
  });

  it('times a smile from the level it rose from, not from a lower rest before a change that came first', () => {
    const t = times(60);
    const rand = prng(7);
    // Readings at rest 0.05 until 1.0 s; the light changes and they rise to 0.11 by 1.6 s and hold (under the
    // threshold); the smile rises linearly from 3.0 s to 3.6 s by 0.4, held; each reading ± 0.005 of noise, then
    // smoothed as the engine smooths the index (σ 0.3 s).
    const raw = t.map((s) => {
      const lit = 0.05 + 0.06 * Math.min(1, Math.max(0, (s - 1) / 0.6));
      return lit + 0.4 * Math.min(1, Math.max(0, (s - 3) / 0.6)) + 0.005 * gaussian(rand);
    });
    const [episode] = smileEpisodes(t, smoothSeries(t, raw, 0.3));
    // The foot is on the held level (walking back from the detection stops where the index last rose), so the onset
    // is dated on this rise, not back in the light's change before 1.6 s.
    expect(episode?.start).toBeGreaterThan(2.5);
    expect(episode?.start).toBeLessThan(3.1);
    // Taking the lowest reading of the 2 s before instead would date it in the light's change.
    const lowest = 0.05 + 0.06 * Math.min(1, Math.max(0, (episode?.detected ?? 0) - 2 - 1) / 0.6);
    expect(lowest).toBeLessThan(0.1);
  });

  it('does not read the face of a frame where the head turns fast, but still counts its eyes for blinks', () => {
    const t = times(10);
    // The head comes back from 40° at 100°/s over frames 1–4 with the mouth misread as a full smile.
    const yaws = [40, 30, 20, 10, 0, 0, 0, 0, 0, 0];
    const signals = faceSignals({
      times: t,
      poses: yaws.map((yaw) => ({ yaw, pitch: 0, roll: 0 })),
      units: yaws.map((_, i) => units({ lipCornerPull: i >= 1 && i <= 4 ? FULL_SMILE_PULL : 0 })),
      baseline: null,
    });
    expect(signals.fast).toEqual(yaws.map((_, i) => i >= 1 && i <= 4));
    const none = Object.fromEntries(EXPRESSIONS.map((e) => [e, e === 'neutral' ? 1 : 0])) as ExpressionScores;
    for (const k of [1, 2, 3, 4]) {
      expect(signals.units[k]).toBeNull();
      expect(frameSmile(signals, k, none)).toBeNull();
    }
    // The still frames after it read the still mouth only, not the misread one smoothed in.
    expect(frameSmile(signals, 5, none)).toBeCloseTo(0, 9);
  });

  it('without a baseline, gives no changes and scores the smile against a neutral mouth', () => {
    const t = times(10);
    const signals = faceSignals({
      times: t,
      poses: t.map(() => still),
      units: t.map(() => units({ lipCornerPull: FULL_SMILE_PULL })),
      baseline: null,
    });
    const none = Object.fromEntries(EXPRESSIONS.map((e) => [e, e === 'neutral' ? 1 : 0])) as ExpressionScores;
    const columns = perSecond(signals, t, none);
    expect(columns.actionUnitChanges.lipCornerPull).toEqual([null]);
    // Raw pull a full smile above the neutral faces' = one full smile: ½ · 0 + ½ · 1.
    expect(columns.smile[0]).toBeCloseTo(0.5, 6);
  });

  it('counts a 0.2 s closure as a blink and a 1.5 s one as eyes closed, which is distraction and not attention', () => {
    const t = times(60);
    // Resting eye; a blink at 1.0–1.2 s; eyes shut from 3.0 s to 4.5 s.
    const closed = (i: number) => (i >= 10 && i < 12) || (i >= 30 && i < 45);
    const values = t.map((_, i) => units({}, closed(i) ? 0.1 : 1));
    const baseline = actionUnitBaseline(values.slice(0, 10));
    const signals = faceSignals({ times: t, poses: t.map(() => still), units: values, baseline });
    expect(signals.blinkStarts.flatMap((b, i) => (b ? [i] : []))).toEqual([10]);
    expect(signals.distraction.flatMap((d, i) => (d ? [i] : []))).toEqual(Array.from({ length: 15 }, (_, k) => 30 + k));
    expect(signals.distraction[30]).toBe('eyes_closed');
    const columns = perSecond(signals, t);
    expect(columns.blinks).toEqual([0, 1, 0, 0, 0, 0]);
    expect(columns.distracted).toEqual([0, 0, 0, 1, 0.5, 0]);
    // Attention: a face looking at the screen attends, unless it is distracted.
    const frame = (i: number): FrameData => ({
      index: i,
      time: t[i] as number,
      faceCount: 1,
      face: {
        box: { x: 0, y: 0, width: 200, height: 200 },
        score: 1,
        landmarks: [],
        pose: still,
        expressions: Object.fromEntries(EXPRESSIONS.map((e) => [e, 1 / 7])) as ExpressionScores,
        eyes: null,
      },
      brightness: 0.5,
      flags: [],
    });
    expect(attention(frame(11), null, signals.distraction[11])).toBe(1);
    expect(attention(frame(31), null, signals.distraction[31])).toBe(0);
    const summary = new SummaryAccumulator();
    for (const i of t.keys()) summary.add(frame(i), null, signals.distraction[i]);
    expect(summary.result().attentionShare).toBeCloseTo(45 / 60, 12);
    // A minute's rate needs 10 s of observation; 6 s is too short.
    expect(signals.blinksPerMinute).toBeNull();
  });

  it('measures head motion in degrees per second, and a head turned away as distraction', () => {
    const t = times(50);
    // Still for a second, then turning 20°/s for 3 s (past the 30° limit after 2.5 s), then still, turned away.
    const yaw = (time: number) => 20 * Math.min(3, Math.max(0, time - 1));
    const poses = t.map((time) => ({ yaw: yaw(time), pitch: 0, roll: 0 }));
    const signals = faceSignals({ times: t, poses, units: t.map(() => units()), baseline: null });
    const columns = perSecond(signals, t);
    // Smoothing (σ 0.3 s) blurs the turn's start and end; its middle second runs at the turn's speed.
    expect(columns.headMotion[2]).toBeCloseTo(20, 0);
    expect(columns.headMotion[0]).toBeLessThan(5);
    expect(columns.headMotion[4]).toBeLessThan(5);
    const total = (columns.headMotion as number[]).reduce((s, v, k) => s + v * (k === 0 ? 0.9 : 1), 0);
    expect(total).toBeCloseTo(60, 0);
    expect(signals.distraction[36]).toBe('head_turned');
    expect(columns.distracted[0]).toBe(0);
    expect(columns.distracted[2]).toBeCloseTo(0.4, 12);
    expect(columns.distracted[3]).toBe(1);
    expect(columns.blinks).toEqual([0, 0, 0, 0, 0]);
  });
});
