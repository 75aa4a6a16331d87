import { describe, expect, it } from 'vitest';
import { gaussianKernel, heatmapGrid } from './heatmap.ts';

const SIZE = { width: 400, height: 300 };
const value = (g: ReturnType<typeof heatmapGrid>, column: number, row: number) =>
  g.values[row * g.columns + column] ?? 0;

describe('a gaussian kernel', () => {
  it('sums to 1, is symmetric and reaches 3σ', () => {
    const k = gaussianKernel(2);
    expect(k.length).toBe(13);
    expect(k.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 6);
    expect(k[0]).toBeCloseTo(k[12] ?? 0, 9);
    // exp(−1/8) / Σ: the neighbour of the centre, by hand.
    expect((k[7] ?? 0) / (k[6] ?? 1)).toBeCloseTo(Math.exp(-1 / 8), 6);
    expect(Array.from(gaussianKernel(0))).toEqual([1]);
  });
});

describe('a heatmap grid', () => {
  it('peaks at the point, falls off symmetrically, and leaves out points off the content', () => {
    const g = heatmapGrid(
      [
        { x: 205, y: 155, weight: 0.5 },
        { x: 500, y: 10, weight: 3 }, // off the content
        { x: 10, y: 10, weight: 0 },
      ],
      SIZE,
      { cell: 10, sigma: 20, accuracy: null },
    );
    expect({ columns: g.columns, rows: g.rows, sigma: g.sigma, total: g.total }).toEqual({
      columns: 40,
      rows: 30,
      sigma: 20,
      total: 0.5,
    });
    expect(value(g, 20, 15)).toBe(1);
    expect(value(g, 22, 15)).toBeCloseTo(value(g, 18, 15), 6);
    expect(value(g, 20, 17)).toBeCloseTo(value(g, 20, 13), 6);
    // Two cells away at σ = 2 cells: exp(−4 / 8) of the peak.
    expect(value(g, 22, 15)).toBeCloseTo(Math.exp(-0.5), 5);
    expect(value(g, 0, 0)).toBe(0);
  });

  it('is never sharper than the gaze accuracy behind it', () => {
    const points = [{ x: 205, y: 155, weight: 1 }];
    const sharp = heatmapGrid(points, SIZE, { cell: 10, sigma: 10, accuracy: 40 });
    expect(sharp.sigma).toBe(40);
    // σ = 4 cells: two cells away is exp(−4 / 32) of the peak.
    expect(value(sharp, 22, 15)).toBeCloseTo(Math.exp(-4 / 32), 5);
    expect(heatmapGrid(points, SIZE, { cell: 10, sigma: 60, accuracy: 40 }).sigma).toBe(60);
  });

  it('weighs points: twice the weight, twice the density before scaling', () => {
    const g = heatmapGrid(
      [
        { x: 55, y: 55, weight: 2 },
        { x: 305, y: 205, weight: 1 },
      ],
      SIZE,
      { cell: 10, sigma: 10, accuracy: null },
    );
    expect(value(g, 5, 5)).toBe(1);
    expect(value(g, 30, 20)).toBeCloseTo(0.5, 6);
    expect(() => heatmapGrid([], { width: 0, height: 10 }, { cell: 10, sigma: 1, accuracy: null })).toThrow(RangeError);
  });
});
