import type { AreaKeyFrame, AreaShape } from '@emolens/contracts';
import { round4 } from '../content/zone-geometry.ts';

/** A shape moved by (dx, dy), kept inside the item (fractions): it stops at the edges. */
export function moveShape(shape: AreaShape, dx: number, dy: number): AreaShape {
  const xs = shape.kind === 'rectangle' ? [shape.x, shape.x + shape.width] : shape.points.map((p) => p.x);
  const ys = shape.kind === 'rectangle' ? [shape.y, shape.y + shape.height] : shape.points.map((p) => p.y);
  const sx = Math.min(Math.max(dx, -Math.min(...xs)), 1 - Math.max(...xs));
  const sy = Math.min(Math.max(dy, -Math.min(...ys)), 1 - Math.max(...ys));
  if (shape.kind === 'rectangle') return { ...shape, x: round4(shape.x + sx), y: round4(shape.y + sy) };
  return { kind: 'polygon', points: shape.points.map((p) => ({ x: round4(p.x + sx), y: round4(p.y + sy) })) };
}

/** Key frames with `frame` set: one at the same moment (within 0.05 s) replaced, the list in time order. */
export function withKeyFrame(frames: readonly AreaKeyFrame[], frame: AreaKeyFrame): AreaKeyFrame[] {
  const t = Math.round(frame.t * 10) / 10;
  return [...frames.filter((k) => Math.abs(k.t - t) >= 0.05), { t, shape: frame.shape }].sort((a, b) => a.t - b.t);
}
