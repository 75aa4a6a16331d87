import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ASSET_CONTENT_TYPES, type AssetSet, ONNX_WEB_ASSETS, packageVersion } from '@emolens/engine';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import { WORKER_SCRIPT_HEADERS } from '../../http/isolation.ts';

const require = createRequire(import.meta.url);

// The packages do not export their package.json: locate each from its main file.
const HUMAN_DIR = join(dirname(require.resolve('@vladmandic/human')), '..');
const WASM_DIR = dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));

/**
 * What the browser face check (packages/engine/src/browser) loads: the face detector, the mesh and
 * the iris models, and TensorFlow's WebAssembly binaries (tfjs picks one by the browser's SIMD and
 * thread support). And what the recording analysis's engine loads in the browser (browser/onnx-engine.ts,
 * issue 32): the server's own four ONNX models (the mesh and iris models in their `.web.onnx` form, decision 071),
 * by the engine's version, and onnxruntime-web's WebAssembly
 * build (SIMD, threads when the page is cross-origin isolated) with its JavaScript glue. Nothing else in
 * these packages is reachable.
 */
export const ENGINE_ASSETS = {
  models: {
    dir: join(HUMAN_DIR, 'models'),
    version: packageVersion(HUMAN_DIR),
    files: new Set(['blazeface', 'facemesh', 'iris'].flatMap((m) => [`${m}.json`, `${m}.bin`])),
  },
  wasm: {
    dir: WASM_DIR,
    version: packageVersion(join(WASM_DIR, '..')),
    files: new Set(['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm']),
  },
  // The ONNX engine's (packages/engine node/onnx/web-assets.ts).
  ...ONNX_WEB_ASSETS,
} as const satisfies Record<string, AssetSet>;

/**
 * The version of the package is part of the address (/engine-assets/models/3.3.6/iris.bin), and the
 * browser entry builds it from the versions bundled into it. So a file never changes under its address
 * and browsers may keep it for a year without asking again; after an upgrade the addresses change. A page
 * built for other versions than the server has gets 404, not a model or a wasm binary that does not
 * match its code.
 */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

const params = z.object({ version: z.string().max(40), file: z.string().max(80) });

export function engineAssetsRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    for (const [kind, set] of Object.entries(ENGINE_ASSETS)) {
      app.get(`/engine-assets/${kind}/:version/:file`, { schema: { hide: true, params } }, async (request, reply) => {
        const { version, file } = request.params;
        // Only names of the list are served, so no path built from the request reaches the disk.
        if (version !== set.version || !set.files.has(file)) throw new AppError('not_found');
        const path = join(set.dir, file);
        const info = await stat(path);
        const etag = `W/"${set.version}-${info.size.toString(16)}-${Math.trunc(info.mtimeMs).toString(16)}"`;
        reply
          .header('cache-control', CACHE_CONTROL)
          .header('etag', etag)
          .header('x-content-type-options', 'nosniff')
          .header('cross-origin-resource-policy', 'same-origin')
          .type(ASSET_CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? 'application/octet-stream');
        // onnxruntime's glue starts its threads' workers from itself (an isolated page's, decision 072).
        if (file.endsWith('.mjs')) reply.headers(WORKER_SCRIPT_HEADERS);
        if (request.headers['if-none-match']?.split(/\s*,\s*/).some((t) => t.replace(/^W\//, '') === etag.slice(2))) {
          return reply.code(304).send();
        }
        reply.header('content-length', info.size);
        return reply.send(createReadStream(path));
      });
    }
  };
}
