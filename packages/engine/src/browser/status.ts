import { brightness } from '../face.ts';
import type { QualityFlag } from '../types.ts';

/** The browser check raises only the flags it can see in a live frame (no `face_cut`, `face_small`, `too_bright`). */
export type FaceCheckStatus = 'ok' | 'too_dark' | 'no_face' | 'several_faces' | 'head_turned';

/**
 * The one thing to tell the respondent, from every flag of the frame. Darkness comes first: it is
 * often why no face is found, and more light is the fix. Then the count of faces, then the pose.
 */
const PRIORITY = ['too_dark', 'no_face', 'several_faces', 'head_turned'] as const;

export function faceCheckStatus(flags: readonly QualityFlag[]): FaceCheckStatus {
  return PRIORITY.find((f) => flags.includes(f)) ?? 'ok';
}

/** Mean luma of canvas pixels (RGBA), with the engine's rule for decoded frames (`brightness`). */
export function rgbaBrightness(rgba: Uint8ClampedArray | Uint8Array, width: number, height: number): number {
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; j < rgb.length; i += 4, j += 3) {
    rgb[j] = rgba[i] ?? 0;
    rgb[j + 1] = rgba[i + 1] ?? 0;
    rgb[j + 2] = rgba[i + 2] ?? 0;
  }
  return brightness(rgb, width, height, 1);
}

/** Checks per second over a sliding window of recent checks. */
export class RateMeter {
  private readonly times: number[] = [];

  constructor(private readonly windowMs = 2000) {}

  /** Records a check finished at `now` (ms) and returns the current rate; 0 until two are known. */
  tick(now: number): number {
    this.times.push(now);
    while (this.times.length > 2 && now - (this.times[0] ?? now) > this.windowMs) this.times.shift();
    const first = this.times[0] ?? now;
    return this.times.length < 2 || now === first ? 0 : ((this.times.length - 1) * 1000) / (now - first);
  }

  reset(): void {
    this.times.length = 0;
  }
}
