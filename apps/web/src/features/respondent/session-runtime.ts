import { READINGS_MIME_TYPE, type RespondentAnalysis, type SessionEnd, type SessionState } from '@emolens/contracts';
import { type ChunkStore, memoryChunkStore, openChunkStore } from './chunk-store.ts';
import { ReadingsRecorder } from './device-analysis.ts';
import { type EventInput, EventLog } from './event-log.ts';
import { Recorder, recordingMime } from './recorder.ts';
import { respondentApi } from './respondent-api.ts';
import { Uploader, type UploadProgress } from './uploader.ts';

/** One try per call: the uploader and the event log retry on their own. */
export const ONCE = { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 };

const storageKey = (token: string) => `emolens.respondent.session.${token}`;

/** The session of a link kept in this browser (a reload resumes it). */
export const savedSession = {
  get(token: string): { id: string; secret: string } | null {
    try {
      const value = JSON.parse(localStorage.getItem(storageKey(token)) ?? 'null') as { id?: unknown; secret?: unknown };
      return typeof value?.id === 'string' && typeof value.secret === 'string'
        ? { id: value.id, secret: value.secret }
        : null;
    } catch {
      return null;
    }
  },
  set(token: string, id: string, secret: string): void {
    try {
      localStorage.setItem(storageKey(token), JSON.stringify({ id, secret }));
    } catch {
      // Private mode: a reload starts again.
    }
  },
  clear(token: string): void {
    try {
      localStorage.removeItem(storageKey(token));
    } catch {
      // Nothing kept.
    }
  },
};

export function screenSize() {
  return {
    width: Math.max(100, Math.round(window.innerWidth)),
    height: Math.max(100, Math.round(window.innerHeight)),
    device_pixel_ratio: Math.min(10, Math.max(0.25, window.devicePixelRatio || 1)),
  };
}

/** The browser's store of chunks not sent yet: IndexedDB, or memory where there is none (private mode). */
export async function openBrowserChunkStore(): Promise<ChunkStore> {
  try {
    return await openChunkStore();
  } catch {
    return memoryChunkStore();
  }
}

/** Sends every chunk and event left; rejects when retries are exhausted (the person may retry). */
export async function sendRecording(uploader: Uploader, log: EventLog): Promise<void> {
  if (uploader.failed) uploader.retry();
  // Both run to their end (success or exhausted retries) before the outcome is known.
  const results = await Promise.allSettled([uploader.flush(), log.flush()]);
  for (const r of results) if (r.status === 'rejected') throw r.reason;
}

