import { describe, expect, it } from 'vitest';
import { eyeFeatures } from './face.ts';

type P = [number, number, number];

/**
 * A 478-point mesh with only what eyeFeatures reads: the corners and lids of both eyes on a level face (the
 * subject's right eye on the image's left, 40 px wide, each lid's seven points 5 px above or below the corners'
 * line, evenly either side of the eye's middle) and both irises (centre and four boundary points) displaced by
 * (dx, dy).
 */
function mesh(dx: number, dy: number): P[] {
  const points: P[] = Array.from({ length: 478 }, (): P => [0, 0, 0]);
  points[33] = [200, 200, 0]; // right eye, outer corner
  points[133] = [240, 200, 0]; // right eye, inner corner
  points[362] = [300, 200, 0]; // left eye, inner corner
  points[263] = [340, 200, 0]; // left eye, outer corner
  const lids = (upper: number[], lower: number[], middle: number) => {
    for (const [k, i] of upper.entries()) points[i] = [middle + 5 * (k - 3), 195, 0];
    for (const [k, i] of lower.entries()) points[i] = [middle + 5 * (k - 3), 205, 0];
  };
  lids([246, 161, 160, 159, 158, 157, 173], [7, 163, 144, 145, 153, 154, 155], 220);
  lids([466, 388, 387, 386, 385, 384, 398], [249, 390, 373, 374, 380, 381, 382], 320);
  const iris = (first: number, cx: number) => {
    const c: P = [cx + dx, 200 + dy, 0];
    points[first] = c;
    const ring: [number, number][] = [
      [5, 0],
      [0, 5],
      [-5, 0],
      [0, -5],
    ];
    for (const [k, [ox, oy]] of ring.entries()) points[first + 1 + k] = [c[0] + ox, c[1] + oy, 0];
  };
  iris(468, 320);
  iris(473, 220);
  return points;
}

describe('eyeFeatures', () => {
  it('places each iris along its own outer → inner axis, halfway for centred eyes', () => {
    const e = eyeFeatures(mesh(0, 0));
    expect(e?.right.x).toBeCloseTo(0.5, 6);
    expect(e?.left.x).toBeCloseTo(0.5, 6);
    expect(e?.right.y).toBeCloseTo(0, 6);
    expect(e?.left.y).toBeCloseTo(0, 6);
  });

  it('a glance to the image right moves the two x values in opposite directions', () => {
    const e = eyeFeatures(mesh(4, 0));
    expect(e?.right.x).toBeCloseTo(0.6, 6); // towards its inner corner
    expect(e?.left.x).toBeCloseTo(0.4, 6); // towards its outer corner
  });

  it('a glance down makes y positive for both eyes (in eye widths)', () => {
    const e = eyeFeatures(mesh(0, 4));
    expect(e?.right.y).toBeCloseTo(0.1, 6);
    expect(e?.left.y).toBeCloseTo(0.1, 6);
  });

  it("measures from the mean of the opening's 16 points: one lid point 16 px higher moves the centre 1 px up", () => {
    const m = mesh(0, 0);
    m[159] = [220, 195 - 16, 0]; // the right eye's upper lid middle
    const e = eyeFeatures(m);
    expect(e?.right.y).toBeCloseTo(1 / 40, 6);
    expect(e?.right.x).toBeCloseTo(0.5, 6);
    expect(e?.left.y).toBeCloseTo(0, 6);
  });

  it('is unchanged when the whole face rolls', () => {
    const turn = (p: P[], degrees: number): P[] => {
      const a = (degrees * Math.PI) / 180;
      return p.map(([x, y, z]) => [x * Math.cos(a) - y * Math.sin(a), x * Math.sin(a) + y * Math.cos(a), z]);
    };
    const level = eyeFeatures(mesh(3, 2));
    const rolled = eyeFeatures(turn(mesh(3, 2), 15));
    for (const eye of ['left', 'right'] as const) {
      expect(rolled?.[eye].x).toBeCloseTo(level?.[eye].x ?? Number.NaN, 6);
      expect(rolled?.[eye].y).toBeCloseTo(level?.[eye].y ?? Number.NaN, 6);
    }
  });
});
