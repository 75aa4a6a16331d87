/**
 * The pixel operations around the face models, on plain arrays (RGB, row-major, 3 channels). The
 * interpolation follows TensorFlow's kernels (resizeBilinear without corner alignment, cropAndResize
 * with its (size - 1) scaling and zero outside the image, rotateWithOffset's nearest pixel), so the
 * models see the same input as under Human.
 */

export interface Image {
  data: Uint8Array | Float32Array;
  width: number;
  height: number;
}

/** Rotation of the whole frame about a centre before cropping, as tfjs `rotateWithOffset` (radians). */
export interface Rotation {
  radians: number;
  cx: number;
  cy: number;
}

/**
 * Bilinear resize of the whole image to `size`×`size`, each value mapped by `v * scale + offset`,
 * written to `out` (NHWC) at `offset0`.
 */
export function resizeBilinear(
  img: Image,
  outW: number,
  outH: number,
  out: Float32Array,
  scale = 1,
  offset = 0,
  offset0 = 0,
): void {
  const { data, width, height } = img;
  const sy = height / outH;
  const sx = width / outW;
  const xs0 = new Int32Array(outW);
  const xs1 = new Int32Array(outW);
  const xl = new Float32Array(outW);
  for (let x = 0; x < outW; x++) {
    const fx = x * sx;
    const x0 = Math.max(0, Math.floor(fx));
    xs0[x] = x0 * 3;
    xs1[x] = Math.min(width - 1, Math.ceil(fx)) * 3;
    xl[x] = fx - x0;
  }
  let o = offset0;
  for (let y = 0; y < outH; y++) {
    const fy = y * sy;
    const y0 = Math.max(0, Math.floor(fy));
    const r0 = y0 * width * 3;
    const r1 = Math.min(height - 1, Math.ceil(fy)) * width * 3;
    const yl = fy - y0;
    for (let x = 0; x < outW; x++) {
      const a = r0 + (xs0[x] as number);
      const b = r0 + (xs1[x] as number);
      const c = r1 + (xs0[x] as number);
      const d = r1 + (xs1[x] as number);
      const l = xl[x] as number;
      for (let ch = 0; ch < 3; ch++) {
        const top = (data[a + ch] as number) + ((data[b + ch] as number) - (data[a + ch] as number)) * l;
        const bottom = (data[c + ch] as number) + ((data[d + ch] as number) - (data[c + ch] as number)) * l;
        out[o++] = (top + (bottom - top) * yl) * scale + offset;
      }
    }
  }
}

/**
 * tfjs `cropAndResize` (bilinear, extrapolation 0) of the box [y1, x1, y2, x2] (fractions of the
 * image) to `size`×`size`, optionally from the image rotated by `rotation` first (nearest pixel, fill
 * 0), values times `scale`, into `out` at `offset0`; `flip` mirrors the result left-right.
 */
