import { describe, expect, it } from 'vitest';
import { GREY, greyPatch } from './image.ts';

describe('greyPatch', () => {
  it('repeats the frame’s edge pixels outside the frame (no black bands in a face the frame cuts)', () => {
    // 4×4 frame: each pixel's grey value is 10 × (its column + 1), rows alike.
    const width = 4;
    const height = 4;
    const data = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) data.fill(10 * (x + 1), 3 * (y * width + x), 3 * (y * width + x) + 3);
    const grey = (v: number) => (GREY[0] + GREY[1] + GREY[2]) * v;
    // A patch centred on the top-left corner, 3 pixels each way, one frame pixel per patch pixel.
    const p = greyPatch({ data, width, height }, 0, 0, 3, 1);
    expect(p.x0).toBe(-3);
    expect(p.width).toBe(6);
    const at = (px: number, py: number) => p.data[py * p.width + px] as number;
    // Left of the frame: column 0's value; above it: the top row's; inside: the pixel itself.
    expect(at(0, 0)).toBeCloseTo(grey(10), 4);
    expect(at(0, 5)).toBeCloseTo(grey(10), 4);
    expect(at(4, 0)).toBeCloseTo(grey(20), 4);
    expect(at(5, 4)).toBeCloseTo(grey(30), 4);
    // Averaged blocks reaching outside average the repeated edge too.
    const q = greyPatch({ data, width, height }, 0, 0, 2, 2);
    expect(q.data[0]).toBeCloseTo(grey(10), 4);
    expect(q.data[1]).toBeCloseTo(grey(15), 4);
  });
});
