/**
 * Piecewise-affine warp: every triangle of the rig is drawn where its corners go, each output pixel sampled
 * (bilinear) from the source image through its triangle's inverse affine map. Triangles are drawn far to near, so
 * where a turned head folds its far side under its near side the near one is what shows. (They are visited near to
 * far, each pixel taken by the first that covers it: the same picture, without sampling the pixels that would be
 * painted over — about two in three on a phantom frame.)
 */
import type { P2 } from './geometry.ts';
import type { Rgb } from './image.ts';

/** An RGB canvas in floats (0–255), with an alpha channel that the warp writes (0: nothing drawn there). */
export interface Canvas {
  rgb: Float32Array;
  alpha: Float32Array;
  width: number;
  height: number;
}

export function canvas(width: number, height: number): Canvas {
  return { rgb: new Float32Array(width * height * 3), alpha: new Float32Array(width * height), width, height };
}

/** Which pixels of the frame a triangle nearer than the one being drawn has taken (one buffer, reused). */
let drawnScratch = new Uint8Array(0);

/** A bound on the relative rounding of the barycentric weights' few operations (each is within 2⁻⁵³ of exact). */
const ROUNDING = 1e-12;
/** The weights' threshold: a pixel whose weights are all at least this is the triangle's. */
const EDGE = -1e-7;
const range = new Int32Array(2);

/**
 * Into `range`, the pixels of x0…x1 where a weight can pass the test `value >= EDGE`: the weight is affine along the
 * row in exact arithmetic, `left` and `right` are its computed values at x0 and x1, and every computed value is
 * within `err` of the exact. The range is widened by a pixel for the rounding of the crossing itself; when anything
 * is not finite, the whole row.
 */
function keepRange(left: number, right: number, err: number, x0: number, x1: number, out: Int32Array): void {
  const t = EDGE - 2 * err;
  out[0] = x0;
  out[1] = x1;
  if (left >= t && right >= t) return;
  if (left < t && right < t) {
    out[1] = x0 - 1;
    return;
  }
  const crossing = x0 + ((t - left) * (x1 - x0)) / (right - left);
  if (!Number.isFinite(crossing)) return;
  if (right > left) out[0] = Math.max(x0, Math.floor(crossing) - 1);
  else out[1] = Math.min(x1, Math.ceil(crossing) + 1);
}

/** A rectangle of pixels, both ends included. */
export interface PixelRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Draws `triangles` (indices into both point lists) of `source` onto `out`: a triangle of `from` (source pixels)
 * lands on the same triangle of `to` (output pixels). `order`: the triangles' drawing order. `edgeFade`: the
 * width (source pixels) over which the source's border fades out, so the cut-out has no hard edge. `clip`: only the
 * pixels inside it are drawn (each as the whole drawing would draw it).
 */
