import { describe, expect, it } from 'vitest';
import {
  attention,
  attentionSeries,
  badFrameReason,
  badFrameShare,
  baselineCorrect,
  calibrationWindow,
  engagement,
  engagementSeries,
  isBadFrame,
  smoothExpressions,
  smoothSeries,
  summarise,
  valence,
  valenceSeries,
} from './metrics.ts';
import { gaussian, prng } from './random.ts';
import type { ExpressionScores, FaceData, FrameData, FrameGaze, QualityFlag } from './types.ts';

function scores(partial: Partial<ExpressionScores>): ExpressionScores {
  return { neutral: 0, happy: 0, surprise: 0, sad: 0, angry: 0, disgust: 0, fear: 0, ...partial };
}

function face(expressions: ExpressionScores = scores({ neutral: 1 })): FaceData {
  return {
    box: { x: 0, y: 0, width: 100, height: 100 },
    score: 0.9,
    landmarks: [],
    pose: { yaw: 0, pitch: 0, roll: 0 },
    expressions,
    eyes: null,
  };
}

function frame(
  index: number,
  time: number,
  options: { face?: FaceData | null; faceCount?: number; flags?: QualityFlag[] } = {},
): FrameData {
  const f = options.face === undefined ? face() : options.face;
  return {
    index,
    time,
    faceCount: options.faceCount ?? (f ? 1 : 0),
    face: f,
    brightness: 0.5,
    flags: options.flags ?? (f ? [] : ['no_face']),
  };
}

/** The definition, summed over every pair: the reference the windowed implementation must match. */
function bruteForceSmooth(times: number[], values: (number | null)[], sigma: number): (number | null)[] {
  return times.map((ti) => {
    let w = 0;
    let s = 0;
    times.forEach((tj, j) => {
      const v = values[j];
      if (v === null || v === undefined || Math.abs(tj - ti) > 3 * sigma) return;
      const weight = Math.exp(-((tj - ti) ** 2) / (2 * sigma * sigma));
      w += weight;
      s += weight * v;
    });
    return w > 0 ? s / w : null;
  });
}

const rms = (a: (number | null)[], b: number[]) =>
  Math.sqrt(a.reduce<number>((sum, v, i) => sum + ((v ?? Number.NaN) - (b[i] as number)) ** 2, 0) / a.length);

