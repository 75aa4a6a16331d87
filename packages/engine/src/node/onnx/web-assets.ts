/**
 * What the browser's face engine (browser/onnx-engine.ts, issue 32) loads from the app's own origin, as files on
 * this machine: the server's four ONNX models (the mesh and iris models in their `.web.onnx` form, decision 071) by
 * the engine's version, and onnxruntime-web's WebAssembly build
 * (SIMD, threads when the page is cross-origin isolated) with its JavaScript glue, by its package's version. The
 * server's engine-assets routes serve these sets (`/engine-assets/<kind>/<version>/<file>`), and so do the tests and
 * benches that run the engine in Chromium.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MODEL_FILES } from '../../onnx/model.ts';
import { ENGINE_VERSION } from '../../version.ts';
import { ONNX_MODELS_DIR } from './model.ts';

const require = createRequire(import.meta.url);

export interface AssetSet {
  dir: string;
  version: string;
  files: ReadonlySet<string>;
}

/** A package's version from its folder (packages do not export their package.json). */
export function packageVersion(dir: string): string {
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

const ORT_WEB_DIR = dirname(require.resolve('onnxruntime-web'));

export const ONNX_WEB_ASSETS = {
  onnx: {
    dir: ONNX_MODELS_DIR,
    version: ENGINE_VERSION,
    // Each model's file for either runtime: the browser's forms of the mesh and iris models too (decision 071).
    files: new Set(MODEL_FILES),
  },
  ort: {
    dir: ORT_WEB_DIR,
    version: packageVersion(join(ORT_WEB_DIR, '..')),
    files: new Set(['ort-wasm-simd-threaded.wasm', 'ort-wasm-simd-threaded.mjs']),
  },
} as const satisfies Record<string, AssetSet>;

/** Content types of the engines' asset files, by extension. */
export const ASSET_CONTENT_TYPES: Record<string, string> = {
  json: 'application/json; charset=utf-8',
  bin: 'application/octet-stream',
  wasm: 'application/wasm',
  onnx: 'application/octet-stream',
  mjs: 'text/javascript; charset=utf-8',
};
