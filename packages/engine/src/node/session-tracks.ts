/** Multi-face tracking over a session's analysed frames. */
import { FaceTracker } from '../tracks.ts';
import type { FrameData } from '../types.ts';

/** A frame on the session clock, as `assignTracks` reads it. */
type ClockedFrame = { frame: FrameData; ms: number };

/**
 * Multi-face: one tracker over the analysed frames in time order, on a clock that closes the stretches not
 * decoded (between the calibration and the research window, between segment files): a person keeps their id
 * across them, while a person missing from frames that were decoded still loses it after the tracker's gap.
 * Sets `track` on every face (the main face is one of them).
 */
export function assignTracks(frames: ClockedFrame[], fps: number): void {
  trackFaces(
    frames.length,
    (i) => (frames[i] as ClockedFrame).ms,
    (i) => (frames[i] as ClockedFrame).frame,
    fps,
  );
}

/**
 * `assignTracks` over frames read by index (ms on the session clock, the frame); `assigned` gets each frame once
 * its faces carry their ids (a frame store writes them back).
 */
export function trackFaces(
  count: number,
  msAt: (i: number) => number,
  frameAt: (i: number) => FrameData,
  fps: number,
  assigned?: (i: number, frame: FrameData) => void,
): void {
  const tracker = new FaceTracker();
  const step = 2 / fps;
  let clock = 0;
  let last: number | null = null;
  for (let i = 0; i < count; i++) {
    const t = msAt(i) / 1000;
    if (last !== null) clock += Math.min(Math.max(0, t - last), step);
    last = t;
    const frame = frameAt(i);
    tracker.assign(clock, frame.faces ?? (frame.face ? [frame.face] : []));
    assigned?.(i, frame);
  }
}
