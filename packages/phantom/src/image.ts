/** RGB images as the phantom handles them, and their way in and out of files through ffmpeg. */
import { execFileSync } from 'node:child_process';
import { ffmpegPaths } from '@emolens/engine';

/** RGB24, row by row (the engine's `RgbFrame` shape). */
export interface Rgb {
  data: Uint8Array;
  width: number;
  height: number;
}

export type Colour = [number, number, number];

export function blank(width: number, height: number): Rgb {
  return { data: new Uint8Array(width * height * 3), width, height };
}

/** A photo (JPEG, PNG, …) decoded to RGB24 by ffmpeg; of a video, the frame at `atSeconds`. */
export function readImage(path: string, atSeconds?: number): Rgb {
  const { ffmpeg, ffprobe } = ffmpegPaths();
  const size = execFileSync(ffprobe, [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=width,height',
    '-of',
    'csv=p=0',
    path,
  ])
    .toString()
    .trim()
    .split(',')
    .map(Number);
  const [width, height] = size as [number, number];
  const seek = atSeconds === undefined ? [] : ['-ss', String(atSeconds)];
  const data = execFileSync(
    ffmpeg,
    ['-v', 'error', ...seek, '-i', path, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    { maxBuffer: width * height * 3 + 1024 },
  );
  if (data.length !== width * height * 3)
    throw new Error(`${path}: decoded ${data.length} bytes for ${width}x${height}`);
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width, height };
}

/** ffmpeg's arguments for RGB24 frames of `width` × `height` on its standard input (`rate`: frames a second). */
export function rawRgbInput(width: number, height: number, rate?: number): string[] {
  return [
    ...['-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${width}x${height}`],
    ...(rate === undefined ? [] : ['-r', String(rate)]),
    ...['-i', 'pipe:0'],
  ];
}

/** Writes an RGB image as a PNG (to look at a frame). */
export function writePng(image: Rgb, path: string): void {
  execFileSync(ffmpegPaths().ffmpeg, [...rawRgbInput(image.width, image.height), '-frames:v', '1', path], {
    input: image.data,
  });
}

/** Bilinear sample of `image` at (x, y) into `out` (three channels), edges repeated. */
export function sampleBilinear(image: Rgb, x: number, y: number, out: Float32Array | number[]): void {
  const { data, width, height } = image;
  const fx = Math.min(Math.max(x, 0), width - 1.001);
  const fy = Math.min(Math.max(y, 0), height - 1.001);
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const ax = fx - x0;
  const ay = fy - y0;
  const i00 = (y0 * width + x0) * 3;
  const i10 = i00 + 3;
  const i01 = i00 + width * 3;
  const i11 = i01 + 3;
  for (let c = 0; c < 3; c++) {
    const top = (data[i00 + c] as number) * (1 - ax) + (data[i10 + c] as number) * ax;
    const bottom = (data[i01 + c] as number) * (1 - ax) + (data[i11 + c] as number) * ax;
    out[c] = top * (1 - ay) + bottom * ay;
  }
}

/** A region of `image` copied out (clamped to the image). */
export function crop(image: Rgb, x0: number, y0: number, width: number, height: number): Rgb {
  const out = blank(width, height);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(Math.max(y + y0, 0), image.height - 1);
    for (let x = 0; x < width; x++) {
      const sx = Math.min(Math.max(x + x0, 0), image.width - 1);
      const s = (sy * image.width + sx) * 3;
      const d = (y * width + x) * 3;
      out.data[d] = image.data[s] as number;
      out.data[d + 1] = image.data[s + 1] as number;
      out.data[d + 2] = image.data[s + 2] as number;
    }
  }
  return out;
}
