/**
 * What a detector run leaves to the face mesh (`HumanOptions.tracking` 'keep', decision 078). Between detector runs a
 * face's box follows its mesh: centred on the last mesh, its size and turn from the detection. Human replaces every
 * box with the detector's at each run, and the mesh read from the detector's box moves by ~0.6 px on a still face and
 * back on the next frame (its centre ~1 % of the box off the mesh's, its size a few % off), one frame in six. So a
 * detection of a face tracked unchanged only confirms it; a face that moved, came nearer or turned takes the
 * detection's box, as before.
 */
import type { FaceBox } from './constants.ts';
import { boxSize, boxTurn, overlap, wrapRadians } from './geometry.ts';

/** A detection is of the tracked face unchanged when their boxes overlap by more than this (IoU; measured ≥ 0.88). */
export const TRACK_OVERLAP = 0.8;
/**
 * ... and their sizes differ by at most this share: BlazeFace's size of a still face varies by 0.5 % (median) to
 * 2.5 % (95th percentile) from one run to the next.
 */
export const TRACK_RESIZE = 0.1;
/** ... and their turns (the mouth-to-nose line of their keypoints) by at most this, radians (~6°). */
export const TRACK_TURN = 0.1;

/** Whether detection `d` is of tracked face `t` unchanged (`TRACK_OVERLAP`, `TRACK_RESIZE`, `TRACK_TURN`). */
function unchanged(t: FaceBox, d: FaceBox): boolean {
  if (overlap(t, d) <= TRACK_OVERLAP) return false;
  if (Math.abs(boxSize(d)[0] / boxSize(t)[0] - 1) > TRACK_RESIZE) return false;
  return Math.abs(wrapRadians(boxTurn(d) - boxTurn(t))) <= TRACK_TURN;
}

/**
 * The boxes after a detector run: per detection, the tracked box of the face it found unchanged (with the detection's
 * confidence), else the detection. A tracked face the detector no longer finds is dropped, as before.
 */
export function confirmTracked(tracked: readonly FaceBox[], found: readonly FaceBox[]): FaceBox[] {
  return found.map((d) => {
    const t = tracked.find((b) => unchanged(b, d));
    return t ? { ...t, confidence: d.confidence } : d;
  });
}
