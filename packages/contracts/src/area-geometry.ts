/**
 * Areas of interest as shapes (issue 31, item 5; decision 044): a rectangle or a polygon, in any unit (fractions of
 * the item in the contracts, item pixels in the build), still or moving between key frames. Pure functions shared by
 * the server's metrics, its slides and the cabinet's players.
 */

export interface ShapePoint {
  x: number;
  y: number;
}

export type AreaShape =
  | { kind: 'rectangle'; x: number; y: number; width: number; height: number }
  | { kind: 'polygon'; points: ShapePoint[] };

/** A moving area's shape at a moment (s, on the area's clock: from the respondent's first gaze on the video). */
export interface AreaKeyFrame<S extends AreaShape = AreaShape> {
  t: number;
  shape: S;
}

/** The rectangle around a shape. */
export function shapeBounds(shape: AreaShape): { x: number; y: number; width: number; height: number } {
  if (shape.kind === 'rectangle') return { x: shape.x, y: shape.y, width: shape.width, height: shape.height };
  const xs = shape.points.map((p) => p.x);
  const ys = shape.points.map((p) => p.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/**
 * Whether a point lies in a shape: a rectangle with its edges, a polygon by the even-odd rule (a ray to the right
 * crossing its edges an odd number of times), its edges counted in.
 */
export function shapeContains(shape: AreaShape, x: number, y: number): boolean {
  if (shape.kind === 'rectangle') {
    return x >= shape.x && x <= shape.x + shape.width && y >= shape.y && y <= shape.y + shape.height;
  }
  const pts = shape.points;
  let inside = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const a = pts[i] as ShapePoint;
    const b = pts[j] as ShapePoint;
    if (onSegment(a, b, x, y)) return true;
    if (a.y > y !== b.y > y && x < ((b.x - a.x) * (y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

function onSegment(a: ShapePoint, b: ShapePoint, x: number, y: number): boolean {
  const cross = (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x);
  const scale = Math.hypot(b.x - a.x, b.y - a.y);
  if (Math.abs(cross) > 1e-9 * Math.max(1, scale * scale)) return false;
  return x >= Math.min(a.x, b.x) && x <= Math.max(a.x, b.x) && y >= Math.min(a.y, b.y) && y <= Math.max(a.y, b.y);
}

/** Two shapes can be interpolated: the same kind, and a polygon the same number of points. */
export function sameShapeKind(a: AreaShape, b: AreaShape): boolean {
  if (a.kind === 'rectangle' || b.kind === 'rectangle') return a.kind === b.kind;
  return a.points.length === b.points.length;
}

const mix = (a: number, b: number, f: number) => a + (b - a) * f;

/** The shape `f` (0..1) of the way from `a` to `b`, each coordinate linearly; `a` when they cannot be mixed. */
export function interpolateShape<S extends AreaShape>(a: S, b: S, f: number): S {
  if (a.kind === 'rectangle' && b.kind === 'rectangle') {
    return {
      kind: 'rectangle',
      x: mix(a.x, b.x, f),
      y: mix(a.y, b.y, f),
      width: mix(a.width, b.width, f),
      height: mix(a.height, b.height, f),
    } as S;
  }
  if (a.kind === 'polygon' && b.kind === 'polygon' && a.points.length === b.points.length) {
    return {
      kind: 'polygon',
      points: a.points.map((p, i) => {
        const q = b.points[i] as ShapePoint;
        return { x: mix(p.x, q.x, f), y: mix(p.y, q.y, f) };
      }),
    } as S;
  }
  return a;
}

/**
 * An area's shape at `t`: its still shape without key frames; with them (in time order), linear between the two
 * around `t`, the first's before the first and the last's after the last.
 */
export function shapeAt<S extends AreaShape>(
  area: { shape: S; key_frames?: readonly AreaKeyFrame<S>[] },
  t: number,
): S {
  const frames = area.key_frames ?? [];
  const first = frames[0];
  const last = frames.at(-1);
  if (!first || !last) return area.shape;
  if (t <= first.t) return first.shape;
  if (t >= last.t) return last.shape;
  let k = 1;
  while (k < frames.length - 1 && (frames[k] as AreaKeyFrame<S>).t < t) k++;
  const before = frames[k - 1] as AreaKeyFrame<S>;
  const after = frames[k] as AreaKeyFrame<S>;
  return interpolateShape(before.shape, after.shape, (t - before.t) / (after.t - before.t));
}

/** A shape with its x scaled by `sx` and its y by `sy` (fractions of an item to its pixels). */
export function scaleShape(shape: AreaShape, sx: number, sy: number): AreaShape {
  if (shape.kind === 'rectangle') {
    return { kind: 'rectangle', x: shape.x * sx, y: shape.y * sy, width: shape.width * sx, height: shape.height * sy };
  }
  return { kind: 'polygon', points: shape.points.map((p) => ({ x: p.x * sx, y: p.y * sy })) };
}

/** Twice the polygon's signed area (shoelace). */
export function polygonArea2(points: readonly ShapePoint[]): number {
  let sum = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const a = points[j] as ShapePoint;
    const b = points[i] as ShapePoint;
    sum += a.x * b.y - b.x * a.y;
  }
  return sum;
}

const orient = (a: ShapePoint, b: ShapePoint, c: ShapePoint) =>
  Math.sign((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));

/** Whether two edges that share no end cross or touch. */
function edgesMeet(a: ShapePoint, b: ShapePoint, c: ShapePoint, d: ShapePoint): boolean {
  const o1 = orient(a, b, c);
  const o2 = orient(a, b, d);
  const o3 = orient(c, d, a);
  const o4 = orient(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  const within = (p: ShapePoint, q: ShapePoint, r: ShapePoint) =>
    r.x >= Math.min(p.x, q.x) && r.x <= Math.max(p.x, q.x) && r.y >= Math.min(p.y, q.y) && r.y <= Math.max(p.y, q.y);
  return (
    (o1 === 0 && within(a, b, c)) ||
    (o2 === 0 && within(a, b, d)) ||
    (o3 === 0 && within(c, d, a)) ||
    (o4 === 0 && within(c, d, b))
  );
}

/** A simple polygon: some area, and no two edges that are not neighbours meet (nor do neighbours fold back). */
export function isSimplePolygon(points: readonly ShapePoint[]): boolean {
  const n = points.length;
  if (n < 3 || Math.abs(polygonArea2(points)) < 1e-12) return false;
  for (let i = 0; i < n; i++) {
    const a = points[i] as ShapePoint;
    const b = points[(i + 1) % n] as ShapePoint;
    if (a.x === b.x && a.y === b.y) return false;
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      if (edgesMeet(a, b, points[j] as ShapePoint, points[(j + 1) % n] as ShapePoint)) return false;
    }
  }
  return true;
}