export function cropAndResize(
  img: Image,
  box: [number, number, number, number],
  size: number,
  out: Float32Array,
  options: { scale?: number; rotation?: Rotation | null; flip?: boolean; offset0?: number } = {},
): void {
  const { data, width, height } = img;
  const scale = options.scale ?? 1;
  const o0 = options.offset0 ?? 0;
  const [y1, x1, y2, x2] = box;
  const hs = size > 1 ? ((y2 - y1) * (height - 1)) / (size - 1) : 0;
  const ws = size > 1 ? ((x2 - x1) * (width - 1)) / (size - 1) : 0;
  const rot = options.rotation;
  const cos = rot ? Math.cos(rot.radians) : 1;
  const sin = rot ? Math.sin(rot.radians) : 0;
  const cx = rot?.cx ?? 0;
  const cy = rot?.cy ?? 0;
  // Per output column, computed once (the rows reuse them): the source columns on each side, the weight between
  // them, and for a rotation the column's share of the rotated position, (x − cx)·cos and (x − cx)·sin — the same
  // products, in the same order, as rotating each pixel on its own (tfjs rotateWithOffset), so the same values.
  const inside = new Uint8Array(size);
  const lefts = new Int32Array(size);
  const rights = new Int32Array(size);
  const weights = new Float64Array(size);
  const cosL = new Float64Array(size);
  const sinL = new Float64Array(size);
  const cosR = new Float64Array(size);
  const sinR = new Float64Array(size);
  for (let x = 0; x < size; x++) {
    const fx = size > 1 ? x1 * (width - 1) + x * ws : 0.5 * (x1 + x2) * (width - 1);
    if (fx < 0 || fx > width - 1) continue;
    inside[x] = 1;
    const left = Math.floor(fx);
    const right = Math.ceil(fx);
    lefts[x] = left;
    rights[x] = right;
    weights[x] = fx - left;
    cosL[x] = (left - cx) * cos;
    sinL[x] = (left - cx) * sin;
    cosR[x] = (right - cx) * cos;
    sinR[x] = (right - cx) * sin;
  }
  // Index of the source pixel under the rotated image's (x, y), from the column's and the row's shares; -1 outside.
  const rotated = (xCos: number, xSin: number, ySin: number, yCos: number): number => {
    const sx = Math.round(xCos - ySin + cx);
    const sy = Math.round(xSin + yCos + cy);
    return sx >= 0 && sx < width && sy >= 0 && sy < height ? (sy * width + sx) * 3 : -1;
  };
  // Each output column's place in the output row (mirrored for `flip`).
  const outX = new Int32Array(size);
  for (let x = 0; x < size; x++) outX[x] = (options.flip ? size - 1 - x : x) * 3;
  for (let y = 0; y < size; y++) {
    const fy = size > 1 ? y1 * (height - 1) + y * hs : 0.5 * (y1 + y2) * (height - 1);
    const rowOut = o0 + y * size * 3;
    if (fy < 0 || fy > height - 1) {
      out.fill(0, rowOut, rowOut + size * 3);
      continue;
    }
    const top = Math.floor(fy);
    const bottom = Math.ceil(fy);
    const yl = fy - top;
    if (!rot) {
      // No rotation: the four source pixels are the row's and the column's neighbours, all inside the image.
      const topRow = top * width;
      const bottomRow = bottom * width;
      for (let x = 0; x < size; x++) {
        const ox = rowOut + (outX[x] as number);
        if (!inside[x]) {
          out[ox] = 0;
          out[ox + 1] = 0;
          out[ox + 2] = 0;
          continue;
        }
        const xl = weights[x] as number;
        const a = (topRow + (lefts[x] as number)) * 3;
        const b = (topRow + (rights[x] as number)) * 3;
        const c = (bottomRow + (lefts[x] as number)) * 3;
        const d = (bottomRow + (rights[x] as number)) * 3;
        for (let ch = 0; ch < 3; ch++) {
          const va = data[a + ch] as number;
          const vb = data[b + ch] as number;
          const vc = data[c + ch] as number;
          const vd = data[d + ch] as number;
          const t = va + (vb - va) * xl;
          out[ox + ch] = (t + (vc + (vd - vc) * xl - t) * yl) * scale;
        }
      }
      continue;
    }
    const topSin = (top - cy) * sin;
    const topCos = (top - cy) * cos;
    const bottomSin = (bottom - cy) * sin;
    const bottomCos = (bottom - cy) * cos;
    for (let x = 0; x < size; x++) {
      const ox = rowOut + (outX[x] as number);
      if (!inside[x]) {
        out[ox] = 0;
        out[ox + 1] = 0;
        out[ox + 2] = 0;
        continue;
      }
      const xl = weights[x] as number;
      const a = rotated(cosL[x] as number, sinL[x] as number, topSin, topCos);
      const b = rotated(cosR[x] as number, sinR[x] as number, topSin, topCos);
      const c = rotated(cosL[x] as number, sinL[x] as number, bottomSin, bottomCos);
      const d = rotated(cosR[x] as number, sinR[x] as number, bottomSin, bottomCos);
      if (a >= 0 && b >= 0 && c >= 0 && d >= 0) {
        for (let ch = 0; ch < 3; ch++) {
          const va = data[a + ch] as number;
          const vb = data[b + ch] as number;
          const vc = data[c + ch] as number;
          const vd = data[d + ch] as number;
          const t = va + (vb - va) * xl;
          out[ox + ch] = (t + (vc + (vd - vc) * xl - t) * yl) * scale;
        }
        continue;
      }
      for (let ch = 0; ch < 3; ch++) {
        const va = a < 0 ? 0 : (data[a + ch] as number);
        const vb = b < 0 ? 0 : (data[b + ch] as number);
        const vc = c < 0 ? 0 : (data[c + ch] as number);
        const vd = d < 0 ? 0 : (data[d + ch] as number);
        const t = va + (vb - va) * xl;
        out[ox + ch] = (t + (vc + (vd - vc) * xl - t) * yl) * scale;
      }
    }
  }
}

