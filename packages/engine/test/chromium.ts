/**
 * The face engine in headless Chromium, for the tests and benches of privacy mode (issue 32): a page script and the
 * engine's Web Worker bundled with esbuild, served from loopback beside the engine's models and onnxruntime-web's
 * wasm (the same files, addresses and types as the server's engine-assets routes: node/onnx/web-assets.ts), and the
 * system's Chromium launched through Playwright, with a fake camera playing a y4m file where asked.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { build } from 'esbuild';
import { ASSET_CONTENT_TYPES, ONNX_WEB_ASSETS } from '../src/node/onnx/web-assets.ts';

/** The Chromium the project tests with (Debian's package; Playwright drives it). */
export const CHROMIUM = '/usr/bin/chromium';

/** The engine's worker script, to bundle as `/worker.js`. */
export const ENGINE_WORKER_ENTRY = join(import.meta.dirname, '../src/browser/onnx-worker.ts');

/** One entry file bundled for the browser as an ES module (minified: the page loads it once). */
export async function bundleForBrowser(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    minify: true,
    logLevel: 'error',
  });
  return result.outputFiles[0]?.text ?? '';
}

export interface EnginePageServer {
  address: string;
  close(): Promise<void>;
}

/**
 * Serves `/` (a page loading `/page.js`), `/page.js`, `/worker.js` and the engine's assets under `/engine-assets/`.
 * `isolated`: cross-origin isolated (COOP and COEP), so onnxruntime may use threads.
 */
export async function serveEnginePage(scripts: { page: string; worker: string }, isolated = false) {
  const js = 'text/javascript; charset=utf-8';
  const server = createServer(async (request, response) => {
    if (isolated) {
      response.setHeader('cross-origin-opener-policy', 'same-origin');
      response.setHeader('cross-origin-embedder-policy', 'require-corp');
    }
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const send = (type: string, body: string | Uint8Array) => {
      response.writeHead(200, { 'content-type': type }).end(body);
    };
    if (path === '/') return send('text/html', '<!doctype html><body><script type="module" src="/page.js"></script>');
    if (path === '/page.js') return send(js, scripts.page);
    if (path === '/worker.js') return send(js, scripts.worker);
    const [, prefix, kind, version, file] = path.split('/');
    const set = ONNX_WEB_ASSETS[kind as keyof typeof ONNX_WEB_ASSETS];
    // Only names of the sets are served, as by the server's routes.
    if (prefix === 'engine-assets' && set && version === set.version && file && set.files.has(file)) {
      const type = ASSET_CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
      return send(type, await readFile(join(set.dir, file)));
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies EnginePageServer;
}

export interface LaunchOptions {
  /** A y4m file the fake camera plays (looping, from when the camera opens); the permission is granted. */
  camera?: string;
  /** More command-line switches. */
  args?: string[];
}

/** Headless Chromium; a missing browser is an error that says so (never a skipped test). */
export function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      ...(options.camera
        ? [
            '--use-fake-ui-for-media-stream',
            '--use-fake-device-for-media-stream',
            `--use-file-for-fake-video-capture=${options.camera}`,
          ]
        : []),
      ...(options.args ?? []),
    ],
  });
}
