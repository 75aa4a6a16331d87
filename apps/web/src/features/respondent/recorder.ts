import { RESPONDENT_LIMITS } from '@emolens/contracts';

export type RecordingMime = 'video/webm' | 'video/mp4';

/** The container the browser records in: WebM where it can (Chromium, Firefox), else MP4 (Safari). */
export function recordingMime(): { container: RecordingMime; mimeType: string } | null {
  if (typeof MediaRecorder === 'undefined') return null;
  const candidates: [RecordingMime, string][] = [
    ['video/webm', 'video/webm;codecs=vp8'],
    ['video/webm', 'video/webm;codecs=vp9'],
    ['video/webm', 'video/webm'],
    ['video/mp4', 'video/mp4;codecs=avc1'],
    ['video/mp4', 'video/mp4'],
  ];
  for (const [container, mimeType] of candidates) {
    if (MediaRecorder.isTypeSupported(mimeType)) return { container, mimeType };
  }
  return null;
}

export function hasMediaRecorder(): boolean {
  return typeof MediaRecorder !== 'undefined';
}

/**
 * Records the camera's video (no sound) in timeslices of `RESPONDENT_LIMITS.timesliceMs`; each slice
 * is handed over with its number within the segment, in order.
 */
export class Recorder {
  private readonly recorder: MediaRecorder;
  private index = 0;
  private chain: Promise<void> = Promise.resolve();
  private stopped: Promise<void> | null = null;

  constructor(
    stream: MediaStream,
    mimeType: string,
    private readonly onChunk: (index: number, data: ArrayBuffer) => Promise<void>,
  ) {
    const video = new MediaStream(stream.getVideoTracks());
    this.recorder = new MediaRecorder(video, { mimeType, videoBitsPerSecond: RESPONDENT_LIMITS.videoBitsPerSecond });
    this.recorder.addEventListener('dataavailable', (event) => {
      if (event.data.size === 0) return;
      const blob = event.data;
      // In order, one after another: the numbers follow the recording.
      this.chain = this.chain.then(async () => {
        const index = this.index++;
        await this.onChunk(index, await blob.arrayBuffer());
      });
    });
  }

  start(): void {
    this.recorder.start(RESPONDENT_LIMITS.timesliceMs);
  }

  get recording(): boolean {
    return this.recorder.state === 'recording';
  }

  /** Chunks handed over so far. */
  get chunks(): number {
    return this.index;
  }

  /**
   * Ends the current slice now (the recording goes on) and resolves once it has been handed over: everything
   * recorded up to this moment is then in the chunks (the calibration check needs its validation's last frames).
   */
  async slice(): Promise<void> {
    if (this.recorder.state !== 'recording') return this.chain;
    await new Promise<void>((resolve) => {
      this.recorder.addEventListener('dataavailable', () => resolve(), { once: true });
      this.recorder.requestData();
    });
    // The listener above ran after the one that queued the slice: the chain holds it now.
    await this.chain;
  }

  /** Stops and resolves once the last slice has been handed over. */
  stop(): Promise<void> {
    if (this.stopped) return this.stopped;
    this.stopped = new Promise<void>((resolve) => {
      if (this.recorder.state === 'inactive') {
        resolve();
        return;
      }
      this.recorder.addEventListener('stop', () => resolve(), { once: true });
      this.recorder.stop();
    }).then(() => this.chain);
    return this.stopped;
  }
}