/** Grey value weights Human uses for the expression model (MATLAB rgb2gray). */
export const GREY = [0.2989, 0.587, 0.114] as const;

/** A grey patch of the frame, reduced by whole-pixel box averaging; (x0, y0) is its top-left in frame pixels. */
export interface GreyPatch {
  data: Float32Array;
  width: number;
  height: number;
  x0: number;
  y0: number;
  /** Frame pixels per patch pixel. */
  factor: number;
}

/**
 * The grey frame around (cx, cy) within `radius` pixels, averaged over `factor`×`factor` blocks: the
 * anti-aliasing step before a large face is sampled down to the model's few pixels. Outside the frame,
 * the frame's edge pixels repeated: black there (Human's fill) put bands into a face the frame cuts that
 * no training face had, and moved its scores by up to 0.16 (decision 038).
 */
export function greyPatch(img: Image, cx: number, cy: number, radius: number, factor: number): GreyPatch {
  const { data, width, height } = img;
  const f = Math.max(1, Math.floor(factor));
  const x0 = Math.floor(cx - radius);
  const y0 = Math.floor(cy - radius);
  const w = Math.max(1, Math.ceil((2 * radius) / f));
  const h = w;
  const out = new Float32Array(w * h);
  for (let py = 0; py < h; py++) {
    for (let px = 0; px < w; px++) {
      let sum = 0;
      for (let j = 0; j < f; j++) {
        const y = Math.min(height - 1, Math.max(0, y0 + py * f + j));
        for (let i = 0; i < f; i++) {
          const x = Math.min(width - 1, Math.max(0, x0 + px * f + i));
          const k = (y * width + x) * 3;
          sum += GREY[0] * (data[k] as number) + GREY[1] * (data[k + 1] as number) + GREY[2] * (data[k + 2] as number);
        }
      }
      out[py * w + px] = sum / (f * f);
    }
  }
  return { data: out, width: w, height: h, x0, y0, factor: f };
}

/**
 * A `size`×`size` crop of the patch, values in -1..1 (the expression model's input): the square of
 * side `side` frame pixels centred on (cx, cy), turned by `radians` (the face upright), sampled
 * bilinearly at each output pixel's centre; `flip` mirrors it.
 */
export function alignedGreyCrop(
  patch: GreyPatch,
  centre: { x: number; y: number },
  side: number,
  radians: number,
  size: number,
  out: Float32Array,
  options: { flip?: boolean; offset0?: number } = {},
): void {
  const { data, width, height, x0, y0, factor } = patch;
  const o0 = options.offset0 ?? 0;
  const step = side / size;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  for (let v = 0; v < size; v++) {
    const dv = (v + 0.5) * step - side / 2;
    for (let u = 0; u < size; u++) {
      const du = (u + 0.5) * step - side / 2;
      // Frame position, then patch position (a patch pixel's value sits at its block's centre).
      const px = (centre.x + du * cos - dv * sin - x0 + 0.5) / factor - 0.5;
      const py = (centre.y + du * sin + dv * cos - y0 + 0.5) / factor - 0.5;
      let g = 0;
      if (px >= 0 && py >= 0 && px <= width - 1 && py <= height - 1) {
        const xa = Math.floor(px);
        const ya = Math.floor(py);
        const xb = Math.min(width - 1, xa + 1);
        const yb = Math.min(height - 1, ya + 1);
        const fx = px - xa;
        const fy = py - ya;
        const a = data[ya * width + xa] as number;
        const b = data[ya * width + xb] as number;
        const c = data[yb * width + xa] as number;
        const d = data[yb * width + xb] as number;
        const top = a + (b - a) * fx;
        g = top + (c + (d - c) * fx - top) * fy;
      }
      out[o0 + v * size + (options.flip ? size - 1 - u : u)] = (g / 255 - 0.5) * 2;
    }
  }
}
