/**
 * Small 3-D helpers. Coordinates follow the image: x to the right, y down, z away from the camera (the face mesh's
 * own convention: a smaller z is nearer). A rotation is a row-major 3×3 matrix.
 */
export type P2 = [number, number];
export type P3 = [number, number, number];
export type Mat3 = [number, number, number, number, number, number, number, number, number];

export const DEG = Math.PI / 180;

export const sub = (a: P3, b: P3): P3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const add = (a: P3, b: P3): P3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const scale = (a: P3, k: number): P3 => [a[0] * k, a[1] * k, a[2] * k];
export const dot = (a: P3, b: P3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: P3, b: P3): P3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const norm = (a: P3): P3 => scale(a, 1 / Math.hypot(a[0], a[1], a[2]));

export function apply(m: Mat3, p: P3): P3 {
  return [
    m[0] * p[0] + m[1] * p[1] + m[2] * p[2],
    m[3] * p[0] + m[4] * p[1] + m[5] * p[2],
    m[6] * p[0] + m[7] * p[1] + m[8] * p[2],
  ];
}

export function multiply(a: Mat3, b: Mat3): Mat3 {
  const out = new Array(9).fill(0) as Mat3;
  const at = (m: Mat3, i: number) => m[i] as number;
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++)
      out[3 * r + c] = at(a, 3 * r) * at(b, c) + at(a, 3 * r + 1) * at(b, 3 + c) + at(a, 3 * r + 2) * at(b, 6 + c);
  return out;
}

export const transpose = (m: Mat3): Mat3 => [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]];

/**
 * The head's rotation from its angles (degrees), in the engine's convention (`@emolens/engine` head-pose.ts,
 * docs/engine.md "Head pose"): right-handed turns about the camera's axes (x right, y down, z away). Yaw about the
 * vertical axis (positive: the face turns to the image's left), pitch about the horizontal one (positive: the face
 * tips down), roll in the image plane (positive: clockwise on the image). Applied to head coordinates as
 * roll · yaw · pitch (pitch first).
 */
export function rotation(yaw: number, pitch: number, roll: number): Mat3 {
  const [cy, sy] = [Math.cos(yaw * DEG), Math.sin(yaw * DEG)];
  const [cp, sp] = [Math.cos(pitch * DEG), Math.sin(pitch * DEG)];
  const [cr, sr] = [Math.cos(roll * DEG), Math.sin(roll * DEG)];
  // Yaw: the nose (z < 0, towards the camera) moves to −x. Pitch: the nose moves down (+y). Roll: +x turns to +y.
  const ry: Mat3 = [cy, 0, sy, 0, 1, 0, -sy, 0, cy];
  const rx: Mat3 = [1, 0, 0, 0, cp, -sp, 0, sp, cp];
  const rz: Mat3 = [cr, -sr, 0, sr, cr, 0, 0, 0, 1];
  return multiply(rz, multiply(ry, rx));
}

/** 0 → 0, 1 → 1 with flat ends. */
export const smoothstep = (x: number) => {
  const t = Math.min(1, Math.max(0, x));
  return t * t * (3 - 2 * t);
};

export const lerp = (a: number, b: number, t: number) => a + (b - a) * t;

/** Linear interpolation through keyframes sorted by `t` (held before the first and after the last). */
export function interpolate<K extends { t: number }>(keys: readonly K[], t: number, value: (k: K) => number): number {
  const first = keys[0];
  if (!first) return 0;
  if (t <= first.t) return value(first);
  for (let i = 1; i < keys.length; i++) {
    const b = keys[i] as K;
    if (t <= b.t) {
      const a = keys[i - 1] as K;
      const span = b.t - a.t;
      return lerp(value(a), value(b), span > 0 ? smoothstep((t - a.t) / span) : 1);
    }
  }
  return value(keys.at(-1) as K);
}

/** Crossing-number test of (x, y) against a polygon. */
export function inside(poly: readonly P2[], x: number, y: number): boolean {
  let hit = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i] as P2;
    const [xj, yj] = poly[j] as P2;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

/**
 * Where the polygon's edges cross the row at `y`, into `into` (room for one per edge); returns how many. (x, y) is
 * inside the polygon when `crossedRightOf` it, an odd number lie right of x: `inside`'s test with its arithmetic,
 * the row's part worked out once.
 */
export function crossingsAt(poly: readonly P2[], y: number, into: Float64Array): number {
  let m = 0;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i] as P2;
    const [xj, yj] = poly[j] as P2;
    if (yi > y !== yj > y) into[m++] = ((xj - xi) * (y - yi)) / (yj - yi) + xi;
  }
  return m;
}

/** Whether an odd number of the row's first `m` crossings lie right of x (inside, for `crossingsAt`'s row). */
export function crossedRightOf(crossings: Float64Array, m: number, x: number): boolean {
  let hit = false;
  for (let e = 0; e < m; e++) if (x < (crossings[e] as number)) hit = !hit;
  return hit;
}
