import { type EventBatchInput, RESPONDENT_LIMITS, type RespondentEvent } from '@emolens/contracts';
import { ApiRequestError } from '../../api/client.ts';
import { DEFAULT_RETRY, isRetryable, type RetryPolicy, retryDelay } from './respondent-api.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event as the journey logs it: the log stamps the time. */
export type EventInput = DistributiveOmit<RespondentEvent, 't'>;

/** The part of `localStorage` the log uses. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface EventLogOptions {
  session: string;
  storage: KeyValueStorage;
  /** Posts one batch once (no retry of its own); throws `ApiRequestError`. */
  send: (batch: EventBatchInput) => Promise<unknown>;
  /** The batch the server expects next (session state): batches before it are stored already. */
  serverNextSeq: number;
  /** The session clock now (ms, the session state's `clock_ms`). */
  clockMs: number;
  /** A monotonic clock in ms (`performance.now`). */
  now?: () => number;
  retry?: RetryPolicy;
}

interface Persisted {
  nextSeq: number;
  lastT: number;
  pending: EventBatchInput[];
  buffer: RespondentEvent[];
}

export const eventLogKey = (session: string) => `emolens.respondent.events.${session}`;

/**
 * The stimulus event log (design section 6). Times are on the session clock: the server's offset of
 * the current segment (or the session clock when the page opened) plus `performance.now()` since
 * then, never going backwards. Events gather into batches numbered by `seq`; the server stores a
 * batch once by its number. The log's state (next number, batches not yet acknowledged, the last
 * time) lives in `localStorage`, so a reload goes on with the next number and resends what was lost.
 */
export class EventLog {
  private readonly o: EventLogOptions;
  private readonly now: () => number;
  private readonly retryPolicy: RetryPolicy;
  private state: Persisted;
  private base: number;
  private started: number;
  private sending: Promise<void> | null = null;
  private again = false;
  private failure: unknown = null;
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];

  constructor(options: EventLogOptions) {
    this.o = options;
    this.now = options.now ?? (() => performance.now());
    this.retryPolicy = options.retry ?? DEFAULT_RETRY;
    const saved = this.load();
    const nextSeq = Math.max(saved?.nextSeq ?? 0, options.serverNextSeq);
    this.state = {
      nextSeq,
      lastT: saved?.lastT ?? 0,
      // What the server has stored already is not sent again.
      pending: (saved?.pending ?? []).filter((b) => b.seq >= options.serverNextSeq),
      buffer: saved?.buffer ?? [],
    };
    this.base = options.clockMs;
    this.started = this.now();
    this.seal();
  }

  /** A recording segment started at `offsetMs` of the session clock: times count from there now. */
  startSegment(offsetMs: number): void {
    this.base = offsetMs;
    this.started = this.now();
  }

  /** The session clock now, ms (never less than a time already logged). */
  time(): number {
    const t = Math.round(this.base + (this.now() - this.started));
    return Math.max(t, this.state.lastT);
  }

  log(event: EventInput): RespondentEvent {
    const stamped = { ...event, t: this.time() } as RespondentEvent;
    this.state.lastT = stamped.t;
    this.state.buffer.push(stamped);
    if (this.state.buffer.length >= RESPONDENT_LIMITS.eventsPerBatch) this.seal();
    return stamped;
  }

  /** Closes the events logged so far into a numbered batch, kept until the server acknowledges it. */
  seal(): void {
    if (this.state.buffer.length > 0) {
      this.state.pending.push({ seq: this.state.nextSeq, events: this.state.buffer });
      this.state.nextSeq += 1;
      this.state.buffer = [];
    }
    this.persist();
    this.kick();
  }

  /** Seals and resolves once every batch is acknowledged; rejects when the retries are exhausted. */
  flush(): Promise<void> {
    this.failure = null;
    const promise = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.seal();
    if (!this.sending) this.kick();
    return promise;
  }

  /** The retries of a batch are exhausted: nothing is sent until `retry()` or `flush()`. */
  get failed(): boolean {
    return this.failure !== null;
  }

  /** Goes on sending after a failure. */
  retry(): void {
    this.failure = null;
    this.kick();
  }

  /** Batches numbered so far (what `complete` names). */
  get batches(): number {
    return this.state.nextSeq;
  }

  get unsent(): number {
    return this.state.pending.length + (this.state.buffer.length > 0 ? 1 : 0);
  }

  /** Keeps the log's state now (the page is going away). */
  persist(): void {
    try {
      this.o.storage.setItem(eventLogKey(this.o.session), JSON.stringify(this.state));
    } catch {
      // Storage full or refused: the batches are still sent from memory.
    }
  }

  /** The session is over: its state is no longer needed. */
  forget(): void {
    this.o.storage.removeItem(eventLogKey(this.o.session));
  }

  private load(): Persisted | null {
    try {
      const raw = this.o.storage.getItem(eventLogKey(this.o.session));
      if (!raw) return null;
      const value = JSON.parse(raw) as Persisted;
      return typeof value.nextSeq === 'number' && Array.isArray(value.pending) ? value : null;
    } catch {
      return null;
    }
  }

  private kick(): void {
    if (this.failure !== null) return;
    if (this.sending) {
      this.again = true;
      return;
    }
    this.again = false;
    this.sending = this.pump().finally(() => {
      this.sending = null;
      if (this.again) this.kick();
    });
  }

  private async pump(): Promise<void> {
    for (;;) {
      const next = this.state.pending[0];
      if (!next) {
        for (const w of this.waiters.splice(0)) w.resolve();
        return;
      }
      try {
        await this.sendWithRetries(next);
      } catch (error) {
        this.failure = error;
        for (const w of this.waiters.splice(0)) w.reject(error);
        return;
      }
      this.state.pending.shift();
      this.persist();
    }
  }

  private async sendWithRetries(batch: EventBatchInput): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.o.send(batch);
        return;
      } catch (error) {
        if (!isRetryable(error) || attempt + 1 >= this.retryPolicy.attempts) throw error;
        const after = error instanceof ApiRequestError ? error.retryAfter : undefined;
        await new Promise((resolve) => setTimeout(resolve, retryDelay(this.retryPolicy, attempt, after)));
      }
    }
  }
}
