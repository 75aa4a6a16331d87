/**
 * Privacy mode's reader (issue 32): the respondent page analyses the camera while it records, instead of uploading
 * the video. Camera frames are taken on the same grid the server's analysis decodes a recording on (node/analyze.ts,
 * the shared rules of sampling.ts): slots at fps × k a second on the segment's clock, every k-th slot a full frame,
 * the others light; each taken frame goes to the engine's Web Worker, and the results, in time order, leave every
 * few seconds as one readings chunk. A device that cannot keep up drops frames (light ones first) rather than
 * queueing them, and says how many.
 */

import type { FrameReadings, ReadingsSampling } from '../readings.ts';
import { DEFAULT_MAX_WIDTH, lightFactor, type Sampling, samplingFor } from '../sampling.ts';
import type { FrameData } from '../types.ts';
import type { EngineWorker } from './onnx-client.ts';
import type { Grab } from './onnx-protocol.ts';

/** Seconds of the segment per readings chunk: a closed tab loses at most this much, as the video's timeslice. */
export const READINGS_CHUNK_SECONDS = 5;
/**
 * Frames sent to the worker and not answered yet, at most: the one it analyses and the one it starts next. A full
 * frame waits for a free place, a light one only for an idle worker; the others are dropped, never queued.
 */
export const MAX_IN_FLIGHT = 2;

export interface SlotPick {
  /** The slot on the grid (fps × k a second from the segment's start). */
  slot: number;
  full: boolean;
  /** The frame stands for an earlier full slot the camera jumped over, where the decoder repeats the last picture. */
  jumped: boolean;
  /** Seconds on the segment's clock: the slot's time, as the server's decoder stamps its frames. */
  time: number;
}

/**
 * The server's decoder grid for a live camera: a camera frame at `time` stands for the slot nearest to it (the fps
 * filter's rounding); a frame for a slot already taken is skipped (the decoder's repeated picture, which the server
 * skips as a light frame); when camera frames jump over a full slot, the next frame stands for it, read from the
 * picture before it where the reader has that (the decoder repeats the last picture there), so every full slot the
 * camera covers is read.
 */
export class FrameSchedule {
  readonly rate: number;
  private last = -1;

  constructor(
    readonly fps: number,
    readonly k: number,
  ) {
    this.rate = fps * k;
  }

  pick(time: number): SlotPick | null {
    if (!(time >= 0)) return null;
    const slot = Math.round(time * this.rate);
    if (slot <= this.last) return null;
    // The latest full slot in (last, slot].
    const full = Math.floor(slot / this.k) * this.k;
    const taken = full > this.last ? full : slot;
    // The first frame stands for the slots before it itself: the decoder starts on the recording's first picture.
    const jumped = taken !== slot && this.last >= 0;
    this.last = slot;
    return { slot: taken, full: taken % this.k === 0, jumped, time: taken / this.rate };
  }
}

/** The analysis size and the light factor for a camera of `width` × `height` at `cameraFps` (null: not known). */
export function liveSampling(
  camera: { width: number; height: number; fps: number | null },
  rates: { fps: number; gazeFps: number },
  maxWidth = DEFAULT_MAX_WIDTH,
): { sampling: Sampling; k: number; readings: ReadingsSampling } {
  const sampling = samplingFor(camera, { fps: rates.fps, maxWidth });
  const k = lightFactor(sampling, camera, rates.gazeFps);
  return {
    sampling,
    k,
    readings: { fps: sampling.fps, gazeFps: rates.gazeFps, width: sampling.width, height: sampling.height },
  };
}

export interface LiveReaderStats {
  /** Frames analysed per second over the last two seconds (full and light). */
  framesPerSecond: number;
  /** Full frames analysed per second over the last two seconds. */
  fullPerSecond: number;
  /** Frames sent to the worker and not answered yet. */
  backlog: number;
  analysed: { full: number; light: number };
  dropped: { full: number; light: number };
  /** Chunks handed to `onChunk`. */
  chunks: number;
  /** Bytes of those chunks. */
  bytes: number;
  /** The worker's mean milliseconds per frame. */
  meanMs: number;
}