export function warp(
  source: Rgb,
  from: readonly P2[],
  to: readonly P2[],
  triangles: readonly (readonly [number, number, number])[],
  order: readonly number[],
  out: Canvas,
  edgeFade = 0,
  clip: PixelRect = { x0: 0, y0: 0, x1: out.width - 1, y1: out.height - 1 },
): void {
  const { data, width: sw, height: sh } = source;
  const { rgb, alpha, width: ow, height: oh } = out;
  if (drawnScratch.length < ow * oh) drawnScratch = new Uint8Array(ow * oh);
  const drawn = drawnScratch;
  for (let y = clip.y0; y <= clip.y1; y++) drawn.fill(0, y * ow + clip.x0, y * ow + clip.x1 + 1);
  const right = sw - 0.5;
  const bottom = sh - 0.5;
  const maxX = sw - 1.001;
  const maxY = sh - 1.001;
  for (let k = order.length - 1; k >= 0; k--) {
    const tri = triangles[order[k] as number] as [number, number, number];
    const ia = tri[0];
    const ib = tri[1];
    const ic = tri[2];
    const pa = to[ia] as P2;
    const pb = to[ib] as P2;
    const pc = to[ic] as P2;
    const ax = pa[0];
    const ay = pa[1];
    const bx = pb[0];
    const by = pb[1];
    const cx = pc[0];
    const cy = pc[1];
    const det = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    if (Math.abs(det) < 1e-9) continue;
    const x0 = Math.max(clip.x0, Math.floor(Math.min(ax, bx, cx)));
    const x1 = Math.min(clip.x1, Math.ceil(Math.max(ax, bx, cx)));
    const y0 = Math.max(clip.y0, Math.floor(Math.min(ay, by, cy)));
    const y1 = Math.min(clip.y1, Math.ceil(Math.max(ay, by, cy)));
    if (x0 > x1 || y0 > y1) continue;
    const sa = from[ia] as P2;
    const sb = from[ib] as P2;
    const sc = from[ic] as P2;
    const sax = sa[0];
    const say = sa[1];
    const sbx = sb[0];
    const sby = sb[1];
    const scx = sc[0];
    const scy = sc[1];
    const inv = 1 / det;
    // The barycentric weights' factors that do not change along a row (the same products, in the same order).
    const cyAy = cy - ay;
    const cxAx = cx - ax;
    const bxAx = bx - ax;
    const byAy = by - ay;
    for (let y = y0; y <= y1; y++) {
      const pyAy = y + 0.5 - ay;
      const uRow = cxAx * pyAy;
      const vRow = bxAx * pyAy;
      // Which of the row's pixels can pass the test below: each weight is affine along the row, so from its values
      // at the row's ends (computed as below) follows where it can still reach the threshold, allowing for rounding
      // a thousand times over. Only that range is tested, pixel by pixel as before; the pixels left out fail it.
      const pxL = x0 + 0.5 - ax;
      const pxR = x1 + 0.5 - ax;
      const uL = (pxL * cyAy - uRow) * inv;
      const uR = (pxR * cyAy - uRow) * inv;
      const vL = (vRow - pxL * byAy) * inv;
      const vR = (vRow - pxR * byAy) * inv;
      const reach = Math.max(Math.abs(pxL), Math.abs(pxR));
      const uMax = Math.max(Math.abs(uL), Math.abs(uR));
      const vMax = Math.max(Math.abs(vL), Math.abs(vR));
      const eu = ROUNDING * ((reach * Math.abs(cyAy) + Math.abs(uRow)) * Math.abs(inv) + uMax);
      const ev = ROUNDING * ((reach * Math.abs(byAy) + Math.abs(vRow)) * Math.abs(inv) + vMax);
      keepRange(uL, uR, eu, x0, x1, range);
      let lo = range[0] as number;
      let hi = range[1] as number;
      keepRange(vL, vR, ev, x0, x1, range);
      lo = Math.max(lo, range[0] as number);
      hi = Math.min(hi, range[1] as number);
      keepRange(1 - uL - vL, 1 - uR - vR, eu + ev + ROUNDING * (1 + uMax + vMax), x0, x1, range);
      lo = Math.max(lo, range[0] as number);
      hi = Math.min(hi, range[1] as number);
      for (let x = lo; x <= hi; x++) {
        const p = y * ow + x;
        if (drawn[p]) continue;
        const pxAx = x + 0.5 - ax;
        // Barycentric weights of b and c; a's is what is left.
        const u = (pxAx * cyAy - uRow) * inv;
        const v = (vRow - pxAx * byAy) * inv;
        const w = 1 - u - v;
        if (u < EDGE || v < EDGE || w < EDGE) continue;
        drawn[p] = 1;
        // Source position of the pixel centre, back to the pixel grid.
        const sx = w * sax + u * sbx + v * scx - 0.5;
        const sy = w * say + u * sby + v * scy - 0.5;
        const fx = sx < 0 ? 0 : sx > maxX ? maxX : sx;
        const fy = sy < 0 ? 0 : sy > maxY ? maxY : sy;
        const xi = fx | 0;
        const yi = fy | 0;
        const gx = fx - xi;
        const gy = fy - yi;
        const i00 = (yi * sw + xi) * 3;
        const i01 = i00 + sw * 3;
        const o = p * 3;
        const r00 = data[i00] as number;
        const g00 = data[i00 + 1] as number;
        const b00 = data[i00 + 2] as number;
        const r01 = data[i01] as number;
        const g01 = data[i01 + 1] as number;
        const b01 = data[i01 + 2] as number;
        const rTop = r00 + ((data[i00 + 3] as number) - r00) * gx;
        const gTop = g00 + ((data[i00 + 4] as number) - g00) * gx;
        const bTop = b00 + ((data[i00 + 5] as number) - b00) * gx;
        rgb[o] = rTop + (r01 + ((data[i01 + 3] as number) - r01) * gx - rTop) * gy;
        rgb[o + 1] = gTop + (g01 + ((data[i01 + 4] as number) - g01) * gx - gTop) * gy;
        rgb[o + 2] = bTop + (b01 + ((data[i01 + 5] as number) - b01) * gx - bTop) * gy;
        let a = 1;
        if (edgeFade > 0) {
          const edge = Math.min(sx + 0.5, sy + 0.5, right - sx, bottom - sy);
          a = edge >= edgeFade ? 1 : edge <= 0 ? 0 : edge / edgeFade;
        }
        alpha[p] = a;
      }
    }
  }
}
