import { RESPONDENT_LIMITS } from '@emolens/contracts';

/**
 * What the respondent's camera is asked for: video only (design section 6: no sound is recorded), 640 × 480 (the
 * engine's analysis width) at 30 frames a second, the rate gaze is analysed at (decision 049). `ideal`: a camera
 * that cannot is used as it is.
 */
export const CAMERA_CONSTRAINTS: MediaStreamConstraints = {
  video: { facingMode: 'user', width: { ideal: 640 }, height: { ideal: 480 }, frameRate: { ideal: 30 } },
  audio: false,
};

export function openCamera(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) return Promise.reject(new Error('no getUserMedia'));
  return navigator.mediaDevices.getUserMedia(CAMERA_CONSTRAINTS);
}

export function stopCamera(stream: MediaStream | null): void {
  if (stream) for (const track of stream.getTracks()) track.stop();
}

/**
 * Watches the camera's signal on a (hidden) video element playing the stream: the track ended, or no
 * new frame for `RESPONDENT_LIMITS.noFramesMs`, calls `onLost` once. Returns the stop function.
 */
export function watchCamera(video: HTMLVideoElement, stream: MediaStream, onLost: () => void): () => void {
  let lastFrame = performance.now();
  let lastTime = -1;
  // Frames are timed once the first has been seen (a browser that never reports frames is judged by its track only).
  let seen = false;
  let done = false;
  const lost = () => {
    if (done) return;
    done = true;
    onLost();
  };
  const tracks = stream.getVideoTracks();
  for (const track of tracks) track.addEventListener('ended', lost);
  let handle = 0;
  const withFrames = typeof video.requestVideoFrameCallback === 'function';
  const onFrame = () => {
    seen = true;
    lastFrame = performance.now();
    if (!done) handle = video.requestVideoFrameCallback(onFrame);
  };
  if (withFrames) handle = video.requestVideoFrameCallback(onFrame);
  const timer = window.setInterval(() => {
    if (tracks.length === 0 || tracks.some((t) => t.readyState === 'ended')) return lost();
    if (!withFrames && video.currentTime !== lastTime) {
      if (lastTime >= 0) seen = true;
      lastTime = video.currentTime;
      lastFrame = performance.now();
    }
    if (!seen) return;
    // A hidden tab gets no frames: only a visible page is judged.
    if (document.visibilityState === 'hidden') {
      lastFrame = performance.now();
      return;
    }
    if (performance.now() - lastFrame > RESPONDENT_LIMITS.noFramesMs) lost();
  }, 250);
  return () => {
    done = true;
    window.clearInterval(timer);
    if (withFrames) video.cancelVideoFrameCallback(handle);
    for (const track of tracks) track.removeEventListener('ended', lost);
  };
}