export interface LiveReaderOptions {
  engine: Pick<EngineWorker, 'analyse' | 'reset'>;
  sampling: ReadingsSampling;
  /** Slots per full frame (`liveSampling`'s k). */
  k: number;
  /** Seconds per chunk (READINGS_CHUNK_SECONDS). */
  chunkSeconds?: number;
  /** Readings into their upload format (the engine's readings codec). */
  encode: (readings: FrameReadings) => Uint8Array | Promise<Uint8Array>;
  /** A chunk over this many bytes is split in two stretches (the server's limit on a chunk). */
  maxChunkBytes?: number;
  /** Each encoded chunk, numbered from 0 within the segment, in order; awaited before the next. */
  onChunk: (index: number, data: Uint8Array) => Promise<void> | void;
  /** Each frame's result as it comes (live guidance). */
  onFrame?: (frame: FrameData, full: boolean) => void;
  onError?: (error: unknown) => void;
  now?: () => number;
}

/** Frames per second over a sliding window. */
class Rate {
  private readonly times: number[] = [];
  constructor(private readonly windowMs = 2000) {}
  tick(now: number): void {
    this.times.push(now);
    this.trim(now);
  }
  value(now: number): number {
    this.trim(now);
    return (this.times.length * 1000) / this.windowMs;
  }
  private trim(now: number): void {
    while (this.times.length > 0 && now - (this.times[0] ?? now) > this.windowMs) this.times.shift();
  }
}

/**
 * The reader of one recording segment: `offer` each camera frame with its time on the segment's clock and a way to
 * get its pixels (called only for a frame that is analysed); `finish` at the segment's end sends the last chunk.
 */
export class LiveReader {
  private readonly o: LiveReaderOptions;
  private readonly schedule: FrameSchedule;
  private readonly now: () => number;
  private readonly chunkSeconds: number;
  private inFlight = 0;
  /** The last frame's pixels being taken (`offer`). */
  private taking: Promise<unknown> = Promise.resolve();
  /** Segment times (s, ascending) from which the engine starts afresh (`restartAt`). */
  private restarts: number[] = [];
  /** Results not yet in a chunk, in time order (the worker answers in the order it was sent). */
  private full: FrameData[] = [];
  private light: FrameData[] = [];
  /** The next chunk's end on the segment's clock. */
  private chunkEnd: number;
  private fullIndex = 0;
  private chunkIndex = 0;
  private sending: Promise<void> = Promise.resolve();
  /** Frames in the worker. */
  private readonly jobs = new Set<Promise<void>>();
  private readonly all = new Rate();
  private readonly fulls = new Rate();
  private busyMs = 0;
  private finished = false;
  private readonly counts = {
    analysed: { full: 0, light: 0 },
    dropped: { full: 0, light: 0 },
    chunks: 0,
    bytes: 0,
  };

  constructor(options: LiveReaderOptions) {
    this.o = options;
    this.schedule = new FrameSchedule(options.sampling.fps, options.k);
    this.now = options.now ?? (() => performance.now());
    this.chunkSeconds = options.chunkSeconds ?? READINGS_CHUNK_SECONDS;
    this.chunkEnd = this.chunkSeconds;
    // A new recording: no face carried over from an earlier one.
    options.engine.reset();
  }

  /**
   * The first frame analysed at `seconds` of the segment or later goes to an engine that has forgotten the tracked
   * faces, as the server's at the start of a decode range (decode-ranges.ts `RangeStarts`).
   */
  restartAt(seconds: number): void {
    this.restarts = [...this.restarts, seconds].sort((a, b) => a - b);
  }

