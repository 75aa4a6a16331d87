import { RESPONDENT_LIMITS } from '@emolens/contracts';
import type { FaceCheckResult } from '@emolens/engine/browser';
import type { EngineWorker, LiveReader, LiveReaderOptions, LiveReaderStats } from '@emolens/engine/browser/onnx';

/**
 * Privacy mode in the respondent's page (issue 32; decisions 064, 065): the server's face engine in a Web Worker, fed
 * the camera's frames on the server decoder's grid (`LiveReader`). One engine runs at a time: during the face check
 * it shows the check's result and measures the device's rate; while recording, its readings go up in the chunks and
 * its full frames drive the live guidance. Nothing here runs in a session that uploads its video.
 */

/** The rates the page reads at: full frames at the analysis rate, light ones between them up to the gaze's rate. */
export interface DeviceRates {
  fps: number;
  gazeFps: number;
}

type Onnx = typeof import('@emolens/engine/browser/onnx');

let engine: Promise<{ worker: EngineWorker; onnx: Onnx }> | null = null;

/** The worker with its models (loaded once a page, within the spec's 120 s for scripts and models). */
export function loadDeviceEngine(): Promise<{ worker: EngineWorker; onnx: Onnx }> {
  engine ??= Promise.race([
    (async () => {
      const [onnx, script] = await Promise.all([
        import('@emolens/engine/browser/onnx'),
        import('@emolens/engine/browser/onnx-worker?worker'),
      ]);
      const worker = await onnx.startEngineWorker(new script.default(), {
        threads: Math.max(1, Math.min(4, (navigator.hardwareConcurrency ?? 2) - 1)),
        keepLandmarks: false,
      });
      return { worker, onnx };
    })(),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('device engine load timed out')), RESPONDENT_LIMITS.scriptTimeoutMs),
    ),
  ]);
  engine.catch(() => {
    engine = null;
  });
  return engine;
}

/** The page's reading rates: the session's analysis rate, gaze up to 30 a second (decision 049). */
export function deviceRates(onnx: Pick<Onnx, 'DEFAULT_GAZE_FPS'>, fps: number): DeviceRates {
  return { fps, gazeFps: onnx.DEFAULT_GAZE_FPS };
}

/** Full frames' results as the face check's, to whoever listens (the face check, then the live guidance). */
type Listener = (result: FaceCheckResult) => void;
const listeners = new Set<Listener>();

