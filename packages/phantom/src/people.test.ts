import { describe, expect, it } from 'vitest';
import { blank, type Rgb } from './image.ts';
import { type Phantom, preparePhantom, renderFrame } from './render.ts';
import { parseScript } from './script.ts';

// Noise off: the pictures compared below differ only by what the script changes. 30 fps: frame 15 is at 0.5 s.
const script = parseScript({
  name: 'people',
  description: 'out of view 0.4–0.8 s, a second person 1.0–1.4 s',
  source: 'astronaut',
  noise: 0,
  durationMs: 1500,
  absences: [{ startMs: 400, endMs: 800 }],
  companions: [{ source: 'sample6-0', startMs: 1000, endMs: 1400, x: 0.87, y: 0.45, widthPx: 130 }],
});
const frame = (p: Phantom, i: number) => {
  const out = blank(p.script.frame.width, p.script.frame.height);
  return { truth: renderFrame(p, i, out), out };
};
/** Mean absolute difference of two pictures over a box of the frame (a share of its width and height). */
const difference = (a: Rgb, b: Rgb, box: { x0: number; x1: number; y0: number; y1: number }) => {
  let sum = 0;
  let n = 0;
  for (let y = Math.round(box.y0 * a.height); y < Math.round(box.y1 * a.height); y++)
    for (let x = Math.round(box.x0 * a.width); x < Math.round(box.x1 * a.width); x++)
      for (let c = 0; c < 3; c++) {
        const o = (y * a.width + x) * 3 + c;
        sum += Math.abs((a.data[o] as number) - (b.data[o] as number));
        n++;
      }
  return sum / n;
};
const FACE = { x0: 0.4, x1: 0.6, y0: 0.35, y1: 0.6 };
const BESIDE = { x0: 0.8, x1: 0.94, y0: 0.35, y1: 0.55 };

describe('people in view', () => {
  it('a respondent out of view leaves the room only; a second person comes in beside them; the truth counts faces', async () => {
    const p = await preparePhantom(script);
    const present = frame(p, 3);
    const away = frame(p, 18);
    const back = frame(p, 27);
    const two = frame(p, 36);
    expect([present, away, back, two].map((f) => f.truth.faces)).toEqual([1, 0, 1, 2]);
    // The face is gone while away and the same once back; the second person changes only their side of the frame.
    expect(difference(present.out, away.out, FACE)).toBeGreaterThan(20);
    expect(difference(present.out, back.out, FACE)).toBe(0);
    expect(difference(present.out, two.out, BESIDE)).toBeGreaterThan(20);
    expect(difference(present.out, two.out, FACE)).toBe(0);
  }, 60_000);
});
