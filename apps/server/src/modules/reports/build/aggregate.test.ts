import { describe, expect, it } from 'vitest';
import { band, keyMoments, perSecondBands, perSecondShareAbove, tQuantile975 } from './aggregate.ts';

describe("Student's t quantile", () => {
  it('is the table up to 30 degrees of freedom and the expansion above, against published values', () => {
    expect(tQuantile975(1)).toBe(12.7062);
    expect(tQuantile975(2)).toBe(4.3027);
    expect(tQuantile975(30)).toBe(2.0423);
    // Published t(0.975): 31 → 2.0395, 40 → 2.0211, 60 → 2.0003, 120 → 1.9799, 1000 → 1.9623.
    expect(tQuantile975(31)).toBeCloseTo(2.0395, 3);
    expect(tQuantile975(40)).toBeCloseTo(2.0211, 3);
    expect(tQuantile975(60)).toBeCloseTo(2.0003, 3);
    expect(tQuantile975(120)).toBeCloseTo(1.9799, 3);
    expect(tQuantile975(1000)).toBeCloseTo(1.9623, 3);
    expect(() => tQuantile975(0)).toThrow(RangeError);
    expect(() => tQuantile975(2.5)).toThrow(RangeError);
  });
});

describe('a band', () => {
  it('is the mean ± t · s / √N, computed by hand', () => {
    // 1, 2, 3: mean 2, s = 1, t(0.975, 2) = 4.3027 → half-width 4.3027 / √3 = 2.48417.
    const b = band([1, 2, 3]);
    expect(b.n).toBe(3);
    expect(b.mean).toBe(2);
    expect(b.low).toBeCloseTo(2 - 2.48417, 4);
    expect(b.high).toBeCloseTo(2 + 2.48417, 4);
    // 0.2, 0.4, 0.4, 0.6, 0.9: mean 0.5, s² = (0.09 + 0.01 + 0.01 + 0.01 + 0.16) / 4 = 0.07,
    // t(0.975, 4) = 2.7764 → half-width 2.7764 · √0.07 / √5 = 0.328506.
    const c = band([0.2, null, 0.4, 0.4, 0.6, undefined, 0.9, Number.NaN]);
    expect(c.n).toBe(5);
    expect(c.mean).toBeCloseTo(0.5, 12);
    expect((c.high ?? 0) - (c.mean ?? 0)).toBeCloseTo(0.328506, 5);
  });

  it('has a mean but no band for one value, and nothing for none', () => {
    expect(band([0.7])).toEqual({ n: 1, mean: 0.7, low: null, high: null });
    expect(band([null, undefined])).toEqual({ n: 0, mean: null, low: null, high: null });
    // Equal values: a band of width 0.
    expect(band([0.5, 0.5])).toEqual({ n: 2, mean: 0.5, low: 0.5, high: 0.5 });
  });
});

describe('per second', () => {
  const series = [
    [0.1, 0.5, 0.9],
    [0.3, 0.7],
    [null, 0.6, 0.2, 0.4],
  ];

  it('gives N, mean and band of each second up to the longest series', () => {
    const bands = perSecondBands(series);
    expect(bands.map((b) => b.n)).toEqual([2, 3, 2, 1]);
    expect(bands.map((b) => b.mean)).toEqual([0.2, expect.closeTo(0.6, 12), expect.closeTo(0.55, 12), 0.4]);
    // Second 0: 0.1 and 0.3, s = 0.141421, t(1) = 12.7062 → half-width 12.7062 · 0.141421 / √2 = 1.27062.
    expect((bands[0]?.high ?? 0) - 0.2).toBeCloseTo(1.27062, 4);
    expect(bands[3]).toEqual({ n: 1, mean: 0.4, low: null, high: null });
    expect(perSecondBands([])).toEqual([]);
  });

  it('gives the share above a threshold among those with a value', () => {
    expect(perSecondShareAbove(series, 0.4)).toEqual([0, 1, 0.5, 0]);
    expect(perSecondShareAbove([[null]], 0.4)).toEqual([null]);
  });
});

describe('key moments', () => {
  const curve = (values: (number | null)[], n = 10) =>
    values.map((mean) => ({ n: mean === null ? 0 : n, mean, low: null, high: null }));

  it('are the peaks and drops by prominence, strongest first; the ends and small wiggles are not', () => {
    //            0    1    2    3    4    5    6    7    8
    const c = curve([0.5, 0.4, 0.8, 0.6, 0.65, 0.3, 0.5, 0.45, 0.9]);
    const moments = keyMoments(c, { minProminence: 0.1 });
    // Drop at 5 (0.3): nothing lower on either side before the ends, bases 0.8 (left) and 0.9 (right) → 0.5.
    // Peak at 2 (0.8): lowest 0.4 on the left, 0.3 on the right before the higher 0.9 → 0.8 − 0.4 = 0.4.
    // Drop at 1 (0.4): highest 0.5 on the left, 0.8 on the right before the lower 0.3 → 0.5 − 0.4 = 0.1.
    expect(moments).toEqual([
      { second: 5, kind: 'drop', value: 0.3, prominence: 0.5 },
      { second: 2, kind: 'peak', value: 0.8, prominence: 0.4 },
      { second: 1, kind: 'drop', value: 0.4, prominence: 0.1 },
    ]);
    // The wiggle at 4 (0.65, 0.05 above 0.6) falls below the threshold; with none, it shows.
    expect(keyMoments(c, { minProminence: 0, limit: 10 }).map((m) => `${m.kind}@${m.second}`)).toContain('peak@4');
  });

  it('skip seconds with too few respondents, and take a plateau once', () => {
    const c = curve([0.2, 0.6, 0.6, 0.2, 0.9, 0.1]);
    // Peak at 4: 0.9 − 0.2; the plateau 1–2 once, at 1: 0.6 − 0.2; drop at 3: 0.6 − 0.2 (equal: earlier first).
    expect(keyMoments(c, { minProminence: 0.3 })).toEqual([
      { second: 4, kind: 'peak', value: 0.9, prominence: 0.7 },
      { second: 1, kind: 'peak', value: 0.6, prominence: 0.4 },
      { second: 3, kind: 'drop', value: 0.2, prominence: 0.4 },
    ]);
    const thin = c.map((p, i) => (i === 4 ? { ...p, n: 1 } : p));
    expect(keyMoments(thin, { minProminence: 0.3 }).some((m) => m.second === 4)).toBe(false);
  });
});