/** Listens to the running reader's full frames; returns the stop function. */
export function onDeviceResult(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export interface DeviceReading {
  reader: LiveReader;
  /**
   * Full frames (the analysis rate's) analysed a second since the warm-up: the device-check's figure, once `measured`
   * resolves.
   */
  measuredRate(): number;
  /** Resolves once the rate has been measured for `MEASURE_SECONDS` after the warm-up (or the reading stopped). */
  measured(): Promise<void>;
  stats(): LiveReaderStats;
  /** Sends what is read so far as a chunk (the calibration check), reading on. */
  slice(): Promise<void>;
  /** Stops reading; the last chunk is handed over. */
  finish(): Promise<void>;
}

export interface ReadOptions {
  /** The segment's start on the `performance.now` clock (a preview: when it starts). */
  originMs: number;
  /** The session's analysis rate (`RespondentAnalysis.fps`): full frames a second. */
  fps: number;
  /** Encodes and hands over each chunk; a preview sends nothing. */
  chunks?: {
    encode: LiveReaderOptions['encode'];
    maxBytes: number;
    onChunk: (index: number, data: Uint8Array) => Promise<void>;
  };
  onError?: (error: unknown) => void;
}

/** Full frames left out of the measured rate: the first ones compile and warm the engine's wasm. */
export const WARMUP_FRAMES = 5;
/** Seconds of steady reading the rate is measured over. */
export const MEASURE_SECONDS = 3;

/** The one reader running on the worker: a new one stops the last. */
let current: DeviceReading | null = null;

/** The reader running now (the face check's, whose rate the journey reports), if any. */
export function currentReading(): DeviceReading | null {
  return current;
}

/**
 * Reads the camera's frames of `video` (playing the camera's stream) on the worker. Resolves once the video has a
 * picture; the reading runs until `finish`.
 */
export async function readCamera(video: HTMLVideoElement, options: ReadOptions): Promise<DeviceReading> {
  const { worker, onnx } = await loadDeviceEngine();
  await current?.finish();
  if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA || !video.videoWidth) {
    await new Promise<void>((resolve) => video.addEventListener('loadeddata', () => resolve(), { once: true }));
  }
  const camera = onnx.cameraShape(video);
  const { k, readings } = onnx.liveSampling(camera, deviceRates(onnx, options.fps));
  const size = { width: readings.width, height: readings.height };
  // The measurement: full frames after the warm-up, from the end of the warm-up.
  let fulls = 0;
  let steadySince: number | null = null;
  let onMeasured = () => {};
  const measured = new Promise<void>((resolve) => {
    onMeasured = resolve;
  });
  let sinceFull = performance.now();
  const reader = new onnx.LiveReader({
    engine: worker,
    sampling: readings,
    k,
    encode: options.chunks?.encode ?? (() => new Uint8Array()),
    ...(options.chunks ? { maxChunkBytes: options.chunks.maxBytes } : {}),
    onChunk: async (index, data) => {
      await options.chunks?.onChunk(index, data);
    },
    onFrame: (frame, full) => {
      const now = performance.now();
      if (!full) return;
      fulls++;
      if (fulls === WARMUP_FRAMES) steadySince = now;
      if (steadySince !== null && now - steadySince >= MEASURE_SECONDS * 1000) onMeasured();
      const result = onnx.frameCheckResult(frame, size, reader.stats().fullPerSecond, now - sinceFull);
      sinceFull = now;
      for (const listener of listeners) listener(result);
    },
    ...(options.onError ? { onError: options.onError } : {}),
  });
  const stop = onnx.watchVideoFrames(video, size, options.originMs, (time, grab, previous) => {
    reader.offer(time, grab, previous);
  });
  let finished: Promise<void> | null = null;
  let onFinishing = () => {};
  const finishing = new Promise<void>((resolve) => {
    onFinishing = resolve;
  });
  const reading: DeviceReading = {
    reader,
    measuredRate: () => {
      const seconds = steadySince === null ? 0 : (performance.now() - steadySince) / 1000;
      return seconds > 0 ? (fulls - WARMUP_FRAMES) / seconds : 0;
    },
    measured: () => Promise.race([measured, finishing]),
    stats: () => reader.stats(),
    slice: () => reader.slice(),
    finish: () => {
      finished ??= (async () => {
        onFinishing();
        stop();
        await reader.finish();
        if (current === reading) current = null;
      })();
      return finished;
    },
  };
  current = reading;
  return reading;
}

/**
 * A device session's recording of one segment (what `SessionRuntime` runs instead of the MediaRecorder): the camera's
 * readings, encoded and handed over as numbered chunks, like the recorder's video slices.
 */
export class ReadingsRecorder {
  private stopped = false;

  private constructor(
    private readonly reading: DeviceReading,
    private readonly ranges: InstanceType<Onnx['RangeStarts']>,
  ) {}

  /**
   * Reads `video` from `originMs` (the segment's start on the `performance.now` clock, where the event log's segment
   * clock starts) at the analysis rate `fps`; each chunk goes to `onChunk` with its number within the segment, in
   * order.
   */
  static async start(
    video: HTMLVideoElement,
    originMs: number,
    fps: number,
    onChunk: (index: number, data: ArrayBuffer) => Promise<void>,
  ): Promise<ReadingsRecorder> {
    const { onnx } = await loadDeviceEngine();
    let warned = false;
    const reading = await readCamera(video, {
      originMs,
      fps,
      chunks: {
        encode: onnx.encodeReadings,
        maxBytes: onnx.READINGS_MAX_CHUNK_BYTES,
        onChunk: (index, data) =>
          onChunk(index, data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer),
      },
      onError: (error) => {
        // Once: a failing frame repeats on every following one.
        if (!warned) console.warn('device analysis failed on a frame', error);
        warned = true;
      },
    });
    return new ReadingsRecorder(reading, new onnx.RangeStarts());
  }

  get recording(): boolean {
    return !this.stopped;
  }

  stats(): LiveReaderStats {
    return this.reading.stats();
  }

  /**
   * An event the journey logged (`t` on the session clock; the segment started at `offsetMs` of it): where the server
   * starts a decode range of the recording, the engine starts afresh, so both track the face from the same frame.
   */
  logged(event: { type: string; t: number }, offsetMs: number): void {
    if (this.ranges.starts(event)) this.reading.reader.restartAt((event.t - offsetMs) / 1000);
  }

  /** Everything read up to now is handed over (the calibration check's validation frames); reading goes on. */
  slice(): Promise<void> {
    return this.reading.slice();
  }

  /** Stops and resolves once the last chunk has been handed over. */
  stop(): Promise<void> {
    this.stopped = true;
    return this.reading.finish();
  }
}
