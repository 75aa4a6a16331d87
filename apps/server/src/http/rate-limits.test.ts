import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeMessage, englishMessage, SESSION_COOKIE } from '@emolens/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config.ts';
import { randomToken } from '../modules/auth/tokens.ts';
import { ENGINE_ASSETS } from '../modules/engine-assets/engine-assets.routes.ts';
import { Client, createTestApp, seedUser, type TestApp } from '../test/harness.ts';

const WEB = join(REPO_ROOT, '.tmp', `web-dist-limits-${process.pid}`);
const LIMITS = {
  rateLimitPerMinute: 4,
  addressRateLimitPerMinute: 10,
  uploadRateLimitPerMinute: 3,
  publicRateLimitPerMinute: 3,
  loginRateLimitPerMinute: 2,
  respondentRateLimitPerMinute: 3,
  respondentAddressRateLimitPerMinute: 7,
  linkSessionsPerMinute: 2,
};

let t: TestApp;
beforeAll(async () => {
  mkdirSync(join(WEB, 'assets'), { recursive: true });
  writeFileSync(join(WEB, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(WEB, 'assets', 'index-Abc123_xyZ.js'), 'console.log(1);');
  // The limits live in memory for the app's life: every test uses addresses of its own.
  t = await createTestApp({ ...LIMITS, webDist: WEB });
  await seedUser(t.app);
});
afterAll(async () => {
  await t.close();
  rmSync(WEB, { recursive: true, force: true });
});

const get = (url: string, address: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, remoteAddress: address, headers });

function expectLimited(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(429);
  const wait = Number(res.headers['retry-after']);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(60);
  const message = codeMessage('too_many_requests', wait);
  expect(res.json()).toEqual({
    code: 'too_many_requests',
    message: englishMessage(message),
    ...message,
    retry_after: wait,
  });
}

describe('public surfaces: per address', () => {
  const engineAsset = `/engine-assets/models/${ENGINE_ASSETS.models.version}/blazeface.json`;
  const surfaces = [
    ['health check', '/healthz', 200],
    ['app shell', '/', 200],
    ['web app route', '/cabinet/projects', 200],
    ['web app file', '/assets/index-Abc123_xyZ.js', 200],
    ['engine asset', engineAsset, 200],
    ['unknown path', '/no/such/file.php', 200],
    ['unknown API path', '/api/no-such-thing/', 404],
  ] as const;

  surfaces.forEach(([name, url, status], i) => {
    it(`limits the ${name}`, async () => {
      const address = `198.51.100.${i + 1}`;
      for (let n = 0; n < LIMITS.publicRateLimitPerMinute; n++)
        expect((await get(url, address)).statusCode).toBe(status);
      expectLimited(await get(url, address));
      expect((await get(url, `192.0.2.${i + 1}`)).statusCode).toBe(status);
    });
  });

  it('counts every public surface together for one address', async () => {
    const address = '198.51.100.100';
    for (const url of ['/healthz', '/', engineAsset]) expect((await get(url, address)).statusCode).toBe(200);
    expectLimited(await get('/assets/index-Abc123_xyZ.js', address));
  });

  it('counts IPv6 clients by their /64, so a subscriber cannot rotate addresses', async () => {
    for (let n = 0; n < LIMITS.publicRateLimitPerMinute; n++) {
      expect((await get('/healthz', `2001:db8:1:2::${n + 1}`)).statusCode).toBe(200);
    }
    expectLimited(await get('/healthz', '2001:db8:1:2:ffff::9'));
    expect((await get('/healthz', '2001:db8:1:3::1')).statusCode).toBe(200);
  });
});

describe('cabinet API: per session, and per address whatever the sessions', () => {
  it('limits requests without a session by address', async () => {
    for (let n = 0; n < LIMITS.rateLimitPerMinute; n++) {
      expect((await get('/api/users/user-data/', '203.0.113.1')).statusCode).toBe(401);
    }
    expectLimited(await get('/api/users/user-data/', '203.0.113.1'));
    expect((await get('/api/users/user-data/', '203.0.113.2')).statusCode).toBe(401);
  });

  it('limits logout like any other API call', async () => {
    const c = new Client(t.app, { address: '203.0.113.3' });
    // The first call also fetches the CSRF cookie: one request more.
    for (let n = 0; n < LIMITS.rateLimitPerMinute - 1; n++) {
      expect((await c.request('POST', '/api/auth/logout/')).statusCode).toBe(200);
    }
    expectLimited(await c.request('POST', '/api/auth/logout/'));
  });

  it('gives each session its own count, under one count for the address', async () => {
    const office = '203.0.113.10';
    // Each login costs two requests of the address (CSRF cookie, login).
    const first = new Client(t.app, { address: office });
    expect((await first.login()).statusCode).toBe(200);
    for (let n = 0; n < LIMITS.rateLimitPerMinute; n++) {
      expect((await first.request('GET', '/api/users/user-data/')).statusCode).toBe(200);
    }
    expectLimited(await first.request('GET', '/api/users/user-data/'));

    // A colleague at the same address is not held back by the first session's count...
    const second = new Client(t.app, { address: office });
    expect((await second.login()).statusCode).toBe(200);
    expect((await second.request('GET', '/api/users/user-data/')).statusCode).toBe(200);
    expect((await second.request('GET', '/api/users/user-data/')).statusCode).toBe(200);
    // ...until the address as a whole reaches its own limit (2 + 4 + 2 + 2 = 10 requests).
    expectLimited(await second.request('GET', '/api/users/user-data/'));
    expect((await new Client(t.app, { address: '203.0.113.11' }).login()).statusCode).toBe(200);
  });

  it('does not let invented session cookies escape the limit', async () => {
    const address = '203.0.113.20';
    const withCookie = () => get('/api/users/user-data/', address, { cookie: `${SESSION_COOKIE}=${randomToken()}` });
    for (let n = 0; n < LIMITS.addressRateLimitPerMinute; n++) expect((await withCookie()).statusCode).toBe(401);
    expectLimited(await withCookie());
  });

  it('limits login per address more strictly', async () => {
    const c = new Client(t.app, { address: '203.0.113.30' });
    for (let n = 0; n < LIMITS.loginRateLimitPerMinute; n++) {
      expect((await c.login('analyst', 'wrong')).statusCode).toBe(401);
    }
    expectLimited(await c.login());
    expect((await new Client(t.app, { address: '203.0.113.31' }).login()).statusCode).toBe(200);
  });
});

