import { describe, expect, it } from 'vitest';
import { cellColour, drawable, gridImage } from './report-colours.ts';

describe('heatmap colours', () => {
  it('ramps blue → green → yellow → red, transparent at 0', () => {
    expect(cellColour(0, 'colour')).toEqual([0, 0, 0, 0]);
    expect(cellColour(1 / 3, 'colour')).toEqual([0, 200, 80, 170]);
    expect(cellColour(2 / 3, 'colour')).toEqual([255, 230, 0, 255]);
    expect(cellColour(1, 'colour')).toEqual([230, 0, 0, 255]);
    // A tenth of the way: 30% from blue to green (64 + 136 × 0.3, 255 − 175 × 0.3), alpha 2 × 0.1.
    expect(cellColour(0.1, 'colour')).toEqual([0, 105, 203, 51]);
    expect(cellColour(7, 'colour')).toEqual([230, 0, 0, 255]);
  });

  it('darkens where nobody looked', () => {
    expect(cellColour(0, 'dark')).toEqual([0, 0, 0, 255]);
    expect(cellColour(1, 'dark')).toEqual([0, 0, 0, 0]);
    expect(cellColour(0.5, 'dark')).toEqual([0, 0, 0, 128]);
  });

  it('turns a grid into RGBA row by row, padding by repeating the edges', () => {
    const grid = { cols: 2, rows: 1, cells: [0, 255], samples: 5 };
    const plain = gridImage(grid, 'dark');
    expect([plain.width, plain.height]).toEqual([2, 1]);
    expect([...plain.data]).toEqual([0, 0, 0, 255, 0, 0, 0, 0]);
    const padded = gridImage(grid, 'dark', 1);
    expect([padded.width, padded.height]).toEqual([4, 3]);
    const alphas = [...padded.data].filter((_, i) => i % 4 === 3);
    expect(alphas).toEqual([255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0]);
  });

  it('draws only grids with samples and matching cells', () => {
    expect(drawable({ cols: 2, rows: 1, cells: [0, 255], samples: 5 })).toBe(true);
    expect(drawable({ cols: 2, rows: 1, cells: [0, 0], samples: 0 })).toBe(false);
    expect(drawable({ cols: 2, rows: 2, cells: [0, 255], samples: 5 })).toBe(false);
    expect(drawable(null)).toBe(false);
  });
});
