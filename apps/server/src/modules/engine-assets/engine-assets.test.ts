import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { ENGINE_ASSETS } from './engine-assets.routes.ts';

const MODELS = `/engine-assets/models/${ENGINE_ASSETS.models.version}`;
const WASM = `/engine-assets/wasm/${ENGINE_ASSETS.wasm.version}`;
const YEAR = 'public, max-age=31536000, immutable';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('engine assets', () => {
  it('serves a model json, compressed when asked, with a year of caching', async () => {
    const plain = await t.app.inject({ url: `${MODELS}/facemesh.json` });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.headers['cache-control']).toBe(YEAR);
    expect(plain.headers.etag).toMatch(/^W\/"/);
    expect(plain.json()).toHaveProperty('weightsManifest');
    expect(plain.rawPayload.equals(readFileSync(`${ENGINE_ASSETS.models.dir}/facemesh.json`))).toBe(true);

    const gzip = await t.app.inject({ url: `${MODELS}/facemesh.json`, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
    expect(gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
  });

  it('serves the weights of each model the browser loads', async () => {
    for (const model of ['blazeface', 'facemesh', 'iris']) {
      const res = await t.app.inject({ url: `${MODELS}/${model}.bin` });
      expect(res.statusCode, model).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['cache-control']).toBe(YEAR);
      expect(res.rawPayload.equals(readFileSync(`${ENGINE_ASSETS.models.dir}/${model}.bin`))).toBe(true);
    }
  });

  it('serves the wasm binaries as application/wasm', async () => {
    for (const file of [
      'tfjs-backend-wasm.wasm',
      'tfjs-backend-wasm-simd.wasm',
      'tfjs-backend-wasm-threaded-simd.wasm',
    ]) {
      const res = await t.app.inject({ url: `${WASM}/${file}` });
      expect(res.statusCode, file).toBe(200);
      expect(res.headers['content-type']).toBe('application/wasm');
      expect(res.headers['cache-control']).toBe(YEAR);
      // The WebAssembly magic number.
      expect(res.rawPayload.subarray(0, 4).toString('hex')).toBe('0061736d');
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    }
  });

  it("serves the analysis engine's ONNX models and onnxruntime-web's wasm and glue (issue 32)", async () => {
    const onnx = `/engine-assets/onnx/${ENGINE_ASSETS.onnx.version}`;
    // The server's four models and the browser's forms of the mesh and iris models (decision 071).
    const files = ['blazeface', 'facemesh', 'iris', 'emotion'].map((m) => `${m}.onnx`);
    for (const file of [...files, 'facemesh.web.onnx', 'iris.web.onnx']) {
      const res = await t.app.inject({ url: `${onnx}/${file}` });
      expect(res.statusCode, file).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['cache-control']).toBe(YEAR);
      expect(res.rawPayload.equals(readFileSync(`${ENGINE_ASSETS.onnx.dir}/${file}`))).toBe(true);
    }
    const ort = `/engine-assets/ort/${ENGINE_ASSETS.ort.version}`;
    const wasm = await t.app.inject({ url: `${ort}/ort-wasm-simd-threaded.wasm` });
    expect(wasm.statusCode).toBe(200);
    expect(wasm.headers['content-type']).toBe('application/wasm');
    expect(wasm.rawPayload.subarray(0, 4).toString('hex')).toBe('0061736d');
    const glue = await t.app.inject({ url: `${ort}/ort-wasm-simd-threaded.mjs` });
    expect(glue.statusCode).toBe(200);
    expect(glue.headers['content-type']).toBe('text/javascript; charset=utf-8');
    // It starts onnxruntime's threads' workers: it may run as a worker of an isolated page (decision 072).
    expect(glue.headers['cross-origin-embedder-policy']).toBe('credentialless');
    expect(wasm.headers['cross-origin-embedder-policy']).toBeUndefined();
    for (const url of [
      `/engine-assets/onnx/0.0.1/facemesh.onnx`,
      `${onnx}/facemesh.json`,
      `${onnx}/emotion.web.onnx`,
      `${ort}/ort-wasm-simd-threaded.jsep.wasm`,
      `${ort}/ort.min.mjs`,
    ]) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(404);
    }
  });

  it('answers a revalidation with 304 and HEAD without a body', async () => {
    const first = await t.app.inject({ url: `${MODELS}/iris.json` });
    const etag = String(first.headers.etag);
    const again = await t.app.inject({ url: `${MODELS}/iris.json`, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const head = await t.app.inject({ method: 'HEAD', url: `${WASM}/tfjs-backend-wasm-simd.wasm` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('application/wasm');
  });

  it('answers 404 for another version, a file off the list and a folder', async () => {
    for (const url of [
      '/engine-assets/models/0.0.1/facemesh.json',
      `/engine-assets/wasm/${ENGINE_ASSETS.models.version}-x/tfjs-backend-wasm.wasm`,
      `${MODELS}/emotion.json`,
      `${MODELS}/models.json`,
      `${MODELS}/README.md`,
      `${WASM}/tfjs-backend-wasm.js`,
      `${MODELS}/`,
      '/engine-assets/models/facemesh.json',
      '/engine-assets/',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 'not_found' });
    }
  });

  it('refuses path traversal, encoded or not', async () => {
    const packageJson = readFileSync('package.json', 'utf8');
    for (const url of [
      '/engine-assets/models/../../package.json',
      `${MODELS}/../../../package.json`,
      `${MODELS}/..%2F..%2F..%2Fpackage.json`,
      `${MODELS}/%2e%2e%2f%2e%2e%2fpackage.json`,
      `${MODELS}/..%5C..%5Cpackage.json`,
      '/engine-assets/models/%2e%2e/package.json',
      '/engine-assets/models/%2e%2e%2f%2e%2e%2fpackage.json',
      `/engine-assets/wasm/..%2F..%2F..%2F..%2F/package.json`,
      `${WASM}/%2e%2e%2fpackage.json`,
      `${WASM}/%252e%252e%252fpackage.json`,
      `${MODELS}/facemesh.json%00.bin`,
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('"workspaces"');
      expect(res.body).not.toBe(packageJson);
    }
  });
});

describe('engine assets next to the SPA', () => {
  it('answers a missing asset with 404, not the app shell', async () => {
    const webDist = mkdtempSync(join(tmpdir(), 'emolens-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>app shell</title>');
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'assets', 'onnx-worker-Ab12Cd34.js'), 'postMessage(1);');
    const withShell = await createTestApp({ webDist });
    try {
      const page = await withShell.app.inject({ url: '/dot-test' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('app shell');
      expect(page.headers['cross-origin-embedder-policy']).toBeUndefined();
      // The app's scripts may be workers of an isolated respondent page (decision 072).
      const script = await withShell.app.inject({ url: '/assets/onnx-worker-Ab12Cd34.js' });
      expect(script.statusCode).toBe(200);
      expect(script.headers['cross-origin-embedder-policy']).toBe('credentialless');
      for (const url of [`${MODELS}/missing.json`, '/engine-assets/models/0.0.1/iris.bin', '/engine-assets/x/y/z']) {
        const res = await withShell.app.inject({ url });
        expect(res.statusCode, url).toBe(404);
        expect(res.body, url).not.toContain('app shell');
      }
      const model = await withShell.app.inject({ url: `${MODELS}/blazeface.json` });
      expect(model.statusCode).toBe(200);
      expect(model.headers['content-type']).toBe('application/json; charset=utf-8');
    } finally {
      await withShell.close();
      rmSync(webDist, { recursive: true, force: true });
    }
  });
});
