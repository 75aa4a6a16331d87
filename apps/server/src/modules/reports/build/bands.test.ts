import { METRIC_RANGES, metricRange, REPORT_METRICS } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { band } from './aggregate.ts';
import { clampBand, upgradeStoredCurve, wilsonInterval } from './bands.ts';

describe('the Wilson score interval', () => {
  it('gives the published 95% intervals (Newcombe 1998: 0/10, 1/10, 5/10, 10/10)', () => {
    const at = (x: number, n: number) => {
      const w = wilsonInterval(x, n);
      return w && [Number(w.low.toFixed(4)), Number(w.high.toFixed(4))];
    };
    expect(at(0, 10)).toEqual([0, 0.2775]);
    expect(at(1, 10)).toEqual([0.0179, 0.4042]);
    expect(at(5, 10)).toEqual([0.2366, 0.7634]);
    expect(at(10, 10)).toEqual([0.7225, 1]);
  });

  it('is exactly 0 or 1 at the ends, stays within 0..1 for small N, and is none for nobody', () => {
    expect(wilsonInterval(0, 1)).toEqual({ low: 0, high: expect.closeTo(0.7935, 4) });
    expect(wilsonInterval(2, 2)?.high).toBe(1);
    for (let n = 1; n <= 6; n++) {
      for (let x = 0; x <= n; x++) {
        const w = wilsonInterval(x, n);
        expect(w?.low).toBeGreaterThanOrEqual(0);
        expect(w?.high).toBeLessThanOrEqual(1);
        expect(w?.low).toBeLessThanOrEqual(x / n);
        expect(w?.high).toBeGreaterThanOrEqual(x / n);
      }
    }
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(0.5, 2)).toThrow(RangeError);
  });
});

describe('a clamped band', () => {
  it('keeps a small sample’s t-band within the metric’s range', () => {
    // The case: two respondents far apart. t(0.975, 1) = 12.7062 → 0.575 ± 12.7062 · 0.5303 / √2.
    const wide = band([0.2, 0.95]);
    expect(wide.low).toBeLessThan(-4);
    expect(wide.high).toBeGreaterThan(5);
    expect(clampBand(wide.low, wide.high, { min: 0, max: 1 })).toEqual({ low: 0, high: 1 });
    expect(clampBand(wide.low, wide.high, { min: -1, max: 1 })).toEqual({ low: -1, high: 1 });
    // A band within the range is left as it is; a missing one stays missing.
    expect(clampBand(0.3, 0.6, { min: 0, max: 1 })).toEqual({ low: 0.3, high: 0.6 });
    expect(clampBand(null, null, { min: 0, max: 1 })).toEqual({ low: null, high: null });
  });
});

describe('metric ranges', () => {
  it('valence −1..1, the rest 0..1; a calibration-subtracted curve ± the width, attention never corrected', () => {
    expect(METRIC_RANGES.valence).toEqual({ min: -1, max: 1 });
    for (const m of REPORT_METRICS.filter((m) => m !== 'valence')) expect(METRIC_RANGES[m]).toEqual({ min: 0, max: 1 });
    expect(metricRange('engagement', 'shift')).toEqual({ min: 0, max: 1 });
    expect(metricRange('engagement', 'calibration_subtraction')).toEqual({ min: -1, max: 1 });
    expect(metricRange('valence', 'calibration_subtraction')).toEqual({ min: -2, max: 2 });
    expect(metricRange('attention', 'calibration_subtraction')).toEqual({ min: 0, max: 1 });
  });
});

describe('a snapshot stored before', () => {
  it('gets what the build now writes: the band clamped, the share’s Wilson interval from the share and N', () => {
    // The demo's "liked: yes" segment as stored: two respondents, a band of −3.3 … 4.3 on a 0..1 metric.
    const curve = {
      n: [2, 3, 0],
      mean: [0.5, 0.4, null],
      low: [-3.3, 0.1, null],
      high: [4.3, 0.7, null],
      share_above: [0.5, 0.3333, null],
    };
    upgradeStoredCurve(curve, { min: 0, max: 1 });
    expect(curve).toEqual({
      n: [2, 3, 0],
      mean: [0.5, 0.4, null],
      low: [0, 0.1, null],
      high: [1, 0.7, null],
      share_above: [0.5, 0.3333, null],
      // 1 of 2: 0.0945 … 0.9055; 1 of 3: 0.0615 … 0.7923.
      share_low: [0.0945, 0.0615, null],
      share_high: [0.9055, 0.7923, null],
    });
  });
});