describe('smoothSeries', () => {
  it('computes the Gaussian-weighted mean by hand', () => {
    // At t = 0 with σ = 0.3: weights 1, e^−0.5 = 0.606531, e^−2 = 0.135335 for values 0, 3, 6:
    // (3 · 0.606531 + 6 · 0.135335) / (1 + 0.606531 + 0.135335) = 2.631604 / 1.741866 = 1.510796.
    const out = smoothSeries([0, 0.3, 0.6], [0, 3, 6], 0.3);
    expect(out[0]).toBeCloseTo(1.510796, 5);
    expect(out[1]).toBeCloseTo(3, 12);
    expect(out[2]).toBeCloseTo(6 - 1.510796, 5);
  });

  it('leaves a constant series unchanged, ends included', () => {
    const times = Array.from({ length: 50 }, (_, i) => i / 10);
    for (const v of smoothSeries(
      times,
      times.map(() => 0.7),
    )) {
      expect(v).toBeCloseTo(0.7, 12);
    }
  });

  it('reduces noise on a known signal', () => {
    // 60 s at 10 fps of sin(2π · 0.1 · t) plus noise of SD 0.2. A σ = 0.3 s kernel averages about
    // 2√π · 0.3 · 10 ≈ 10.6 frames (noise / 3.3) and damps a 0.1 Hz sine by under 2%: RMS error ≈ 0.06.
    const rand = prng(42);
    const times = Array.from({ length: 600 }, (_, i) => i / 10);
    const truth = times.map((t) => Math.sin(2 * Math.PI * 0.1 * t));
    const noisy = truth.map((v) => v + 0.2 * gaussian(rand));
    const rawError = rms(noisy, truth);
    const smoothError = rms(smoothSeries(times, noisy, 0.3), truth);
    expect(rawError).toBeGreaterThan(0.18);
    expect(smoothError).toBeLessThan(0.4 * rawError);
  });

  it('skips nulls, fills short gaps and returns null beyond 3σ of any valid value', () => {
    const times = [0, 0.1, 0.2, 0.3, 1.0, 1.8, 2.0, 2.2, 3.0];
    const values = [1, null, 3, 3, 5, null, null, null, 7];
    const out = smoothSeries(times, values, 0.3);
    // t = 0.1 lies between 1 (at 0) and 3 (at 0.2, 0.3): a finite value between them.
    expect(out[1]).toBeGreaterThan(1);
    expect(out[1]).toBeLessThan(3);
    // t = 1.8 is 0.8 s from the 5 at t = 1.0 (within 0.9 s) and 1.2 s from the 7: only the 5 counts.
    expect(out[5]).toBeCloseTo(5, 12);
    // t = 2.0 is 1.0 s from both: a gap.
    expect(out[6]).toBeNull();
    // t = 2.2 is 0.8 s from the 7 at t = 3.0 only.
    expect(out[7]).toBeCloseTo(7, 12);
    // An isolated value keeps itself.
    expect(out[8]).toBeCloseTo(7, 12);
    expect(smoothSeries([0, 1, 2], [null, null, null])).toEqual([null, null, null]);
  });

  it('matches the definition summed over all pairs, on irregular and unsorted timestamps', () => {
    const rand = prng(7);
    const times: number[] = [];
    let t = 0;
    for (let i = 0; i < 400; i++) {
      t += rand() < 0.05 ? 1 + rand() : 0.02 + 0.15 * rand();
      times.push(t);
    }
    // Scattered missing frames, and a run of 20 (about 2 s) that must come out as a gap at small σ.
    const values = times.map((_, i) => (rand() < 0.2 || (i >= 100 && i < 120) ? null : gaussian(rand)));
    for (const sigma of [0.1, 0.3, 1]) {
      const expected = bruteForceSmooth(times, values, sigma);
      const actual = smoothSeries(times, values, sigma);
      expected.forEach((e, i) => {
        if (e === null) expect(actual[i]).toBeNull();
        else expect(actual[i]).toBeCloseTo(e, 10);
      });
      if (sigma === 0.1) expect(actual.some((v) => v === null)).toBe(true);
    }
    // Shuffled input gives each element the same smoothed value.
    const order = times.map((_, i) => i).sort(() => rand() - 0.5);
    const shuffled = smoothSeries(
      order.map((i) => times[i] as number),
      order.map((i) => values[i] as number | null),
    );
    const sorted = smoothSeries(times, values);
    order.forEach((i, k) => {
      expect(shuffled[k]).toBe(sorted[i]);
    });
  });

  it('leaves out samples without a finite time', () => {
    expect(smoothSeries([0, Number.NaN, 0.1], [1, 100, 3], 0.3)).toEqual([
      expect.closeTo(1.97, 2),
      null,
      expect.closeTo(2.03, 2),
    ]);
  });

  it('returns the values unsmoothed for σ = 0 and refuses mismatched lengths', () => {
    expect(smoothSeries([0, 1], [1, null], 0)).toEqual([1, null]);
    expect(() => smoothSeries([0, 1], [1])).toThrow(RangeError);
  });
});

describe('engagement and valence', () => {
  it('computes the formulas on hand-worked cases', () => {
    const mild = scores({ neutral: 0.6, happy: 0.3, surprise: 0.1 });
    expect(engagement(mild)).toBeCloseTo(0.4, 12);
    expect(valence(mild)).toBeCloseTo(0.3, 12);

    const upset = scores({ neutral: 0.2, happy: 0.1, sad: 0.3, angry: 0.1, disgust: 0.1, fear: 0.2 });
    expect(engagement(upset)).toBeCloseTo(0.8, 12);
    expect(valence(upset)).toBeCloseTo(0.1 - 0.7, 12);
  });

  it('counts surprise for engagement but not for valence', () => {
    const surprised = scores({ neutral: 0.1, surprise: 0.9 });
    expect(engagement(surprised)).toBeCloseTo(0.9, 12);
    expect(valence(surprised)).toBe(0);
  });

  it('clips out-of-range inputs', () => {
    expect(engagement(scores({ neutral: -0.2 }))).toBe(1);
    expect(engagement(scores({ neutral: 1.3 }))).toBe(0);
    expect(valence(scores({ happy: 1.4 }))).toBe(1);
    expect(valence(scores({ sad: 0.6, fear: 0.5, angry: 0.3 }))).toBe(-1);
  });

  it('maps series and keeps nulls', () => {
    const series = [scores({ neutral: 0.25, happy: 0.75 }), null];
    expect(engagementSeries(series)).toEqual([0.75, null]);
    expect(valenceSeries(series)).toEqual([0.75, null]);
  });
});

