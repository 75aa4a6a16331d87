/**
 * The camera's side of privacy mode's reader (live-reader.ts): each new frame of a playing video (the camera's
 * stream), its time on a segment's clock, and its pixels drawn at the analysis size when the reader takes it; and the
 * engine's per-frame result as the face check's (the face check and the live guidance read the worker's results in
 * privacy mode, so one engine runs, not two).
 */
import type { FrameData } from '../types.ts';
import type { FaceCheckResult } from './index.ts';
import { faceCheckStatus, faceDistance } from './status.ts';

type Grab = () => { data: Uint8Array; width: number; height: number };

interface FrameMetadata {
  /** When the camera captured the frame, on the page's clock (`performance.now`), where the browser says. */
  captureTime?: number;
}

/**
 * Calls `onFrame` for each new frame of `video` with its time in seconds since `originMs` (on the `performance.now`
 * clock) and a function drawing it at `size` (RGBA). Uses the video's frame callback, or the display's when the
 * browser has none. Returns the stop function.
 */
export function watchVideoFrames(
  video: HTMLVideoElement,
  size: { width: number; height: number },
  originMs: number,
  onFrame: (time: number, grab: Grab) => void,
): () => void {
  const canvas =
    typeof OffscreenCanvas === 'function'
      ? new OffscreenCanvas(size.width, size.height)
      : Object.assign(document.createElement('canvas'), size);
  const context = canvas.getContext('2d', { willReadFrequently: true }) as
    | OffscreenCanvasRenderingContext2D
    | CanvasRenderingContext2D
    | null;
  if (!context) throw new Error('no 2d canvas for the camera frames');
  const grab: Grab = () => {
    context.drawImage(video, 0, 0, size.width, size.height);
    const image = context.getImageData(0, 0, size.width, size.height);
    return { data: new Uint8Array(image.data.buffer), width: size.width, height: size.height };
  };
  let stopped = false;
  let handle = 0;
  let lastMediaTime = -1;
  const frameCallbacks = typeof video.requestVideoFrameCallback === 'function';
  const onVideoFrame = (now: number, metadata: FrameMetadata & { mediaTime?: number }) => {
    if (stopped) return;
    const at = metadata.captureTime ?? now;
    onFrame((at - originMs) / 1000, grab);
    handle = video.requestVideoFrameCallback(onVideoFrame);
  };
  const onDisplayFrame = (now: number) => {
    if (stopped) return;
    if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && video.currentTime !== lastMediaTime) {
      lastMediaTime = video.currentTime;
      onFrame((now - originMs) / 1000, grab);
    }
    handle = requestAnimationFrame(onDisplayFrame);
  };
  handle = frameCallbacks ? video.requestVideoFrameCallback(onVideoFrame) : requestAnimationFrame(onDisplayFrame);
  return () => {
    stopped = true;
    if (frameCallbacks) video.cancelVideoFrameCallback(handle);
    else cancelAnimationFrame(handle);
  };
}

/** The camera's size and frame rate as its stream's track says (the rate null when it does not). */
export function cameraShape(video: HTMLVideoElement): { width: number; height: number; fps: number | null } {
  const stream = video.srcObject instanceof MediaStream ? video.srcObject : null;
  const settings = stream?.getVideoTracks()[0]?.getSettings();
  const fps = settings?.frameRate;
  return { width: video.videoWidth, height: video.videoHeight, fps: fps && fps > 0 ? fps : null };
}

/**
 * A full frame's result (the recording analysis's, from the worker) as the face check's: the same flags, the status
 * and distance by the face check's rules (status.ts), `face_cut` as the analysis found it.
 */
export function frameCheckResult(
  frame: FrameData,
  size: { width: number; height: number },
  fps: number,
  durationMs: number,
): FaceCheckResult {
  const face = frame.face;
  return {
    status: faceCheckStatus(frame.flags),
    flags: frame.flags,
    faceCount: frame.faceCount,
    brightness: frame.brightness,
    pose: face ? face.pose : null,
    box: face ? face.box : null,
    frame: size,
    distance: face ? faceDistance(face.box, size) : null,
    faceCut: frame.flags.includes('face_cut'),
    fps,
    duration: durationMs,
  };
}
