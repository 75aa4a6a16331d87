/**
 * A camera frame's YUV 4:2:0 planes into the engine's RGB24, to the bit as the server's decoder makes them (decision
 * 073): ffmpeg's swscale, converting yuv420p to rgb24 at the same size (ffmpeg.ts `decodeFrames`), runs its
 * fixed-point BT.601 limited-range converter (libswscale/yuv2rgb.c's coefficients, x86's yuv2rgb SIMD arithmetic):
 * every term shifted up 3 bits, multiplied by a coefficient in 1/8192ths keeping the product's high 16 bits (a
 * floor), summed and clamped; each chroma sample serves its 2 × 2 pixels. The browser's own conversion (a canvas's
 * drawImage) rounds otherwise, 1–3 levels brighter, which moved the face mesh's geometry and with it the gaze.
 */

/** How the frame's planes lie in its buffer (`VideoFrame.copyTo`'s layout): I420 (Y, U, V) or NV12 (Y, UV pairs). */
export interface Yuv420Frame {
  format: 'I420' | 'NV12';
  data: Uint8Array;
  width: number;
  height: number;
  /** Offset and stride (bytes) of each plane: Y, U, V for I420; Y, UV for NV12. */
  layout: readonly { offset: number; stride: number }[];
}

// swscale's coefficients for BT.601 in 1/8192ths (ff_yuv2rgb_coeffs ITU601 {104597, 132201, 25675, 53279} and the
// luma's 255/219 in 16.16, each × 8192 / 65536 rounded as roundToInt16 does), and the luma offset 16 × 8.
const Y_COEFF = 9539;
const V_RED = 13075;
const U_BLUE = 16525;
const U_GREEN = -3209;
const V_GREEN = -6660;
const Y_OFFSET = 128;
const CHROMA_OFFSET = 1024;

/** The high 16 bits of a signed 16 × 16-bit product (x86's pmulhw): a floor, not a rounding. */
const mulHigh = (a: number, b: number) => (a * b) >> 16;

const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);

/** The frame's RGB24 (into `out` when it fits). Width and height must be even (4:2:0). */
export function yuv420ToRgb(frame: Yuv420Frame, out?: Uint8Array): Uint8Array {
  const { format, data, width, height, layout } = frame;
  if (width % 2 || height % 2) throw new Error(`a 4:2:0 frame has an even size, not ${width}x${height}`);
  const planes = format === 'I420' ? 3 : 2;
  if (layout.length !== planes) throw new Error(`${format} has ${planes} planes, the layout ${layout.length}`);
  const rgb = out && out.length === 3 * width * height ? out : new Uint8Array(3 * width * height);
  const [luma, first, second] = layout as [
    { offset: number; stride: number },
    { offset: number; stride: number },
    { offset: number; stride: number } | undefined,
  ];
  // NV12: U and V alternate in one plane.
  const uStep = format === 'I420' ? 1 : 2;
  const vPlane = second ?? { offset: first.offset + 1, stride: first.stride };
  const red = new Int32Array(width / 2);
  const green = new Int32Array(width / 2);
  const blue = new Int32Array(width / 2);
  for (let row = 0; row < height; row++) {
    if (row % 2 === 0) {
      const uRow = first.offset + (row / 2) * first.stride;
      const vRow = vPlane.offset + (row / 2) * vPlane.stride;
      for (let c = 0; c < width / 2; c++) {
        const u = ((data[uRow + c * uStep] as number) << 3) - CHROMA_OFFSET;
        const v = ((data[vRow + c * uStep] as number) << 3) - CHROMA_OFFSET;
        red[c] = mulHigh(v, V_RED);
        green[c] = mulHigh(u, U_GREEN) + mulHigh(v, V_GREEN);
        blue[c] = mulHigh(u, U_BLUE);
      }
    }
    const yRow = luma.offset + row * luma.stride;
    let o = row * width * 3;
    for (let x = 0; x < width; x++, o += 3) {
      const y = mulHigh(((data[yRow + x] as number) << 3) - Y_OFFSET, Y_COEFF);
      const c = x >> 1;
      rgb[o] = clamp(y + (red[c] as number));
      rgb[o + 1] = clamp(y + (green[c] as number));
      rgb[o + 2] = clamp(y + (blue[c] as number));
    }
  }
  return rgb;
}
