import { CSRF_COOKIE, SESSION_COOKIE, userDataOutput } from '@emolens/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, createTestApp, seedUser, TEST_PASSWORD, type TestApp } from '../../test/harness.ts';
import { hashToken } from './tokens.ts';

let t: TestApp;
let client: Client;

beforeAll(async () => {
  t = await createTestApp({ loginMaxFailures: 5 });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.reset();
  await seedUser(t.app);
  client = new Client(t.app);
});

describe('login', () => {
  it('starts a server-side session in an httpOnly SameSite cookie and returns the user data', async () => {
    const res = await client.login();
    expect(res.statusCode).toBe(200);
    const body = userDataOutput.parse(res.json());
    expect(body).toMatchObject({
      username: 'analyst',
      role: 'customer',
      current_lang: 'ru',
      first_name: '',
      last_name: '',
    });
    expect(body.public_user_id).toMatch(/^[0-9A-Z]{8}$/);
    const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // Only a hash of the cookie value is stored.
    const stored = await t.database.db.selectFrom('auth_sessions').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_hash).toBe(hashToken(cookie?.value ?? ''));

    const me = await client.request('GET', '/api/users/user-data/');
    expect(me.statusCode).toBe(200);
    expect(Object.keys(me.json()).sort()).toEqual(
      [
        'auth_token',
        'current_lang',
        'first_name',
        'is_armi_user',
        'last_name',
        'public_user_id',
        'role',
        'username',
      ].sort(),
    );
    expect(me.json().auth_token).toBe(body.auth_token);
  });

  it('accepts the username in any case', async () => {
    expect((await client.login('ANALYST')).statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown user alike, without a session', async () => {
    const wrong = await client.login('analyst', 'not the password');
    const unknown = await client.login('nobody', 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      code: 'invalid_credentials',
      message: 'Wrong username or password.',
      key: 'errors.invalid_credentials',
    });
    expect(unknown.json()).toEqual(wrong.json());
    expect(client.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('throttles a username after repeated failures, even with the right password then', async () => {
    for (let i = 0; i < 5; i++) expect((await client.login('analyst', `wrong-${i}`)).statusCode).toBe(401);
    const blocked = await client.login('analyst', TEST_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('too_many_login_attempts');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Other users are not locked out by it.
    await seedUser(t.app, 'colleague');
    expect((await client.login('colleague', TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('clears the failure count after a successful login', async () => {
    for (let i = 0; i < 4; i++) await client.login('analyst', 'wrong');
    expect((await client.login()).statusCode).toBe(200);
    const left = await t.database.db.selectFrom('login_failures').selectAll().execute();
    expect(left).toHaveLength(0);
  });

  it('never writes passwords, session cookies or tokens to the log', async () => {
    await client.login('analyst', 'a-wrong-secret-password');
    const ok = await client.login();
    const token = client.cookies.get(SESSION_COOKIE) ?? '';
    const { auth_token } = ok.json();
    await client.request('GET', '/api/users/user-data/');
    const text = t.logs.join('');
    expect(t.logs.length).toBeGreaterThan(0);
    expect(text).not.toContain(TEST_PASSWORD);
    expect(text).not.toContain('a-wrong-secret-password');
    expect(text).not.toContain(token);
    expect(text).not.toContain(auth_token);
  });
});

describe('CSRF', () => {
  it('rejects an unsafe call without the header with 403', async () => {
    const res = await client.request('POST', '/api/auth/login/', {
      body: { username: 'analyst', password: TEST_PASSWORD },
      csrf: false,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('csrf_failed');
  });

  it('rejects a header that does not match the cookie', async () => {
    await client.request('GET', '/api/auth/csrf/');
    const res = await client.request('POST', '/api/auth/login/', {
      body: { username: 'analyst', password: TEST_PASSWORD },
      csrf: false,
      headers: { 'x-csrftoken': 'forged' },
    });
    expect(res.statusCode).toBe(403);
  });

  it('sets a cookie the SPA can read', async () => {
    const res = await client.request('GET', '/api/auth/csrf/');
    const cookie = res.cookies.find((c) => c.name === CSRF_COOKIE);
    expect(cookie?.value.length).toBeGreaterThan(20);
    expect(cookie?.httpOnly).toBeFalsy();
  });

  it('protects logged-in calls too', async () => {
    await client.login();
    const res = await client.request('PATCH', '/api/users/user-data/language/', {
      body: { current_lang: 'en' },
      csrf: false,
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('sessions', () => {
  it('answers 401 without a session', async () => {
    const res = await client.request('GET', '/api/users/user-data/');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized');
  });

  it('ends the session on logout, server-side', async () => {
    await client.login();
    const token = client.cookies.get(SESSION_COOKIE) ?? '';
    expect((await client.request('POST', '/api/auth/logout/')).statusCode).toBe(200);
    expect(client.cookies.has(SESSION_COOKIE)).toBe(false);
    // The old cookie is worthless even if someone kept it.
    const replay = new Client(t.app);
    replay.cookies.set(SESSION_COOKIE, token);
    expect((await replay.request('GET', '/api/users/user-data/')).statusCode).toBe(401);
  });

  it('does not accept an expired session', async () => {
    await client.login();
    await t.database.db.updateTable('auth_sessions').set({ expires_at: sql`now() - interval '1 minute'` }).execute();
    expect((await client.request('GET', '/api/users/user-data/')).statusCode).toBe(401);
  });

  it('does not accept a deactivated user', async () => {
    await client.login();
    await t.database.db.updateTable('users').set({ is_active: false }).execute();
    expect((await client.request('GET', '/api/users/user-data/')).statusCode).toBe(401);
  });
});

describe('bad input', () => {
  it('answers malformed JSON with 400', async () => {
    const res = await client.request('POST', '/api/auth/login/', { rawBody: '{"username": "analyst",' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_json');
  });

  it('answers an oversize body with 413', async () => {
    const res = await client.request('POST', '/api/auth/login/', {
      body: { username: 'analyst', password: 'x'.repeat(1_100_000) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
  });

  it('answers unknown fields with 400 naming them', async () => {
    const res = await client.request('POST', '/api/auth/login/', {
      body: { username: 'analyst', password: TEST_PASSWORD, is_admin: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'unknown_fields', fields: { is_admin: 'Unknown field' } });
  });

  it('answers missing fields with the required-field message', async () => {
    const res = await client.request('POST', '/api/auth/login/', { body: { username: '  ' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      fields: {
        username: "This is a required field. Don't leave it empty",
        password: "This is a required field. Don't leave it empty",
      },
    });
  });

  it('answers a wrong content type with 415, not 500', async () => {
    const res = await client.request('POST', '/api/auth/login/', {
      rawBody: 'username=analyst',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(415);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await client.request('GET', '/api/no-such-thing/');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });
});

describe('per-address login limit', () => {
  it('answers 429 past the limit, whatever the usernames', async () => {
    const own = await createTestApp({ loginRateLimitPerMinute: 3 });
    try {
      const c = new Client(own.app);
      for (let i = 0; i < 3; i++) expect((await c.login(`user${i}`, 'whatever')).statusCode).toBe(401);
      const limited = await c.login('someone-else', 'whatever');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().code).toBe('too_many_requests');
    } finally {
      await own.close();
    }
  });
});
