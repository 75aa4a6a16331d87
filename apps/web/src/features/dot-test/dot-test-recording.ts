import type { DotTestState } from '@emolens/contracts';
import type { ChunkStore } from '../respondent/chunk-store.ts';
import { type EventInput, EventLog } from '../respondent/event-log.ts';
import { Recorder } from '../respondent/recorder.ts';
import { ONCE, openBrowserChunkStore, screenSize, sendRecording } from '../respondent/session-runtime.ts';
import { Uploader, type UploadProgress } from '../respondent/uploader.ts';
import { dotTestApi } from './dot-test-api.ts';

/**
 * What one check records, like a respondent's session runtime but in one piece: the recorder, its chunks'
 * uploader and the calibration's event log, all on the check's own clock.
 */
export class DotTestRecording {
  readonly id: string;
  readonly secret: string;
  private readonly store: ChunkStore;
  private readonly uploader: Uploader;
  private log: EventLog | null = null;
  private recorder: Recorder | null = null;
  private sealTimer = 0;

  private constructor(id: string, secret: string, store: ChunkStore, onUpload: (p: UploadProgress) => void) {
    this.id = id;
    this.secret = secret;
    this.store = store;
    this.uploader = new Uploader({
      store,
      session: id,
      send: async (_segment, index, data) => {
        await dotTestApi.putChunk(id, secret, index, data, ONCE);
      },
      onProgress: onUpload,
    });
  }

  static async open(id: string, secret: string, onUpload: (p: UploadProgress) => void): Promise<DotTestRecording> {
    return new DotTestRecording(id, secret, await openBrowserChunkStore(), onUpload);
  }

  /** The recorder and the log from the same instant: the first frame is t = 0 of the event log. */
  start(stream: MediaStream, mimeType: string): void {
    this.recorder = new Recorder(stream, mimeType, (index, data) => this.uploader.add(0, index, data));
    this.recorder.start();
    const log = new EventLog({
      session: this.id,
      storage: localStorage,
      send: (batch) => dotTestApi.events(this.id, this.secret, batch, ONCE),
      serverNextSeq: 0,
      clockMs: 0,
    });
    this.log = log;
    log.log({ type: 'screen', ...screenSize() });
    this.sealTimer = window.setInterval(() => log.seal(), 2000);
  }

  get started(): boolean {
    return this.log !== null;
  }

  logEvent(event: EventInput): void {
    this.log?.log(event);
  }

  /** Stops the recorder; its last chunk is kept for the upload. */
  async stop(): Promise<void> {
    window.clearInterval(this.sealTimer);
    await this.recorder?.stop();
  }

  /** Sends every chunk and event, then the counts: the check is queued for its analysis. */
  async complete(): Promise<DotTestState> {
    const log = this.log;
    if (!log) throw new Error('the check has not started recording');
    await sendRecording(this.uploader, log);
    const state = await dotTestApi.complete(this.id, this.secret, {
      chunks: this.uploader.segments()[0]?.chunks ?? 0,
      event_batches: log.batches,
    });
    log.forget();
    return state;
  }

  close(): void {
    window.clearInterval(this.sealTimer);
    void this.recorder?.stop();
    this.store.close();
  }
}