describe('uploads (/mediaserver)', () => {
  const upload = (address: string, method: 'POST' | 'PATCH' | 'HEAD', url = '/mediaserver') =>
    t.app.inject({ method, url, remoteAddress: address, headers: { 'tus-resumable': '1.0.0' } });

  it('limits upload requests per client, apart from the API', async () => {
    const address = '203.0.113.40';
    // Refused for want of a CSRF header or a session, but counted all the same.
    expect((await upload(address, 'POST')).statusCode).toBe(403);
    expect((await upload(address, 'PATCH', '/mediaserver/abc')).statusCode).toBe(403);
    expect((await upload(address, 'HEAD', '/mediaserver/abc')).statusCode).toBe(401);
    expectLimited(await upload(address, 'PATCH', '/mediaserver/abc'));
    expect((await upload('203.0.113.41', 'POST')).statusCode).toBe(403);
    // The API keeps its own count for this client.
    expect((await get('/api/users/user-data/', address)).statusCode).toBe(401);
  });

  it('limits a logged-in uploader by session', async () => {
    const c = new Client(t.app, { address: '203.0.113.50' });
    expect((await c.login()).statusCode).toBe(200);
    const limited = [];
    for (let n = 0; n <= LIMITS.uploadRateLimitPerMinute; n++) {
      limited.push((await c.upload('00000000-0000-4000-8000-000000000000', 'a.png', Buffer.from('x'))).statusCode);
    }
    // Each upload is one request here (its creation is refused: no such research), the fourth is over the limit.
    expect(limited.slice(0, 3).every((s) => s >= 400 && s < 429)).toBe(true);
    expect(limited[3]).toBe(429);
    // A colleague's session at the same address uploads on its own count.
    const colleague = new Client(t.app, { address: '203.0.113.50' });
    expect((await colleague.login()).statusCode).toBe(200);
    const theirs = await colleague.upload('00000000-0000-4000-8000-000000000000', 'a.png', Buffer.from('x'));
    expect(theirs.statusCode).not.toBe(429);
    expect(theirs.statusCode).toBeLessThan(500);
  });
});

describe('respondent API (/r): per respondent session, per address, and session starts per link', () => {
  const session = '00000000-0000-4000-8000-000000000000';
  const state = (address: string, secret?: string) =>
    get(`/r/sessions/${session}`, address, secret ? { authorization: `Bearer ${secret}` } : {});
  const start = (address: string, token: string) =>
    t.app.inject({
      method: 'POST',
      url: `/r/links/${token}/sessions`,
      remoteAddress: address,
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });

  it('gives each respondent session its own count, under one count for the address', async () => {
    const address = '203.0.113.60';
    const secret = randomToken();
    // Not found (no such session), but counted all the same.
    for (let n = 0; n < LIMITS.respondentRateLimitPerMinute; n++)
      expect((await state(address, secret)).statusCode).toBe(404);
    expectLimited(await state(address, secret));
    // Other respondents behind the same address go on (the refused request did not count for the address)...
    for (let n = 0; n < LIMITS.respondentAddressRateLimitPerMinute - LIMITS.respondentRateLimitPerMinute; n++) {
      expect((await state(address, randomToken())).statusCode).toBe(404);
    }
    // ...until the address as a whole reaches its limit; invented secrets do not escape it.
    expectLimited(await state(address, randomToken()));
    // The session is counted wherever it comes from; another address has its own count.
    expectLimited(await state('203.0.113.61', secret));
    expect((await state('203.0.113.61', randomToken())).statusCode).toBe(404);
  });

  it('counts respondent requests apart from the public and cabinet surfaces', async () => {
    const address = '203.0.113.62';
    for (let n = 0; n < LIMITS.respondentRateLimitPerMinute; n++) expect((await state(address)).statusCode).toBe(404);
    expectLimited(await state(address));
    expect((await get('/healthz', address)).statusCode).toBe(200);
    expect((await get('/api/users/user-data/', address)).statusCode).toBe(401);
  });

  it('limits session starts per link, whatever the address', async () => {
    const token = randomToken(18);
    for (let n = 0; n < LIMITS.linkSessionsPerMinute; n++) {
      expect((await start(`203.0.113.${70 + n}`, token)).statusCode).toBe(400);
    }
    expectLimited(await start('203.0.113.79', token));
    expect((await start('203.0.113.79', randomToken(18))).statusCode).toBe(400);
  });
});
