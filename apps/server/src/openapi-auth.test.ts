import { SESSION_COOKIE } from '@emolens/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from './modules/auth/tokens.ts';
import { Client, createTestApp, TEST_BACKEND, type TestApp } from './test/harness.ts';
import { fillPath, openApiOperations } from './test/openapi.ts';

/**
 * Every operation of the served OpenAPI document, called without a login (with a valid CSRF pair,
 * a body, query and path that are all invalid): the ones that need a login answer 401, before
 * anything of the request is validated. The public ones are named here, one by one.
 */
const PUBLIC = new Set([
  'GET /api/auth/csrf/',
  'POST /api/auth/login/',
  'POST /api/auth/logout/',
  'GET /api/auth/sso/',
  'GET /api/auth/sso/start/',
  'GET /api/auth/sso/callback/',
  'GET /api/public/benchmark-base/',
  'POST /api/public/access-requests/',
]);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimitPerMinute: 1_000_000 });
});
afterAll(async () => {
  await t?.close();
});

describe(`authentication before validation on ${TEST_BACKEND}`, () => {
  it('answers 401 to every operation but the public ones, whatever the request holds', async () => {
    const operations = (await openApiOperations(t.app)).filter((op) => op.path.startsWith('/api/'));
    const wrong: string[] = [];
    const seenPublic: string[] = [];
    for (const stale of [false, true]) {
      const client = new Client(t.app);
      for (const op of operations) {
        // A session cookie the server does not know (forged, expired, logged out) is no login either.
        if (stale) client.cookies.set(SESSION_COOKIE, 'forged-or-expired');
        const name = `${op.method} ${op.path}`;
        const ids = Object.fromEntries(op.pathParams.map((p) => [p, 'not-an-id%00']));
        const query = op.queryParams.length ? `?${op.queryParams.map((q) => `${q.name}=%00`).join('&')}` : '';
        const res = await client.request(op.method, `${fillPath(op.path, ids, true)}${query}`, {
          // Wrong types and an unknown field: any validation would answer 400 and name them.
          body: op.method === 'GET' || op.method === 'DELETE' ? undefined : { unknown_field: '\u0000', id: 42 },
        });
        if (PUBLIC.has(name)) {
          if (!stale) seenPublic.push(name);
          if (res.statusCode === 401) wrong.push(`${name} -> 401 (public)`);
          continue;
        }
        const body = res.json();
        if (res.statusCode !== 401 || body.code !== 'unauthorized' || body.fields) {
          wrong.push(`${name}${stale ? ' (stale cookie)' : ''} -> ${res.statusCode} ${res.body}`);
        }
      }
    }
    expect(wrong, wrong.join('\n')).toEqual([]);
    // Every public operation is still in the document, and the rest is most of it.
    expect(seenPublic.sort()).toEqual([...PUBLIC].sort());
    expect(operations.length - PUBLIC.size).toBeGreaterThanOrEqual(35);
  });
});

/**
 * The respondent API (/r) has no login: the operations of a respondent session (security
 * `respondentSecret` in the document) answer "session not found" to a call without the session's
 * secret, before anything of the request is validated; the others (a link's page, signed content
 * URLs, public statistics) never answer 401 or 5xx to garbage.
 */
describe(`respondent sessions before validation on ${TEST_BACKEND}`, () => {
  it('answers 404 session-not-found to every respondent-session operation without its secret', async () => {
    const operations = (await openApiOperations(t.app)).filter((op) => op.path.startsWith('/r/'));
    const secured = operations.filter((op) => op.security.includes('respondentSecret'));
    const wrong: string[] = [];
    const session = '00000000-0000-4000-8000-000000000000';
    for (const authorization of [undefined, `Bearer ${randomToken()}`, 'Bearer short', `Basic ${randomToken()}`]) {
      for (const op of operations) {
        const name = `${op.method} ${op.path}`;
        const ids = Object.fromEntries(op.pathParams.map((p) => [p, p === 'id' ? session : 'not-an-id']));
        const query = op.queryParams.length ? `?${op.queryParams.map((q) => `${q.name}=%00`).join('&')}` : '';
        const res = await t.app.inject({
          method: op.method,
          url: `${fillPath(op.path, ids)}${query}`,
          headers: {
            ...(authorization ? { authorization } : {}),
            ...(op.method === 'GET' ? {} : { 'content-type': 'application/json' }),
          },
          payload: op.method === 'GET' ? undefined : JSON.stringify({ unknown_field: 'x', id: 42 }),
        });
        if (!secured.includes(op)) {
          if (res.statusCode === 401 || res.statusCode >= 500) wrong.push(`${name} -> ${res.statusCode} ${res.body}`);
          continue;
        }
        const body = res.json();
        const key = op.path.startsWith('/r/dot-tests/') ? 'respondent.dotTestNotFound' : 'respondent.sessionNotFound';
        if (res.statusCode !== 404 || body.key !== key || body.fields) {
          wrong.push(`${name} (${authorization ?? 'no secret'}) -> ${res.statusCode} ${res.body}`);
        }
      }
    }
    expect(wrong, wrong.join('\n')).toEqual([]);
    // Every operation of a session is in the document as one.
    expect(secured.map((op) => `${op.method} ${op.path}`).sort()).toEqual(
      [
        'GET /r/sessions/{id}',
        'GET /r/sessions/{id}/calibration-checks/{attempt}',
        'POST /r/sessions/{id}/calibration-checks',
        'POST /r/sessions/{id}/complete',
        'POST /r/sessions/{id}/device-check',
        'POST /r/sessions/{id}/analysis-site',
        'POST /r/sessions/{id}/device-too-slow',
        'POST /r/sessions/{id}/events',
        'POST /r/sessions/{id}/leave',
        'POST /r/sessions/{id}/segments',
        'PUT /r/sessions/{id}/segments/{segment}/chunks/{index}',
        'PUT /r/sessions/{id}/surveys/{slot}/answers',
        'GET /r/dot-tests/{id}',
        'DELETE /r/dot-tests/{id}',
        'PUT /r/dot-tests/{id}/chunks/{index}',
        'POST /r/dot-tests/{id}/events',
        'POST /r/dot-tests/{id}/complete',
      ].sort(),
    );
  });
});
