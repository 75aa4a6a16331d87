import { SESSION_COOKIE } from '@emolens/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, TEST_BACKEND, type TestApp } from './test/harness.ts';
import { fillPath, openApiOperations } from './test/openapi.ts';

/**
 * Every operation of the served OpenAPI document, called without a login (with a valid CSRF pair,
 * a body, query and path that are all invalid): the ones that need a login answer 401, before
 * anything of the request is validated. The public ones are named here, one by one.
 */
const PUBLIC = new Set(['GET /api/auth/csrf/', 'POST /api/auth/login/', 'POST /api/auth/logout/']);

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
