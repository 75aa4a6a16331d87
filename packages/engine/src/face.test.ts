import { describe, expect, it } from 'vitest';
import { eyeFeatures } from './face.ts';

type P = [number, number, number];

/**
 * A 478-point mesh with only what eyeFeatures reads: the corners of both eyes on a level face (the subject's right
 * eye on the image's left, 40 px wide) and both irises (centre and four boundary points) displaced by (dx, dy).
 */
function mesh(dx: number, dy: number): P[] {
  const points: P[] = Array.from({ length: 478 }, (): P => [0, 0, 0]);
  points[33] = [200, 200, 0]; // right eye, outer corner
  points[133] = [240, 200, 0]; // right eye, inner corner
  points[362] = [300, 200, 0]; // left eye, inner corner
  points[263] = [340, 200, 0]; // left eye, outer corner
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
