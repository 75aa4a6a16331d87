/**
 * Piecewise-affine warp: every triangle of the rig is drawn where its corners go, each output pixel sampled
 * (bilinear) from the source image through its triangle's inverse affine map. Triangles are drawn far to near, so
 * where a turned head folds its far side under its near side the near one is what shows.
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

/**
 * Draws `triangles` (indices into both point lists) of `source` onto `out`: a triangle of `from` (source pixels)
 * lands on the same triangle of `to` (output pixels). `order`: the triangles' drawing order. `edgeFade`: the
 * width (source pixels) over which the source's border fades out, so the cut-out has no hard edge.
 */
export function warp(
  source: Rgb,
  from: readonly P2[],
  to: readonly P2[],
  triangles: readonly (readonly [number, number, number])[],
  order: readonly number[],
  out: Canvas,
  edgeFade = 0,
): void {
  const { data, width: sw, height: sh } = source;
  const { rgb, alpha, width: ow, height: oh } = out;
  for (const t of order) {
    const [ia, ib, ic] = triangles[t] as [number, number, number];
    const [ax, ay] = to[ia] as P2;
    const [bx, by] = to[ib] as P2;
    const [cx, cy] = to[ic] as P2;
    const det = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    if (Math.abs(det) < 1e-9) continue;
    const [sax, say] = from[ia] as P2;
    const [sbx, sby] = from[ib] as P2;
    const [scx, scy] = from[ic] as P2;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
    const x1 = Math.min(ow - 1, Math.ceil(Math.max(ax, bx, cx)));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy)));
    const y1 = Math.min(oh - 1, Math.ceil(Math.max(ay, by, cy)));
    const inv = 1 / det;
    for (let y = y0; y <= y1; y++) {
      const py = y + 0.5;
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5;
        // Barycentric weights of b and c; a's is what is left.
        const u = ((px - ax) * (cy - ay) - (cx - ax) * (py - ay)) * inv;
        const v = ((bx - ax) * (py - ay) - (px - ax) * (by - ay)) * inv;
        const w = 1 - u - v;
        if (u < -1e-7 || v < -1e-7 || w < -1e-7) continue;
        // Source position of the pixel centre, back to the pixel grid.
        const sx = w * sax + u * sbx + v * scx - 0.5;
        const sy = w * say + u * sby + v * scy - 0.5;
        const fx = sx < 0 ? 0 : sx > sw - 1.001 ? sw - 1.001 : sx;
        const fy = sy < 0 ? 0 : sy > sh - 1.001 ? sh - 1.001 : sy;
        const xi = fx | 0;
        const yi = fy | 0;
        const gx = fx - xi;
        const gy = fy - yi;
        const i00 = (yi * sw + xi) * 3;
        const i01 = i00 + sw * 3;
        const o = (y * ow + x) * 3;
        for (let c = 0; c < 3; c++) {
          const top = (data[i00 + c] as number) + ((data[i00 + 3 + c] as number) - (data[i00 + c] as number)) * gx;
          const bottom = (data[i01 + c] as number) + ((data[i01 + 3 + c] as number) - (data[i01 + c] as number)) * gx;
          rgb[o + c] = top + (bottom - top) * gy;
        }
        let a = 1;
        if (edgeFade > 0) {
          const edge = Math.min(sx + 0.5, sy + 0.5, sw - 0.5 - sx, sh - 0.5 - sy);
          a = edge >= edgeFade ? 1 : edge <= 0 ? 0 : edge / edgeFade;
        }
        alpha[y * ow + x] = a;
      }
    }
  }
}