/** A segment's recording: the camera's video (`Recorder`) or, in a device session, its readings (`ReadingsRecorder`). */
interface SegmentRecording {
  readonly recording: boolean;
  slice(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * What one page of a running session holds: the event log, the chunk uploader and, once the
 * calibration starts, the recorder of the current segment. In a preview nothing is recorded or sent.
 */
export class SessionRuntime {
  readonly id: string;
  readonly secret: string;
  readonly preview: boolean;
  readonly log: EventLog | null;
  readonly uploader: Uploader | null;
  private readonly store: ChunkStore | null;
  private recorder: SegmentRecording | null = null;
  /** Where the face analysis runs (privacy mode): on the device, readings are recorded instead of the video. */
  analysis: RespondentAnalysis;
  private segment: number | null = null;
  /** Where the current segment starts on the session clock, ms. */
  private segmentOffsetMs = 0;
  private retryTimer = 0;
  private sealTimer = 0;

  private constructor(
    state: SessionState,
    secret: string,
    store: ChunkStore | null,
    onUpload: (p: UploadProgress) => void,
  ) {
    this.id = state.session_id;
    this.secret = secret;
    this.preview = state.preview;
    this.analysis = state.analysis;
    this.store = store;
    if (state.preview || !store) {
      this.log = null;
      this.uploader = null;
      return;
    }
    this.log = new EventLog({
      session: this.id,
      storage: localStorage,
      send: (batch) => respondentApi.events(this.id, secret, batch, ONCE),
      serverNextSeq: state.next_event_seq,
      clockMs: state.clock_ms,
    });
    // A batch every two seconds: a closed tab loses at most that much, and it is kept in storage too.
    // A long outage while recording does not stop the log for good either: it tries again.
    let beat = 0;
    this.sealTimer = window.setInterval(() => {
      this.log?.seal();
      beat += 1;
      if (beat % 5 === 0 && this.log?.failed) this.log.retry();
    }, 2000);
    this.uploader = new Uploader({
      store,
      session: this.id,
      send: async (segment, index, data) => {
        await respondentApi.putChunk(this.id, secret, segment, index, data, ONCE);
      },
      acknowledged: state.segments.map((s) => ({ segment: s.segment, chunks: s.chunks })),
      onProgress: (p) => {
        onUpload(p);
        // While recording, a long outage does not stop the upload for good: it tries again later.
        if (p.failed && this.recorder) {
          window.clearTimeout(this.retryTimer);
          this.retryTimer = window.setTimeout(() => this.uploader?.retry(), 10_000);
        }
      },
    });
  }

  static async open(
    state: SessionState,
    secret: string,
    onUpload: (p: UploadProgress) => void = () => {},
  ): Promise<SessionRuntime> {
    const store = state.preview ? null : await openBrowserChunkStore();
    const runtime = new SessionRuntime(state, secret, store, onUpload);
    // Chunks an earlier page left behind go first.
    runtime.uploader?.kick();
    return runtime;
  }

  /** The session is complete: nothing more is logged, sent or kept. */
  private finished = false;

  logEvent(event: EventInput): void {
    if (this.finished) return;
    const logged = this.log?.log(event);
    if (logged && this.recorder instanceof ReadingsRecorder) this.recorder.logged(logged, this.segmentOffsetMs);
  }

  get recording(): boolean {
    return this.recorder?.recording ?? false;
  }

  /** The analysis runs on the device: the segments record readings, not video. */
  get onDevice(): boolean {
    return this.analysis.onDevice && this.analysis.site === 'device';
  }

  /**
   * Starts a recording segment on the server and the recorder on the camera: the MediaRecorder on its stream, or in a
   * device session the face engine on `video` (playing the same stream).
   */
  async startRecording(stream: MediaStream, video: HTMLVideoElement | null): Promise<void> {
    if (this.preview || this.recorder) return;
    const device = this.onDevice;
    const mime = device ? null : recordingMime();
    if (!device && !mime) throw new Error('MediaRecorder has no supported format');
    if (device && !video) throw new Error('no camera video to analyse');
    const screen = screenSize();
    const started = await respondentApi.startSegment(this.id, this.secret, {
      mime_type: mime ? mime.container : READINGS_MIME_TYPE,
      screen,
    });
    this.segment = started.segment;
    this.segmentOffsetMs = started.offset_ms;
    this.log?.startSegment(started.offset_ms);
    // The segment's clock starts here, for the event log and the readings alike.
    const origin = performance.now();
    this.log?.log({ type: 'segment_start', segment: started.segment });
    this.log?.log({ type: 'screen', ...screen });
    const segment = started.segment;
    const onChunk = (index: number, data: ArrayBuffer) =>
      this.uploader ? this.uploader.add(segment, index, data) : Promise.resolve();
    if (mime) {
      const recorder = new Recorder(stream, mime.mimeType, onChunk);
      this.recorder = recorder;
      recorder.start();
    } else this.recorder = await ReadingsRecorder.start(video as HTMLVideoElement, origin, this.analysis.fps, onChunk);
  }

  /** Stops the recorder; its last chunk is kept for the upload. */
  async stopRecording(): Promise<void> {
    window.clearTimeout(this.retryTimer);
    const recorder = this.recorder;
    this.recorder = null;
    await recorder?.stop();
  }

  /**
   * What the calibration check needs sent (decision 050): the recording so far (its current slice ended now) and
   * every event logged so far. Returns what the check names: the chunks per segment and the event batches.
   */
  async sendSoFar(): Promise<{ segments: { segment: number; chunks: number }[]; event_batches: number } | null> {
    if (!this.log || !this.uploader || !this.recorder) return null;
    await this.recorder.slice();
    this.log.seal();
    await sendRecording(this.uploader, this.log);
    return { segments: this.uploader.segments(), event_batches: this.log.batches };
  }

  /** Sends every event and chunk; rejects when retries are exhausted (the respondent may retry). */
  async sendAll(): Promise<void> {
    if (this.log && this.uploader) await sendRecording(this.uploader, this.log);
  }

  /** Everything sent: the server checks the counts and ends the session. */
  async complete(): Promise<SessionEnd> {
    if (!this.log || !this.uploader) throw new Error('nothing to complete in a preview');
    const end = await respondentApi.complete(this.id, this.secret, {
      segments: this.uploader.segments(),
      event_batches: this.log.batches,
    });
    this.finished = true;
    window.clearInterval(this.sealTimer);
    this.log.forget();
    return end;
  }

  get currentSegment(): number | null {
    return this.segment;
  }

  close(): void {
    window.clearTimeout(this.retryTimer);
    window.clearInterval(this.sealTimer);
    void this.recorder?.stop();
    if (!this.finished) this.log?.persist();
    this.store?.close();
  }
}
