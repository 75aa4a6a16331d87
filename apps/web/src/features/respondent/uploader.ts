import { ApiRequestError } from '../../api/client.ts';
import type { ChunkStore } from './chunk-store.ts';
import { DEFAULT_RETRY, isRetryable, type RetryPolicy, retryDelay } from './respondent-api.ts';

/** Sends one chunk once (no retry of its own); throws `ApiRequestError`. */
export type SendChunk = (segment: number, index: number, data: ArrayBuffer) => Promise<void>;

export interface UploadProgress {
  /** Chunks waiting in the store. */
  pending: number;
  /** Bytes acknowledged by the server since this page opened. */
  sentBytes: number;
  /** Bytes waiting in the store (known after the first look at it). */
  pendingBytes: number;
  /** Retries are exhausted: the respondent is offered to try again. */
  failed: boolean;
  /** The failure, when there is one. */
  error: unknown;
}

export interface UploaderOptions {
  store: ChunkStore;
  session: string;
  send: SendChunk;
  retry?: RetryPolicy;
  /** Chunks acknowledged per segment before this page (from the session state). */
  acknowledged?: { segment: number; chunks: number }[];
  onProgress?: (progress: UploadProgress) => void;
}

/**
 * Uploads the recorder's chunks in order of (segment, index), one at a time: the server stores them
 * idempotently by that pair, so a chunk sent twice (an answer lost on the way, a reload) is stored
 * once. A chunk leaves the store only when the server has acknowledged it. When a chunk's retries are
 * exhausted the uploader stops and says so; `retry()` goes on from the same chunk.
 */
export class Uploader {
  private readonly o: UploaderOptions;
  private readonly retryPolicy: RetryPolicy;
  /** Acknowledged chunks per segment: the highest index + 1. */
  private readonly counts = new Map<number, number>();
  private running: Promise<void> | null = null;
  /** A chunk arrived while the pump was finishing: look at the store once more. */
  private again = false;
  private failure: unknown = null;
  private sentBytes = 0;
  private pendingCount = 0;
  private pendingBytes = 0;
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];

  constructor(options: UploaderOptions) {
    this.o = options;
    this.retryPolicy = options.retry ?? DEFAULT_RETRY;
    for (const s of options.acknowledged ?? []) this.counts.set(s.segment, s.chunks);
  }

  /** Keeps a new chunk (in the store first, so it survives a reload) and sends it when its turn comes. */
  async add(segment: number, index: number, data: ArrayBuffer): Promise<void> {
    await this.o.store.put({ session: this.o.session, segment, index, data });
    this.kick();
  }

  /** Starts sending what the store holds (chunks left by an earlier page first). */
  kick(): void {
    if (this.failure !== null) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.again = false;
    this.running = this.pump().finally(() => {
      this.running = null;
      if (this.again) this.kick();
    });
  }

  /** Resolves once every stored chunk is acknowledged; rejects when the retries are exhausted. */
  flush(): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    const promise = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.running) this.kick();
    return promise;
  }

  /** After a failure: tries again from the chunk that failed. */
  retry(): void {
    this.failure = null;
    this.report();
    this.kick();
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  /** Chunks per segment acknowledged so far (what `complete` names). */
  segments(): { segment: number; chunks: number }[] {
    return [...this.counts.entries()]
      .filter(([, chunks]) => chunks > 0)
      .sort(([a], [b]) => a - b)
      .map(([segment, chunks]) => ({ segment, chunks }));
  }

  progress(): UploadProgress {
    return {
      pending: this.pendingCount,
      sentBytes: this.sentBytes,
      pendingBytes: this.pendingBytes,
      failed: this.failure !== null,
      error: this.failure,
    };
  }

  private report(): void {
    this.o.onProgress?.(this.progress());
  }

  private async pump(): Promise<void> {
    for (;;) {
      const rows = await this.o.store.pending(this.o.session);
      this.pendingCount = rows.length;
      this.pendingBytes = rows.reduce((sum, r) => sum + r.data.byteLength, 0);
      this.report();
      const next = rows[0];
      if (!next) {
        for (const w of this.waiters.splice(0)) w.resolve();
        return;
      }
      try {
        await this.sendWithRetries(next.segment, next.index, next.data);
      } catch (error) {
        this.failure = error;
        this.report();
        for (const w of this.waiters.splice(0)) w.reject(error);
        return;
      }
      await this.o.store.remove(this.o.session, next.segment, next.index);
      this.counts.set(next.segment, Math.max(this.counts.get(next.segment) ?? 0, next.index + 1));
      this.sentBytes += next.data.byteLength;
    }
  }

  private async sendWithRetries(segment: number, index: number, data: ArrayBuffer): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.o.send(segment, index, data);
        return;
      } catch (error) {
        if (!isRetryable(error) || attempt + 1 >= this.retryPolicy.attempts) throw error;
        const after = error instanceof ApiRequestError ? error.retryAfter : undefined;
        await new Promise((resolve) => setTimeout(resolve, retryDelay(this.retryPolicy, attempt, after)));
      }
    }
  }
}
