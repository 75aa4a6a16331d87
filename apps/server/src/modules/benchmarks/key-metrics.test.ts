import { percentileOf, type ReportItem } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { keyMetricsOf } from './key-metrics.ts';

/** One item whose engagement, valence and attention curves are given per point (mean, N). */
function item(engagement: [number | null, number][], valence = 0, attention = 1): ReportItem {
  const curve = (value: (mean: number | null) => number | null) => ({
    n: engagement.map(([, n]) => n),
    mean: engagement.map(([mean]) => value(mean)),
    low: [],
    high: [],
    share_above: [],
  });
  return {
    curves: {
      engagement: curve((m) => m),
      valence: curve((m) => (m === null ? null : valence)),
      attention: curve((m) => (m === null ? null : attention)),
    },
  } as unknown as ReportItem;
}

describe('key metrics', () => {
  it('weights each point by the N behind it and takes the peak where at least half the respondents are', () => {
    // 4 respondents: the last point, 0.9, has only 1 behind it and is not the peak; 0.6 (N 2) is.
    const m = keyMetricsOf(
      [
        item(
          [
            [0.2, 4],
            [0.6, 2],
            [null, 0],
            [0.9, 1],
          ],
          -0.5,
          0.5,
        ),
      ],
      4,
    );
    // (0.2·4 + 0.6·2 + 0.9·1) / 7 = 2.9 / 7.
    expect(m?.mean_engagement).toBeCloseTo(2.9 / 7, 6);
    expect(m?.peak_engagement).toBeCloseTo(0.6, 6);
    expect(m?.mean_valence).toBeCloseTo(-0.5, 6);
    // 100 × (0.4 · 2.9/7 + 0.2 · 0.6 + 0.2 · 0.5 + 0.2 · 0.25).
    expect(m?.score).toBeCloseTo(100 * (0.4 * (2.9 / 7) + 0.12 + 0.1 + 0.05), 4);
  });

  it('has no metrics without anyone behind a point', () => {
    expect(keyMetricsOf([item([[null, 0]])], 0)).toBeNull();
  });

  it('gives mid-rank percentiles: below, and half of the ties', () => {
    expect(percentileOf(5, [])).toBeNull();
    expect(percentileOf(5, [1, 2, 3, 4])).toBe(100);
    expect(percentileOf(0, [1, 2, 3, 4])).toBe(0);
    expect(percentileOf(2, [1, 2, 2, 4])).toBe(50);
  });
});
