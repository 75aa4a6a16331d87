/**
 * The recording analysis's face engine in the respondent's browser (issue 32, privacy mode): the server's
 * pipeline (onnx/engine.ts, the same file) on onnxruntime-web's WebAssembly build instead of onnxruntime-node.
 * The four models and onnxruntime's wasm come from the app's own origin (apps/server engine-assets routes
 * `onnx` and `ort`); nothing is fetched from elsewhere. Meant to run in a Web Worker (onnx-worker.ts): one
 * frame takes tens of milliseconds, which the page's main thread cannot spare.
 */
import * as ort from 'onnxruntime-web/wasm';
import type { HumanOptions } from '../face-engine.ts';
import { loadOnnxEngine, type OnnxFaceEngine } from '../onnx/engine.ts';
import { type ModelName, modelFile, type OnnxRuntime } from '../onnx/model.ts';
import { ENGINE_VERSION } from '../version.ts';

/** onnxruntime-web's version, bundled into the page: part of the wasm's address (as the server serves it). */
export const ORT_WEB_VERSION = ort.env.versions.web ?? 'unknown';

/**
 * The addresses under `assetsBase` (the server's /engine-assets): models by the engine's version (a model change
 * alters the numbers, so it bumps ENGINE_VERSION), the runtime by its own. A page built for other versions than
 * the server has gets 404, not a model that does not match its code.
 */
export function onnxAssetUrls(assetsBase = '/engine-assets'): { models: string; ort: string } {
  const base = assetsBase.replace(/\/+$/, '');
  return {
    models: `${base}/onnx/${ENGINE_VERSION}/`,
    ort: `${base}/ort/${ORT_WEB_VERSION}/`,
  };
}

export interface BrowserEngineOptions {
  /** Where the server serves the engine's assets. */
  assetsBase?: string;
  /**
   * WebAssembly threads for onnxruntime; more than 1 needs a cross-origin isolated page (SharedArrayBuffer),
   * otherwise 1 is used.
   */
  threads?: number;
  /** The engine's settings, as on the server (`HumanOptions`); the server's defaults when left out. */
  engine?: Partial<HumanOptions>;
  /** Replaces `fetch` (tests). */
  fetch?: typeof fetch;
}

/** onnxruntime-web with its wasm and the models from the server. */
export function webRuntime(options: BrowserEngineOptions = {}): OnnxRuntime {
  const urls = onnxAssetUrls(options.assetsBase);
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  // A prefix, not a file: onnxruntime then loads its JavaScript glue (ort-wasm-simd-threaded.mjs) from the same
  // place as the wasm, which is also what its threads' workers start from.
  ort.env.wasm.wasmPaths = urls.ort;
  ort.env.wasm.numThreads = isolated ? Math.max(1, Math.floor(options.threads ?? 1)) : 1;
  ort.env.wasm.proxy = false;
  const get = options.fetch ?? fetch;
  const source = (name: ModelName) => `${urls.models}${modelFile(name, 'onnxruntime-web')}`;
  return {
    name: 'onnxruntime-web',
    ort,
    source,
    async modelBytes(name) {
      const response = await get(source(name));
      if (!response.ok) throw new Error(`The face model ${source(name)} is unavailable: HTTP ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    },
    sessionOptions: { executionProviders: ['wasm'] },
  };
}

/** The WebAssembly threads onnxruntime-web uses (set by `webRuntime`). */
export function ortThreads(): number {
  return ort.env.wasm.numThreads ?? 1;
}

export function createBrowserEngine(options: BrowserEngineOptions = {}): Promise<OnnxFaceEngine> {
  return loadOnnxEngine(webRuntime(options), options.engine);
}

/** A camera frame as the canvas gives it (RGBA) into the engine's RGB24, into `out` when it fits. */
export function rgbaToRgb(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number, out?: Uint8Array) {
  const n = width * height;
  const rgb = out && out.length === 3 * n ? out : new Uint8Array(3 * n);
  for (let i = 0, j = 0; i < n; i++, j += 4) {
    rgb[3 * i] = rgba[j] as number;
    rgb[3 * i + 1] = rgba[j + 1] as number;
    rgb[3 * i + 2] = rgba[j + 2] as number;
  }
  return rgb;
}
