import { describe, expect, it } from 'vitest';
import type { P3 } from './constants.ts';
import { EXPRESSION_ANCHORS, EXPRESSION_CROP_SCALE, expressionCrop } from './geometry.ts';

// Where the anchors lie on an upright frontal face, in face widths from its centre (eye corners level, the nose's line).
const ANCHOR_AT: Record<number, [number, number]> = {
  33: [-0.31, -0.24],
  133: [-0.12, -0.24],
  263: [0.31, -0.24],
  362: [0.12, -0.24],
  168: [0, -0.24],
  6: [0, -0.17],
  197: [0, -0.1],
  195: [0, -0.03],
  5: [0, 0.04],
  4: [0, 0.08],
  1: [0, 0.1],
};

/** A face-like mesh: 468 points filling an oval (the outline), the anchors where a face has them. */
function face(cx: number, cy: number, width: number, outline = 1): P3[] {
  const mesh: P3[] = [];
  for (let i = 0; i < 468; i++) {
    const a = (2 * Math.PI * i) / 468;
    const r = outline * (0.3 + (0.2 * ((i * 7) % 11)) / 10);
    const at = ANCHOR_AT[i];
    const [u, v] = at ?? [r * Math.cos(a), 1.25 * r * Math.sin(a)];
    mesh.push([cx + u * width, cy + v * width, 0]);
  }
  return mesh;
}

const FRAME = { width: 640, height: 480 };

describe('expressionCrop', () => {
  it('frames a whole face by the mesh’s extent, with or without the frame', () => {
    const mesh = face(320, 240, 200);
    const crop = expressionCrop(mesh, FRAME);
    expect(crop).toEqual(expressionCrop(mesh));
    const ys = mesh.map((p) => p[1]);
    expect(crop.side).toBeCloseTo((Math.max(...ys) - Math.min(...ys)) * EXPRESSION_CROP_SCALE, 6);
  });

  it('frames a face the frame cuts by its rigid points: the guessed outline does not move the crop', () => {
    // The top of a 400 px face above the frame; the mesh's outline there is a guess that may grow or shift.
    const cut = expressionCrop(face(320, 230, 400), FRAME);
    const grown = face(320, 230, 400, 1.1).map((p, i): P3 => (i in ANCHOR_AT ? p : [p[0] + 12, p[1], 0]));
    expect(expressionCrop(grown, FRAME)).toEqual(cut);
    // Read by the extent, the same change moves and grows the crop.
    expect(expressionCrop(grown).side).toBeGreaterThan(expressionCrop(face(320, 230, 400)).side * 1.05);
    expect(EXPRESSION_ANCHORS.every((i) => i in ANCHOR_AT)).toBe(true);
  });

  it('a cut face’s crop follows the face: twice the size, twice the side; turned, turned alike', () => {
    const small = expressionCrop(face(320, 100, 300), FRAME);
    const large = expressionCrop(face(320, 100, 600), FRAME);
    expect(large.side / small.side).toBeCloseTo(2, 6);
    const turn = 0.3;
    const turned = face(320, 100, 300).map(([x, y]): P3 => {
      const dx = x - 320;
      const dy = y - 100;
      return [320 + dx * Math.cos(turn) - dy * Math.sin(turn), 100 + dx * Math.sin(turn) + dy * Math.cos(turn), 0];
    });
    const t = expressionCrop(turned, FRAME);
    expect(t.radians - small.radians).toBeCloseTo(turn, 6);
    expect(t.side).toBeCloseTo(small.side, 6);
  });
});
