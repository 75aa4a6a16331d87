/**
 * The Web Worker that runs the face engine in the respondent's browser: `init` loads the models, then each
 * `frame` is analysed in turn and answered with its per-frame features (`FrameData`, as the server makes them).
 * Bundle this file as the worker's script (`new Worker(url, { type: 'module' })`).
 */

import { readFrame } from '../face-engine.ts';
import type { OnnxFaceEngine } from '../onnx/engine.ts';
import { createBrowserEngine, ORT_WEB_VERSION, ortThreads, rgbaToRgb } from './onnx-engine.ts';
import type { FromWorker, ToWorker, WorkerInit } from './onnx-protocol.ts';
import { yuv420ToRgb } from './yuv.ts';

interface WorkerScope {
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
}
const scope = globalThis as unknown as WorkerScope;

let engine: OnnxFaceEngine | null = null;
let settings: Required<Pick<WorkerInit, 'multiFace' | 'keepLandmarks'>> = { multiFace: false, keepLandmarks: true };
let rgb: Uint8Array | undefined;
// One frame at a time: the engine tracks faces from frame to frame.
let queue: Promise<unknown> = Promise.resolve();

async function handle(message: ToWorker): Promise<void> {
  if (message.type === 'init') {
    const started = performance.now();
    engine = await createBrowserEngine({
      ...(message.assetsBase ? { assetsBase: message.assetsBase } : {}),
      ...(message.threads ? { threads: message.threads } : {}),
      ...(message.engine ? { engine: message.engine } : {}),
    });
    settings = { multiFace: message.multiFace ?? false, keepLandmarks: message.keepLandmarks ?? true };
    scope.postMessage({
      type: 'ready',
      runtime: engine.runtime,
      threads: ortThreads(),
      ortVersion: ORT_WEB_VERSION,
      loadMs: performance.now() - started,
    });
    return;
  }
  if (!engine) throw new Error('face engine: a frame before init');
  if (message.type === 'reset') {
    engine.reset();
    return;
  }
  const { data, width, height, yuv } = message;
  if (message.fresh) engine.reset();
  let pixels = data;
  if (yuv) pixels = rgb = yuv420ToRgb({ ...yuv, data, width, height }, rgb);
  else if (data.length === 4 * width * height) pixels = rgb = rgbaToRgb(data, width, height, rgb);
  const started = performance.now();
  const { frame } = await readFrame(
    engine,
    { data: pixels, width, height },
    { index: message.index, time: message.time, ...(message.light ? { light: true } : {}) },
    settings,
  );
  scope.postMessage({ type: 'frame', id: message.id, frame, ms: performance.now() - started, data }, [data.buffer]);
}

scope.onmessage = (event) => {
  const message = event.data;
  queue = queue
    .then(() => handle(message))
    .catch((error: unknown) => {
      scope.postMessage({
        type: 'error',
        ...(message.type === 'frame' ? { id: message.id } : {}),
        message: error instanceof Error ? error.message : String(error),
      });
    });
};
