import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_MESSAGES } from '@emolens/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './config.ts';
import { Client, createTestApp, seedUser, type TestApp } from './test/harness.ts';

const WEB = join(REPO_ROOT, '.tmp', `web-dist-${process.pid}`);
const ASSET = 'index-Abc123_xyZ.js';

let t: TestApp;
beforeAll(async () => {
  mkdirSync(join(WEB, 'assets'), { recursive: true });
  writeFileSync(join(WEB, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(WEB, 'assets', ASSET), `console.log(${JSON.stringify('x'.repeat(5000))});`);
  t = await createTestApp({ webDist: WEB });
});
afterAll(async () => {
  await t.close();
  rmSync(WEB, { recursive: true, force: true });
});

describe('health and docs', () => {
  it('reports the database, the storage and the workers on /healthz', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    // No worker has beaten a heartbeat in this test's database: degraded, though the API serves (decision 069).
    expect(res.json()).toEqual({
      status: 'degraded',
      database: 'ok',
      storage: 'ok',
      queue: 'stopped',
      workers: { status: 'none', lastHeartbeatSeconds: null, alive: 0 },
    });
  });

  it('says how long the server took on every answer, errors included (Server-Timing)', async () => {
    for (const url of ['/healthz', '/api/users/user-data/', '/api/no-such-route/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['server-timing'], url).toMatch(/^app;dur=\d+\.\d$/);
    }
  });

  it('serves an OpenAPI document generated from the route schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/users/user-data/'].get.responses['200']).toBeDefined();
    expect(doc.paths['/api/entity_session/batch-estimate-count/'].post.responses['200']).toBeDefined();
    const update = doc.paths['/api/cabinet/campaigns/{id}/update-campaign-data/'].patch.requestBody.content;
    expect(Object.keys(update['application/json'].schema.properties)).toContain('shelf_content_scenario');
    const login = doc.paths['/api/auth/login/'].post.requestBody.content['application/json'].schema;
    expect(login.required).toEqual(['username', 'password']);
    expect(login.additionalProperties).toBe(false);
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(ui.statusCode).toBeLessThan(400);
  });
});

describe('single-port production serving', () => {
  it('serves hashed assets with long-lived caching, compressed', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/assets/${ASSET}`,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('answers SPA routes with the app shell, never cached', async () => {
    for (const url of ['/', '/home', '/cabinet/projects', '/cabinet/campaign/new/form', '/no/such/page']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves a file added after start (a rebuilt SPA) without a restart', async () => {
    writeFileSync(join(WEB, 'assets', 'later-Zz998877.js'), 'console.log(1);');
    const res = await t.app.inject({ method: 'GET', url: '/assets/later-Zz998877.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log(1);');
  });

  it('keeps unknown API paths out of the SPA', async () => {
    for (const url of ['/api/unknown', '/mediaserver/x', '/report_builder/api/x']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
  });

  it('answers a URL the router cannot decode with the usual 400 body', async () => {
    for (const url of ['/api/cabinet/projects/%ED%A0%80/', '/mediaserver/abc%ED%A0%80', '/%E0%A4%A/x']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({
        code: 'bad_request',
        message: ERROR_MESSAGES.bad_request,
        key: 'errors.bad_request',
      });
    }
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight request finish before closing', async () => {
    const own = await createTestApp();
    await seedUser(own.app);
    const client = new Client(own.app);
    await client.request('GET', '/api/auth/csrf/');
    // A login spends ~100 ms in the password KDF: close() is called while it runs.
    const pending = client.login();
    await new Promise((r) => setTimeout(r, 5));
    const closing = own.app.close();
    const res = await pending;
    await closing;
    await own.database.dispose();
    expect(res.statusCode).toBe(200);
  });
});
