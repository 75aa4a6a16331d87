/** MediaPipe face-mesh landmarks the phantom moves, and the Delaunay triangulation the warp runs on. */
import type { P2 } from './geometry.ts';

/** The face's outline, clockwise from the top of the forehead. */
export const FACE_OVAL = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136,
  172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
] as const;

/** The points that define the head's axes: forehead top, chin, the cheeks' outer edges (the engine's head angles). */
export const AXIS = { top: 10, chin: 152, right: 234, left: 454 } as const;

/** Each eye's opening, clockwise from the outer corner along the upper lid, and its iris (centre, four edge points). */
export const EYES = [
  {
    side: 'right',
    outer: 33,
    inner: 133,
    upper: [246, 161, 160, 159, 158, 157, 173],
    lower: [7, 163, 144, 145, 153, 154, 155],
    /** The skin above the upper lid (the lid's fold and the brow's underside), which a blink draws down. */
    lid: [247, 30, 29, 27, 28, 56, 190, 113, 225, 224, 223, 222, 221, 189],
    iris: [468, 469, 470, 471, 472],
  },
  {
    side: 'left',
    outer: 263,
    inner: 362,
    upper: [466, 388, 387, 386, 385, 384, 398],
    lower: [249, 390, 373, 374, 380, 381, 382],
    lid: [467, 260, 259, 257, 258, 286, 414, 342, 445, 444, 443, 442, 441, 413],
    iris: [473, 474, 475, 476, 477],
  },
] as const;

export type EyeLandmarks = (typeof EYES)[number];

/** The eye opening's outline as a polygon: outer corner, upper lid, inner corner, lower lid back. */
export const eyeOutline = (eye: EyeLandmarks): number[] => [
  eye.outer,
  ...eye.upper,
  eye.inner,
  ...[...eye.lower].reverse(),
];

export const LIPS = {
  corners: [61, 291],
  /** Inner lip contour: from the right corner along the upper lip, then back along the lower lip. */
  innerUpper: [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308],
  innerLower: [95, 88, 178, 87, 14, 317, 402, 318, 324],
  upperMid: 0,
  lowerMid: 17,
} as const;

export const BROWS = {
  right: [70, 63, 105, 66, 107, 46, 53, 52, 65, 55],
  left: [300, 293, 334, 296, 336, 276, 283, 282, 295, 285],
  /** The brows' inner ends, which a frown draws together. */
  innerRight: [107, 55, 65, 66],
  innerLeft: [336, 285, 295, 296],
} as const;

/** The cheeks' raised mass in a smile. */
export const CHEEKS = { right: [50, 101, 36, 205, 187, 123], left: [280, 330, 266, 425, 411, 352] } as const;

export const CHIN = [152, 148, 176, 149, 150, 377, 400, 378, 379, 175, 199, 200, 18, 83, 313] as const;

export const MESH_POINTS = 468;

/**
 * Delaunay triangulation (Bowyer–Watson) of `points`: triangles as index triples. O(n²), run once per face source
 * on some 550 points.
 */
export function delaunay(points: readonly P2[]): [number, number, number][] {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const [x, y] of points) {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  }
  const span = Math.max(maxX - minX, maxY - minY) * 20;
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  const all: P2[] = [...points, [cx - span, cy - span], [cx + span, cy - span], [cx, cy + span]];
  const n = points.length;
  type Tri = { a: number; b: number; c: number; x: number; y: number; r2: number };
  const circum = (a: number, b: number, c: number): Tri => {
    const [ax, ay] = all[a] as P2;
    const [bx, by] = all[b] as P2;
    const [qx, qy] = all[c] as P2;
    const d = 2 * (ax * (by - qy) + bx * (qy - ay) + qx * (ay - by));
    const a2 = ax * ax + ay * ay;
    const b2 = bx * bx + by * by;
    const c2 = qx * qx + qy * qy;
    const x = (a2 * (by - qy) + b2 * (qy - ay) + c2 * (ay - by)) / d;
    const y = (a2 * (qx - bx) + b2 * (ax - qx) + c2 * (bx - ax)) / d;
    return { a, b, c, x, y, r2: (ax - x) ** 2 + (ay - y) ** 2 };
  };
  let tris: Tri[] = [circum(n, n + 1, n + 2)];
  for (let i = 0; i < n; i++) {
    const [px, py] = all[i] as P2;
    const bad: Tri[] = [];
    const keep: Tri[] = [];
    for (const t of tris) ((px - t.x) ** 2 + (py - t.y) ** 2 < t.r2 ? bad : keep).push(t);
    // The hole's boundary: edges of the removed triangles that only one of them has.
    const edges = new Map<string, [number, number]>();
    for (const t of bad) {
      for (const [u, v] of [
        [t.a, t.b],
        [t.b, t.c],
        [t.c, t.a],
      ] as [number, number][]) {
        const key = u < v ? `${u},${v}` : `${v},${u}`;
        if (edges.has(key)) edges.delete(key);
        else edges.set(key, [u, v]);
      }
    }
    for (const [u, v] of edges.values()) keep.push(circum(u, v, i));
    tris = keep;
  }
  return tris.filter((t) => t.a < n && t.b < n && t.c < n).map((t) => [t.a, t.b, t.c]);
}
