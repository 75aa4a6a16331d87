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
  const chroma = noise * 0.35;
  // The generator of `xorshift` inlined (the same numbers, without a call per pixel).
  let s = (seed * 2654435761 + 1) >>> 0 || 0x9e3779b9;
  const data = out.data;
  const n = width * height;
  for (let p = 0, x = 0; p < n; p++) {
    const i = 3 * p;
    const g = gains[x] as number;
    if (++x === width) x = 0;
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    // Luma noise shared by the channels, with a little of each channel's own.
    const luma = (NORMALS[s & 0xffff] as number) * noise;
    const r2 = s >>> 16;
    const v0 = (rgb[i] as number) * g + luma + (NORMALS[r2 & 0xffff] as number) * chroma;
    const v1 = (rgb[i + 1] as number) * g + luma + (NORMALS[(r2 + 21845) & 0xffff] as number) * chroma;
    const v2 = (rgb[i + 2] as number) * g + luma + (NORMALS[(r2 + 43690) & 0xffff] as number) * chroma;
    data[i] = v0 <= 0 ? 0 : v0 >= 255 ? 255 : v0 + 0.5;
    data[i + 1] = v1 <= 0 ? 0 : v1 >= 255 ? 255 : v1 + 0.5;
    data[i + 2] = v2 <= 0 ? 0 : v2 >= 255 ? 255 : v2 + 0.5;
  }
}
