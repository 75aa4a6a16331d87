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
  // Index of the rotated image's pixel (x, y) in the source, or -1 outside it.
  const at = (x: number, y: number): number => {
    if (!rot) return (y * width + x) * 3;
    const sx = Math.round((x - rot.cx) * cos - (y - rot.cy) * sin + rot.cx);
    const sy = Math.round((x - rot.cx) * sin + (y - rot.cy) * cos + rot.cy);
    return sx >= 0 && sx < width && sy >= 0 && sy < height ? (sy * width + sx) * 3 : -1;
  };
  const v = (i: number, ch: number) => (i < 0 ? 0 : (data[i + ch] as number));
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
    for (let x = 0; x < size; x++) {
      const ox = rowOut + (options.flip ? size - 1 - x : x) * 3;
      const fx = size > 1 ? x1 * (width - 1) + x * ws : 0.5 * (x1 + x2) * (width - 1);
      if (fx < 0 || fx > width - 1) {
        out[ox] = 0;
        out[ox + 1] = 0;
        out[ox + 2] = 0;
        continue;
      }
      const left = Math.floor(fx);
      const right = Math.ceil(fx);
      const xl = fx - left;
      const a = at(left, top);
      const b = at(right, top);
      const c = at(left, bottom);
      const d = at(right, bottom);
      for (let ch = 0; ch < 3; ch++) {
        const t = v(a, ch) + (v(b, ch) - v(a, ch)) * xl;
        const bt = v(c, ch) + (v(d, ch) - v(c, ch)) * xl;
        out[ox + ch] = (t + (bt - t) * yl) * scale;
      }
    }
  }
}

/** Grey value weights Human uses for the expression model (MATLAB rgb2gray). */
export const GREY = [0.2989, 0.587, 0.114] as const;

/**
 * A `size`×`size` grey crop, values in -1..1, of the square of side `side` pixels centred on
 * (cx, cy) and turned by `radians` (the face upright), sampled from the full frame with a box filter
 * over each output pixel's footprint (bilinear taps on a grid), so a large face is averaged down
 * rather than aliased. `flip` mirrors it; pixels outside the frame are black, as in Human's crops.
 */
export function alignedGreyCrop(
  img: Image,
  centre: { x: number; y: number },
  side: number,
  radians: number,
  size: number,
  out: Float32Array,
  options: { flip?: boolean; offset0?: number } = {},
): void {
  const { data, width, height } = img;
  const o0 = options.offset0 ?? 0;
  const step = side / size;
  const taps = Math.max(1, Math.min(8, Math.ceil(step)));
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const grey = (x: number, y: number): number => {
    if (x < 0 || y < 0 || x > width - 1 || y > height - 1) return 0;
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const x1 = Math.min(width - 1, x0 + 1);
    const y1 = Math.min(height - 1, y0 + 1);
    const fx = x - x0;
    const fy = y - y0;
    const g = (xx: number, yy: number) => {
      const i = (yy * width + xx) * 3;
      return GREY[0] * (data[i] as number) + GREY[1] * (data[i + 1] as number) + GREY[2] * (data[i + 2] as number);
    };
    const top = g(x0, y0) + (g(x1, y0) - g(x0, y0)) * fx;
    const bottom = g(x0, y1) + (g(x1, y1) - g(x0, y1)) * fx;
    return top + (bottom - top) * fy;
  };
  for (let v = 0; v < size; v++) {
    for (let u = 0; u < size; u++) {
      let sum = 0;
      for (let j = 0; j < taps; j++) {
        const dv = (v + (j + 0.5) / taps) * step - side / 2;
        for (let i = 0; i < taps; i++) {
          const du = (u + (i + 0.5) / taps) * step - side / 2;
          sum += grey(centre.x + du * cos - dv * sin, centre.y + du * sin + dv * cos);
        }
      }
      const x = options.flip ? size - 1 - u : u;
      out[o0 + v * size + x] = (sum / (taps * taps) / 255 - 0.5) * 2;
    }
  }
}