  /**
   * A camera frame at `time` seconds of the segment: analysed when it stands for a slot of the grid and the worker
   * has room, else skipped (not a slot) or dropped (no room). Returns what happened. `previous`: the camera's frame
   * before it, read instead for a full slot the camera jumped over (the picture the server's decoder repeats there);
   * without it, this frame is.
   */
  offer(time: number, grab: Grab, previous?: Grab): 'full' | 'light' | 'skipped' | 'dropped' {
    if (this.finished) return 'skipped';
    const pick = this.schedule.pick(time);
    if (!pick) return 'skipped';
    const room = pick.full ? this.inFlight < MAX_IN_FLIGHT : this.inFlight === 0;
    if (!room) {
      if (pick.full) this.counts.dropped.full++;
      else this.counts.dropped.light++;
      return 'dropped';
    }
    // As the server's: full frames numbered in turn, a light frame carries the next full frame's number.
    const index = pick.full ? this.fullIndex++ : this.fullIndex;
    let pixels: ReturnType<Grab>;
    try {
      pixels = pick.jumped && previous ? previous() : grab();
    } catch (error) {
      this.o.onError?.(error);
      return 'dropped';
    }
    // The first slot at or after a restart (a microsecond's slack for the times' rounding).
    let fresh = false;
    while (this.restarts.length > 0 && (this.restarts[0] as number) <= pick.time + 1e-6) {
      this.restarts.shift();
      fresh = true;
    }
    this.inFlight++;
    // Pixels copied out asynchronously (a camera frame's planes) go to the worker in the order they were taken: the
    // engine tracks the face from one frame to the next.
    const taken = this.taking.then(() => pixels);
    this.taking = taken.then(
      () => undefined,
      () => undefined,
    );
    const job = taken
      .then((p) =>
        this.o.engine.analyse({
          ...p,
          index,
          time: pick.time,
          ...(pick.full ? {} : { light: true }),
          ...(fresh ? { fresh: true } : {}),
        }),
      )
      .then(
        (result) => this.received(result.frame, pick.full, result.ms),
        (error: unknown) => this.o.onError?.(error),
      )
      .finally(() => {
        this.inFlight--;
        this.jobs.delete(job);
      });
    this.jobs.add(job);
    return pick.full ? 'full' : 'light';
  }

  private received(frame: FrameData, full: boolean, ms: number): void {
    const now = this.now();
    this.all.tick(now);
    if (full) this.fulls.tick(now);
    this.busyMs += ms;
    if (full) this.counts.analysed.full++;
    else this.counts.analysed.light++;
    this.o.onFrame?.(frame, full);
    if (this.finished) return;
    // A full frame past the chunk's end closes it: everything before it is in (answers come in order).
    if (full && frame.time >= this.chunkEnd) {
      this.cut(frame.time);
      while (this.chunkEnd <= frame.time) this.chunkEnd += this.chunkSeconds;
    }
    (full ? this.full : this.light).push(frame);
  }

  /** The frames before `end` (all when undefined) leave as chunks. */
  private cut(end?: number): void {
    const before = (f: FrameData) => end === undefined || f.time < end;
    const full = this.full.filter(before);
    const light = this.light.filter(before);
    this.full = this.full.filter((f) => !before(f));
    this.light = this.light.filter((f) => !before(f));
    if (full.length === 0 && light.length === 0) return;
    this.sending = this.sending.then(() => this.send(full, light));
  }

  private async send(full: FrameData[], light: FrameData[]): Promise<void> {
    const data = await this.o.encode({ sampling: this.o.sampling, full, light });
    const max = this.o.maxChunkBytes;
    if (max !== undefined && data.byteLength > max && full.length + light.length > 1) {
      // Two stretches, split at the middle frame's time.
      const times = [...full, ...light].map((f) => f.time).sort((a, b) => a - b);
      const middle = times[Math.floor(times.length / 2)] as number;
      const first = (f: FrameData) => f.time < middle;
      await this.send(full.filter(first), light.filter(first));
      await this.send(
        full.filter((f) => !first(f)),
        light.filter((f) => !first(f)),
      );
      return;
    }
    const index = this.chunkIndex++;
    this.counts.chunks++;
    this.counts.bytes += data.byteLength;
    await this.o.onChunk(index, data);
  }

  /**
   * Sends what is read so far (the frames in the worker first) as a chunk and resolves once it is handed over; the
   * reading goes on (the calibration check needs the validation's frames sent).
   */
  async slice(): Promise<void> {
    await Promise.all([...this.jobs]);
    this.cut();
    await this.sending;
  }

  /** The segment is over: the frames in the worker are awaited, the rest leaves as the last chunk. */
  async finish(): Promise<void> {
    if (this.finished) return this.sending;
    await Promise.all([...this.jobs]);
    this.finished = true;
    this.cut();
    await this.sending;
  }

  /** Chunks handed over so far. */
  get chunks(): number {
    return this.chunkIndex;
  }

  stats(): LiveReaderStats {
    const now = this.now();
    const analysed = this.counts.analysed.full + this.counts.analysed.light;
    return {
      framesPerSecond: this.all.value(now),
      fullPerSecond: this.fulls.value(now),
      backlog: this.inFlight,
      analysed: { ...this.counts.analysed },
      dropped: { ...this.counts.dropped },
      chunks: this.counts.chunks,
      bytes: this.counts.bytes,
      meanMs: analysed ? this.busyMs / analysed : 0,
    };
  }
}
