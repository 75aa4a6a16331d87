/**
 * What the camera adds: the light on the scene (level, side light), the sensor's noise (stronger as the gain rises
 * in the dark), and the conversion to 8-bit pixels. The noise is seeded, so a script gives the same frames each run.
 */
import type { Rgb } from './image.ts';
import type { Canvas } from './warp.ts';

/** A fast seeded generator (xorshift32) of 32-bit integers. */
export function xorshift(seed: number): () => number {
  let s = seed >>> 0 || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

/** 65,536 standard normal values (a fixed, seeded table: drawing them per pixel would be the slowest part). */
const NORMALS = (() => {
  const next = xorshift(20261128);
  const table = new Float32Array(65536);
  for (let i = 0; i < table.length; i += 2) {
    const u = ((next() >>> 8) + 0.5) / 16777216;
    const v = ((next() >>> 8) + 0.5) / 16777216;
    const r = Math.sqrt(-2 * Math.log(u));
    table[i] = r * Math.cos(2 * Math.PI * v);
    table[i + 1] = r * Math.sin(2 * Math.PI * v);
  }
  return table;
})();

export interface Light {
  /** 1: as the photo; 0.3: a dim room. */
  level: number;
  /** −1: lit from the image's left, the face's right half (in the image) in shadow; 1: the reverse. */
  side: number;
}

/**
 * The light's gain at column x: the level, and a side light that brightens one side of the face and shades the other,
 * ramping across the face (`face`: its centre and width in frame pixels) and held beyond it.
 */
export function gainAt(light: Light, x: number, face: { x: number; width: number }): number {
  const across = Math.max(-1, Math.min(1, (x - face.x) / (0.6 * face.width)));
  return Math.max(0.05, light.level * (1 + 0.6 * light.side * across));
}

/**
 * The canvas lit, with sensor noise (standard deviation `sigma` at light level 1, growing as 1/√level: the camera's
 * gain in the dark), written to 8-bit `out`. `seed`: this frame's noise.
 */
export function expose(
  canvas: Canvas,
  light: Light,
  face: { x: number; width: number },
  sigma: number,
  seed: number,
  out: Rgb,
): void {
  const { width, height, rgb } = canvas;
  const gains = new Float32Array(width);
  for (let x = 0; x < width; x++) gains[x] = gainAt(light, x + 0.5, face);
  const noise = sigma / Math.sqrt(Math.min(1, Math.max(0.05, light.level)));
  const next = xorshift(seed * 2654435761 + 1);
  const data = out.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const g = gains[x] as number;
      const r = next();
      // Luma noise shared by the channels, with a little of each channel's own.
      const luma = (NORMALS[r & 0xffff] as number) * noise;
      const chroma = noise * 0.35;
      const r2 = r >>> 16;
      for (let c = 0; c < 3; c++) {
        const own = (NORMALS[(r2 + c * 21845) & 0xffff] as number) * chroma;
        const v = (rgb[i + c] as number) * g + luma + own;
        data[i + c] = v <= 0 ? 0 : v >= 255 ? 255 : v + 0.5;
      }
    }
  }
}
