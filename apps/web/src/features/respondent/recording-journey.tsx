import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { openCamera, stopCamera, watchCamera } from './camera.ts';
import type { EventInput } from './event-log.ts';
import { screenSize } from './session-runtime.ts';
import type { UploadProgress } from './uploader.ts';

export interface RecordingJourneyOptions {
  /** Logs an event of the page (the owner's event log; nothing while none runs). */
  log: (event: EventInput) => void;
  /** The camera records now: its signal is watched, and its loss (logged) calls `onCameraLost`. */
  recording: boolean;
  onCameraLost: () => void;
  /** The page goes away: the owner's recording is closed before the camera is let go. */
  onClose: () => void;
  /** After a resize, the screen's new size is logged while this says the recorder runs. */
  screenRecorded?: () => boolean;
  /** The page is being hidden for good perhaps (`pagehide`): the owner keeps its log. */
  onPageHide?: () => void;
}

/**
 * What a recording journey in the browser holds, the respondent's and the dot test's alike: the camera's
 * stream and the hidden video that watches its signal, the page's events (visibility, full screen, screen
 * size) for the event log, and the sending's progress and failure for the save screen.
 */
export function useRecordingJourney(options: RecordingJourneyOptions) {
  const { log, recording } = options;
  const stream = useRef<MediaStream | null>(null);
  const monitor = useRef<HTMLVideoElement>(null);
  const [monitorStream, setMonitorStream] = useState<MediaStream | null>(null);
  const [uploadProgress, setUploadProgress] = useState(0);
  /** Sending at the end failed after every retry: the person may try again. */
  const [saveFailed, setSaveFailed] = useState(false);
  const latest = useRef(options);
  latest.current = options;

  /** Asks for the camera; false when it is refused or missing. */
  const startCamera = useCallback(async (): Promise<boolean> => {
    try {
      stream.current = await openCamera();
    } catch {
      return false;
    }
    setMonitorStream(stream.current);
    return true;
  }, []);

  /** Lets the camera go (the recording is over, or the person leaves). */
  const releaseCamera = useCallback(() => {
    stopCamera(stream.current);
    setMonitorStream(null);
  }, []);

  /** The uploader's progress as the save screen shows it: the share of bytes sent (all, when nothing waits). */
  const onUpload = useCallback((p: UploadProgress) => {
    const total = p.sentBytes + p.pendingBytes;
    setUploadProgress(total === 0 ? (p.pending === 0 ? 1 : 0) : p.sentBytes / total);
  }, []);

  // The page's end: the owner closes its recording, the camera is let go.
  useEffect(
    () => () => {
      latest.current.onClose();
      stopCamera(stream.current);
    },
    [],
  );

  // The camera's signal while recording.
  useEffect(() => {
    const video = monitor.current;
    if (!recording || !video || !monitorStream) return;
    return watchCamera(video, monitorStream, () => {
      log({ type: 'camera_lost' });
      latest.current.onCameraLost();
    });
  }, [recording, monitorStream, log]);

  useEffect(() => {
    const video = monitor.current;
    if (!video) return;
    video.srcObject = monitorStream;
    if (monitorStream) void video.play().catch(() => {});
  }, [monitorStream]);

  // Events of the page while it records: visibility, full screen, the screen's size.
  useEffect(() => {
    const onVisibility = () => log({ type: 'visibility', hidden: document.visibilityState === 'hidden' });
    const onFullscreen = () => log({ type: 'fullscreen', on: document.fullscreenElement !== null });
    let resizeTimer = 0;
    const onResize = () => {
      window.clearTimeout(resizeTimer);
      resizeTimer = window.setTimeout(() => {
        if (latest.current.screenRecorded?.()) log({ type: 'screen', ...screenSize() });
      }, 500);
    };
    const onPageHide = () => latest.current.onPageHide?.();
    document.addEventListener('visibilitychange', onVisibility);
    document.addEventListener('fullscreenchange', onFullscreen);
    window.addEventListener('resize', onResize);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.clearTimeout(resizeTimer);
      document.removeEventListener('visibilitychange', onVisibility);
      document.removeEventListener('fullscreenchange', onFullscreen);
      window.removeEventListener('resize', onResize);
      window.removeEventListener('pagehide', onPageHide);
    };
  }, [log]);

  return {
    /** The camera's stream while it is open. */
    stream,
    monitor,
    startCamera,
    releaseCamera,
    uploadProgress,
    setUploadProgress,
    onUpload,
    saveFailed,
    setSaveFailed,
  };
}

/** The hidden video that plays the camera's stream, so that its frames can be watched. */
export function CameraMonitor({ monitor }: { monitor: RefObject<HTMLVideoElement | null> }) {
  return (
    <video
      ref={monitor}
      muted
      playsInline
      aria-hidden
      data-testid="camera-monitor"
      style={{
        position: 'fixed',
        right: 0,
        bottom: 0,
        width: 2,
        height: 2,
        opacity: 0.01,
        pointerEvents: 'none',
        zIndex: 2000,
      }}
    />
  );
}
