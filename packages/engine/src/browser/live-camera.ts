/**
 * The camera's side of privacy mode's reader (live-reader.ts): each new frame of a playing video (the camera's
 * stream), its time on a segment's clock, and its pixels drawn at the analysis size when the reader takes it; and the
 * engine's per-frame result as the face check's (the face check and the live guidance read the worker's results in
 * privacy mode, so one engine runs, not two).
 */
import type { FrameData } from '../types.ts';
import type { FaceCheckResult } from './index.ts';
import type { FramePixels, Grab } from './onnx-protocol.ts';
import { faceCheckStatus, faceDistance } from './status.ts';

/** BT.601, the matrix the server's decoder converts with (yuv.ts); a frame that names none is taken to be it. */
const BT601 = new Set([null, undefined, 'smpte170m', 'bt470bg']);

/**
 * The camera frame's YUV 4:2:0 planes, copied out, when the server's conversion applies to them (I420 or NV12 of
 * BT.601 in limited range, at the analysis size: the worker then makes the very RGB the server's decoder would); null
 * otherwise (another format, matrix or range, or a size to scale to), for a canvas to draw.
 */
async function cameraPlanes(frame: VideoFrame, size: { width: number; height: number }): Promise<FramePixels | null> {
  const format = frame.format === 'I420A' ? 'I420' : frame.format;
  const { matrix, fullRange } = frame.colorSpace;
  const usable =
    (format === 'I420' || format === 'NV12') &&
    BT601.has(matrix) &&
    fullRange !== true &&
    frame.visibleRect?.width === size.width &&
    frame.visibleRect?.height === size.height;
  if (!usable) return null;
  const data = new Uint8Array(frame.allocationSize());
  const planes = await frame.copyTo(data);
  return { data, ...size, yuv: { format, layout: planes.slice(0, format === 'I420' ? 3 : 2) } };
}

interface FrameMetadata {
  /** When the camera captured the frame, on the page's clock (`performance.now`), where the browser says. */
  captureTime?: number;
}

/**
 * Calls `onFrame` for each new frame of `video` with its time in seconds since `originMs` (on the `performance.now`
 * clock) and a function taking its pixels at `size`: the camera's planes where `cameraPlanes` can use them, else drawn
 * on a canvas (RGBA); with the planes, also one taking the previous frame's. Uses the video's frame callback, or the
 * display's when the browser has none. Returns the stop function.
 */
export function watchVideoFrames(
  video: HTMLVideoElement,
  size: { width: number; height: number },
  originMs: number,
  onFrame: (time: number, grab: Grab, previous?: Grab) => void,
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
  const draw = (source: CanvasImageSource): FramePixels => {
    context.drawImage(source, 0, 0, size.width, size.height);
    const image = context.getImageData(0, 0, size.width, size.height);
    return { data: new Uint8Array(image.data.buffer), width: size.width, height: size.height };
  };
  // The camera's planes until a frame cannot give them (its format, matrix and size do not change mid-stream). Each
  // camera frame is taken as it comes (a VideoFrame holds the camera's buffer; nothing is copied until a grab) and
  // the one before it is kept: a full slot the camera jumped over is read from the previous picture, which is what
  // the server's decoder repeats there (`FrameSchedule`).
  let planes = typeof VideoFrame === 'function';
  let current: VideoFrame | null = null;
  let previous: VideoFrame | null = null;
  const release = () => {
    current?.close();
    previous?.close();
    current = previous = null;
  };
  const planesOf = (frame: VideoFrame): Promise<FramePixels> => {
    // The grab's own reference: the frame may be replaced before its pixels are out.
    const copy = frame.clone();
    const drawn = () => {
      planes = false;
      return draw(copy);
    };
    return cameraPlanes(copy, size)
      .then((pixels) => pixels ?? drawn(), drawn)
      .finally(() => copy.close());
  };
  /** The grabs of the frame on show and of the one before it (none where the planes are not used). */
  const grabs = (): [Grab, Grab | undefined] => {
    if (!planes) {
      release();
      return [() => draw(video), undefined];
    }
    let frame: VideoFrame;
    try {
      frame = new VideoFrame(video);
    } catch {
      // No picture to take yet: this frame is drawn, if the reader wants it.
      return [() => draw(video), undefined];
    }
    previous?.close();
    previous = current;
    current = frame;
    const now = frame;
    const before = previous;
    return [() => planesOf(now), before ? () => planesOf(before) : undefined];
  };
  let stopped = false;
  let handle = 0;
  let lastMediaTime = -1;
  const frameCallbacks = typeof video.requestVideoFrameCallback === 'function';
  const onVideoFrame = (now: number, metadata: FrameMetadata & { mediaTime?: number }) => {
    if (stopped) return;
    const at = metadata.captureTime ?? now;
    onFrame((at - originMs) / 1000, ...grabs());
    handle = video.requestVideoFrameCallback(onVideoFrame);
  };
  const onDisplayFrame = (now: number) => {
    if (stopped) return;
    if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && video.currentTime !== lastMediaTime) {
      lastMediaTime = video.currentTime;
      onFrame((now - originMs) / 1000, ...grabs());
    }
    handle = requestAnimationFrame(onDisplayFrame);
  };
  handle = frameCallbacks ? video.requestVideoFrameCallback(onVideoFrame) : requestAnimationFrame(onDisplayFrame);
  return () => {
    stopped = true;
    if (frameCallbacks) video.cancelVideoFrameCallback(handle);
    else cancelAnimationFrame(handle);
    release();
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
