/**
 * The frame numbers drawn into the equivalence phantom's pictures (equivalence-phantom.ts), read by the page in
 * Chromium and by the server's side of the test alike: which recording frame a camera frame or a decoded frame shows.
 * No Node import: the page bundles this file.
 */

/**
 * Frames before the recording in the camera's file: black, numbered; where the page finds the loop's start. A second
 * at 30 fps: the page's first frame callbacks come a few hundred ms after the camera opens (and its loop starts), and
 * a marker missed costs a whole loop's wait.
 */
export const MARKER_FRAMES = 30;
/**
 * Every frame of the recording (and the marker) carries its number in its top-left corner: `CODE_BITS` squares of
 * `CODE_PX`, white for a set bit, least significant first (2018 frames: the validation's 34 s phantoms at 30 fps). The recording's frame i carries i + 1, the marker's frame
 * i (of M) 2^CODE_BITS − M + i, so the numbers run on through the loop: `pictureOf`.
 */
export const CODE_BITS = 11;
export const CODE_PX = 16;

/** The recording's frame a code stands for (the marker's frames are −M … −1). */
export function pictureOf(code: number): number {
  return code >= 2 ** CODE_BITS - MARKER_FRAMES ? code - 2 ** CODE_BITS : code - 1;
}

/** The code in an RGB24 (3 bytes a pixel) or RGBA (4) frame `width` wide: each square's centre, bright or dark. */
export function readCode(data: Uint8Array | Uint8ClampedArray, width: number, channels: 3 | 4): number {
  let code = 0;
  for (let b = 0; b < CODE_BITS; b++) {
    const i = channels * ((CODE_PX / 2) * width + b * CODE_PX + CODE_PX / 2);
    if ((data[i] as number) + (data[i + 1] as number) + (data[i + 2] as number) > 3 * 128) code |= 1 << b;
  }
  return code;
}
