/**
 * The page's side of the face engine's Web Worker (onnx-worker.ts): start it, send frames, get each frame's
 * features back in order.
 */
import type { FrameData } from '../types.ts';
import type { FromWorker, ToWorker, WorkerFrame, WorkerInit } from './onnx-protocol.ts';

export interface EngineWorker {
  readonly runtime: string;
  readonly threads: number;
  /** Milliseconds the worker took to load the models. */
  readonly loadMs: number;
  /** Analyses one frame (RGB24 or RGBA, transferred: do not use `data` afterwards; `buffer` of the result is it). */
  analyse(frame: Omit<WorkerFrame, 'type' | 'id'>): Promise<{ frame: FrameData; ms: number; data: Uint8Array }>;
  /** Forgets the tracked faces (a new recording). */
  reset(): void;
  terminate(): void;
}

export async function startEngineWorker(worker: Worker, init: Omit<WorkerInit, 'type'> = {}): Promise<EngineWorker> {
  const pending = new Map<
    number,
    { resolve: (r: Extract<FromWorker, { type: 'frame' }>) => void; reject: (e: Error) => void }
  >();
  let nextId = 1;
  const post = (message: ToWorker, transfer: Transferable[] = []) => worker.postMessage(message, transfer);
  const ready = new Promise<Extract<FromWorker, { type: 'ready' }>>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      if (message.type === 'ready') resolve(message);
      else if (message.type === 'frame') {
        pending.get(message.id)?.resolve(message);
        pending.delete(message.id);
      } else {
        const error = new Error(`face engine worker: ${message.message}`);
        if (message.id === undefined) reject(error);
        else {
          pending.get(message.id)?.reject(error);
          pending.delete(message.id);
        }
      }
    };
    worker.onerror = (event) => reject(new Error(`face engine worker: ${event.message}`));
  });
  post({ type: 'init', ...init });
  const info = await ready;
  return {
    runtime: info.runtime,
    threads: info.threads,
    loadMs: info.loadMs,
    analyse(frame) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: (r) => resolve({ frame: r.frame, ms: r.ms, data: r.data }), reject });
        post({ type: 'frame', id, ...frame }, [frame.data.buffer]);
      });
    },
    reset: () => post({ type: 'reset' }),
    terminate: () => worker.terminate(),
  };
}

export { RangeStarts, rangeStartTimes } from '../decode-ranges.ts';
export {
  encodeReadings,
  type FrameReadings,
  READINGS_MAX_CHUNK_BYTES,
  type ReadingsSampling,
} from '../readings.ts';
export { DEFAULT_GAZE_FPS } from '../sampling.ts';
// Privacy mode's reader on this worker (issue 32): light to import, no Human or TensorFlow.js in it.
export { cameraShape, frameCheckResult, watchVideoFrames } from './live-camera.ts';
export * from './live-reader.ts';