describe('bad frames', () => {
  it('names the reason a frame is bad', () => {
    expect(badFrameReason(frame(0, 0))).toBeNull();
    expect(badFrameReason(frame(0, 0, { face: null }))).toBe('no_face');
    expect(badFrameReason(frame(0, 0, { faceCount: 2 }))).toBe('several_faces');
    expect(badFrameReason(frame(0, 0, { flags: ['several_faces'] }))).toBe('several_faces');
    expect(badFrameReason(frame(0, 0, { flags: ['head_turned'] }))).toBe('head_turned');
    expect(badFrameReason(frame(0, 0, { flags: ['too_dark'] }))).toBeNull();
  });

  it('accepts several faces in multi-face mode, but not a turned head', () => {
    expect(isBadFrame(frame(0, 0, { faceCount: 3, flags: ['several_faces'] }), { multiFace: true })).toBe(false);
    expect(isBadFrame(frame(0, 0, { faceCount: 3, flags: ['several_faces'] }))).toBe(true);
    expect(isBadFrame(frame(0, 0, { faceCount: 2, flags: ['head_turned'] }), { multiFace: true })).toBe(true);
  });

  it('computes the bad-frame share', () => {
    const frames = [
      ...Array.from({ length: 6 }, (_, i) => frame(i, i / 10)),
      frame(6, 0.6, { face: null }),
      frame(7, 0.7, { flags: ['head_turned'] }),
      frame(8, 0.8, { faceCount: 2 }),
      frame(9, 0.9, { faceCount: 2 }),
    ];
    expect(badFrameShare(frames)).toBeCloseTo(0.4, 12);
    expect(badFrameShare(frames, { multiFace: true })).toBeCloseTo(0.2, 12);
    expect(badFrameShare([])).toBe(1);
  });
});

