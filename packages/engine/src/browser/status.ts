import { brightness, SMALL_FACE_PX } from '../face.ts';
import type { Box, QualityFlag } from '../types.ts';

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

/**
 * How much of the frame's shorter side the face's box fills, at the limits of a good distance (live guidance,
 * decision 045). A face's box is about 15 cm wide; a laptop or desk webcam sees about 62° across a 4:3 frame (48° along
 * its shorter side), so the box fills about 0.27 of the shorter side at 65 cm, 0.15 at about 1.1 m and 0.6 at about
 * 30 cm. A box narrower than SMALL_FACE_PX is too far whatever the frame (the analysis's `face_small`).
 */
export const FACE_SIZE_SHARE = { far: 0.15, near: 0.6 } as const;

export type FaceDistance = 'ok' | 'too_far' | 'too_near';

/** The face's distance from the camera as its size in the frame tells it. */
export function faceDistance(box: Box, frame: { width: number; height: number }): FaceDistance {
  const side = Math.min(frame.width, frame.height);
  const size = Math.max(box.width, box.height);
  if (box.width < SMALL_FACE_PX || size < FACE_SIZE_SHARE.far * side) return 'too_far';
  if (size > FACE_SIZE_SHARE.near * side) return 'too_near';
  return 'ok';
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