describe('smoothExpressions', () => {
  it('smooths the good frames only and leaves bad frames null', () => {
    const frames = [
      frame(0, 0.0, { face: face(scores({ neutral: 1 })) }),
      frame(1, 0.1, { face: face(scores({ neutral: 1 })) }),
      // A turned head that the expression model reads as pure joy: must not leak into its neighbours.
      frame(2, 0.2, { face: face(scores({ happy: 1 })), flags: ['head_turned'] }),
      frame(3, 0.3, { face: face(scores({ neutral: 0.5, happy: 0.5 })) }),
      frame(4, 0.4, { face: null }),
    ];
    const out = smoothExpressions(frames, 0.3);
    expect(out[2]).toBeNull();
    expect(out[4]).toBeNull();
    // Frames 0, 1, 3 at σ = 0.3 around t = 0.1: weights e^−(0.1²/0.18) = 0.946 (t = 0), 1 (t = 0.1), 0.801 (t = 0.3).
    const w0 = Math.exp(-(0.01 / 0.18));
    const w3 = Math.exp(-(0.04 / 0.18));
    expect(out[1]?.happy).toBeCloseTo((0.5 * w3) / (w0 + 1 + w3), 12);
    for (const s of out) {
      if (!s) continue;
      expect(Object.values(s).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    }
    expect(out.map((s) => s !== null)).toEqual([true, true, false, true, false]);
  });
});

describe('attention', () => {
  const onScreen: FrameGaze = { time: 0, point: { x: 10, y: 10 }, onScreen: true };
  const offScreen: FrameGaze = { time: 0, point: { x: -10, y: 10 }, onScreen: false };
  const noPoint: FrameGaze = { time: 0, point: null, onScreen: false };

  it('is 1 for a present, forward face whose gaze (when known) is on screen', () => {
    expect(attention(frame(0, 0))).toBe(1);
    expect(attention(frame(0, 0), onScreen)).toBe(1);
    expect(attention(frame(0, 0), offScreen)).toBe(0);
    expect(attention(frame(0, 0, { face: null }))).toBe(0);
    expect(attention(frame(0, 0, { flags: ['head_turned'] }), onScreen)).toBe(0);
    // No gaze point in this frame (a blink): judged on face and head alone.
    expect(attention(frame(0, 0), noPoint)).toBe(1);
  });

  it('pairs frames with their gaze', () => {
    const frames = [frame(0, 0), frame(1, 0.1), frame(2, 0.2, { face: null })];
    expect(attentionSeries(frames, [onScreen, offScreen, onScreen])).toEqual([1, 0, 0]);
    expect(attentionSeries(frames)).toEqual([1, 1, 0]);
    expect(() => attentionSeries(frames, [onScreen])).toThrow(RangeError);
  });
});

describe('baselineCorrect', () => {
  const times = [0, 1, 2, 3, 4];
  const series = [1, 2, 3, null, 10];

  it('subtracts the mean over the window, both ends included', () => {
    const result = baselineCorrect(series, times, { start: 0, end: 2 });
    expect(result.baseline).toBe(2);
    expect(result.baselineCount).toBe(3);
    expect(result.corrected).toBe(true);
    expect(result.values).toEqual([-1, 0, 1, null, 8]);
  });

  it('ignores nulls inside the window', () => {
    const result = baselineCorrect(series, times, { start: 2, end: 3 });
    expect(result.baseline).toBe(3);
    expect(result.baselineCount).toBe(1);
    expect(result.values).toEqual([-2, -1, 0, null, 7]);
  });

  it('returns the series unchanged, and says so, when the window has no valid value', () => {
    const result = baselineCorrect(series, times, { start: 2.5, end: 3.5 });
    expect(result).toEqual({ values: series, baseline: null, baselineCount: 0, corrected: false });
    expect(result.values).not.toBe(series);
  });
});

describe('calibrationWindow', () => {
  it('converts the calibration events to seconds', () => {
    const screen = { width: 1920, height: 1080 };
    expect(
      calibrationWindow({
        screen,
        events: [
          { type: 'calibration_start', t: 1500 },
          { type: 'calibration_dot', t: 1600, x: 1, y: 1 },
          { type: 'calibration_end', t: 13_500 },
          { type: 'video_play', t: 14_000 },
        ],
      }),
    ).toEqual({ start: 1.5, end: 13.5 });
    expect(
      calibrationWindow({
        screen,
        events: [
          { type: 'calibration_dot', t: 2000, x: 1, y: 1 },
          { type: 'calibration_dot', t: 3000, x: 2, y: 2 },
        ],
      }),
    ).toEqual({ start: 2, end: 3 });
    expect(calibrationWindow({ screen, events: [{ type: 'video_play', t: 0 }] })).toBeNull();
  });
});

describe('summarise', () => {
  const frames = [
    frame(0, 10, { face: face(scores({ neutral: 0.5, happy: 0.5 })) }),
    frame(1, 10.1, { face: face(scores({ neutral: 1 })) }),
    frame(2, 10.2, { face: null }),
    frame(3, 10.3, { face: face(scores({ happy: 1 })), flags: ['head_turned'] }),
  ];

  it('reports means over good frames, shares and the counts behind them', () => {
    const summary = summarise(frames);
    expect(summary.frames).toBe(4);
    expect(summary.durationSeconds).toBeCloseTo(0.3, 12);
    expect(summary.goodFrames).toBe(2);
    expect(summary.badFrames).toBe(2);
    expect(summary.badFramesByReason).toEqual({ no_face: 1, several_faces: 0, head_turned: 1 });
    expect(summary.badFrameShare).toBe(0.5);
    expect(summary.allowedBadFrameShare).toBe(0.25);
    expect(summary.excluded).toBe(true);
    expect(summary.expressionFrames).toBe(2);
    expect(summary.meanExpressions).toEqual(scores({ neutral: 0.75, happy: 0.25 }));
    expect(summary.meanEngagement).toBeCloseTo(0.25, 12);
    expect(summary.meanValence).toBeCloseTo(0.25, 12);
    expect(summary.attentiveFrames).toBe(2);
    expect(summary.attentionShare).toBe(0.5);
    expect(summary.gazeFrames).toBe(0);
    expect(summary.gazeOnScreenShare).toBeNull();
  });

  it('uses gaze for attention and honours the allowed bad-frame share', () => {
    const gaze: FrameGaze[] = [
      { time: 10, point: { x: 5, y: 5 }, onScreen: true },
      { time: 10.1, point: { x: -5, y: 5 }, onScreen: false },
      { time: 10.2, point: null, onScreen: false },
      { time: 10.3, point: { x: 5, y: 5 }, onScreen: true },
    ];
    const summary = summarise(frames, { gaze, allowedBadFrameShare: 0.5 });
    expect(summary.attentiveFrames).toBe(1);
    expect(summary.attentionShare).toBe(0.25);
    expect(summary.gazeFrames).toBe(3);
    expect(summary.gazeOnScreenShare).toBeCloseTo(2 / 3, 12);
    expect(summary.excluded).toBe(false);
  });

  it('handles a recording without frames', () => {
    const summary = summarise([]);
    expect(summary).toMatchObject({
      frames: 0,
      badFrameShare: 1,
      excluded: true,
      meanExpressions: null,
      meanEngagement: null,
      meanValence: null,
      attentionShare: null,
    });
  });
});
