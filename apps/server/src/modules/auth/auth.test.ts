import { CSRF_COOKIE, codeMessage, englishMessage, SESSION_COOKIE, userDataOutput } from '@emolens/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, createTestApp, seedUser, TEST_PASSWORD, type TestApp } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { hashToken } from './tokens.ts';

const t = appPerFile();
let client: Client;

beforeEach(async () => {
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

describe('login throttling (decision 007)', () => {
  // Three free failures per username and address, six per address; then a minute, doubling, at most five.
  const THROTTLE = {
    loginFreeFailures: 3,
    loginAddressFreeFailures: 6,
    loginFirstDelayMs: 60_000,
    loginMaxDelayMs: 300_000,
    loginWindowMs: 3_600_000,
  };
  let own: TestApp;
  const at = (address: string) => new Client(own.app, { address });
  const A = '198.51.100.7';
  const B = '203.0.113.20';
  /** Moves every recorded failure back in time, as if the time had passed. */
  const elapse = (ms: number) =>
    sql`update login_failures set created_at = created_at - ${ms} * interval '1 millisecond'`.execute(own.database.db);
  const failures = () => own.database.db.selectFrom('login_failures').selectAll().execute();
  /** The wait a throttled answer asks for, checked to be the same in the header and the body. */
  const waitOf = (res: Awaited<ReturnType<Client['login']>>) => {
    expect(res.statusCode, res.body).toBe(429);
    const wait = Number(res.headers['retry-after']);
    const message = codeMessage('too_many_login_attempts', wait);
    expect(res.json()).toEqual({
      code: 'too_many_login_attempts',
      message: englishMessage(message),
      ...message,
      retry_after: wait,
    });
    return wait;
  };

  beforeAll(async () => {
    own = await createTestApp(THROTTLE);
  });
  afterAll(() => own.close());
  beforeEach(async () => {
    await own.reset();
    await seedUser(own.app);
  });

  it('delays a username from an address after its free failures, doubling up to the cap, then lets it in', async () => {
    const attacker = at(A);
    for (let i = 0; i < 3; i++) expect((await attacker.login('analyst', `wrong-${i}`)).statusCode).toBe(401);
    // Refused even with the right password, and the refused attempt is not counted.
    const waits = [waitOf(await attacker.login())];
    expect(waitOf(await attacker.login('analyst', 'wrong'))).toBeLessThanOrEqual(waits[0] ?? 0);
    for (const ms of [60_000, 120_000, 240_000]) {
      await elapse(ms);
      expect((await attacker.login('analyst', 'wrong again')).statusCode).toBe(401);
      waits.push(waitOf(await attacker.login('analyst', 'wrong again')));
    }
    // 60 s, 120 s, 240 s, then 480 s capped at 300 s; a second or two may pass during the test.
    const expected = [60, 120, 240, 300];
    waits.forEach((w, i) => {
      expect(w).toBeLessThanOrEqual(expected[i] ?? 0);
      expect(w).toBeGreaterThan((expected[i] ?? 0) - 5);
    });

    await elapse(300_000);
    const ok = await attacker.login();
    expect(ok.statusCode).toBe(200);
    expect(await failures()).toHaveLength(0);
  });

  it('never refuses the user at another address because of failures elsewhere', async () => {
    const attacker = at(A);
    for (let i = 0; i < 3; i++) await attacker.login('analyst', `guess-${i}`);
    for (let i = 0; i < 10; i++) waitOf(await attacker.login('analyst', `guess-more-${i}`));

    const user = at(B);
    expect((await user.login('analyst', 'a typo')).statusCode).toBe(401);
    expect((await user.login()).statusCode).toBe(200);
    // The user's success forgets only the user's own failures: the attacker still waits.
    waitOf(await attacker.login('analyst', 'guess'));
    expect((await failures()).map((f) => f.ip)).toEqual([A, A, A]);
  });

  it('delays an address that fails across many usernames, not the others', async () => {
    const sprayer = at(A);
    for (let i = 0; i < 6; i++) expect((await sprayer.login(`user${i}`, 'Summer2026!')).statusCode).toBe(401);
    // Each username failed once only, yet the address now waits, for every username.
    const wait = waitOf(await sprayer.login());
    expect(wait).toBeGreaterThan(55);
    expect(wait).toBeLessThanOrEqual(60);
    expect((await at(B).login()).statusCode).toBe(200);
    await elapse(60_000);
    expect((await sprayer.login()).statusCode).toBe(200);
  });

  it('counts a burst of parallel attempts one by one', async () => {
    const attacker = at(A);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => attacker.login('analyst', `parallel-${i}`)));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
    expect(await failures()).toHaveLength(3);
  });

  it('counts nothing for a request that is refused before the password is checked', async () => {
    const c = at(A);
    for (let i = 0; i < 5; i++) {
      expect((await c.request('POST', '/api/auth/login/', { body: { username: 'analyst' } })).statusCode).toBe(400);
      const unknown = await c.request('POST', '/api/auth/login/', {
        body: { username: 'analyst', password: 'x', remember: true },
      });
      expect(unknown.statusCode).toBe(400);
      expect((await c.request('POST', '/api/auth/login/', { rawBody: '{"username":' })).statusCode).toBe(400);
      expect((await c.login('a'.repeat(151), 'wrong')).statusCode).toBe(400);
      const noCsrf = await c.request('POST', '/api/auth/login/', {
        body: { username: 'analyst', password: 'wrong' },
        csrf: false,
      });
      expect(noCsrf.statusCode).toBe(403);
    }
    expect(await failures()).toHaveLength(0);
    expect((await c.login()).statusCode).toBe(200);
  });

  it('forgets, on success, the failures of that username from that address only', async () => {
    await seedUser(own.app, 'colleague');
    for (let i = 0; i < 2; i++) await at(A).login('analyst', 'wrong');
    await at(A).login('colleague', 'wrong');
    await at(B).login('analyst', 'wrong');
    expect((await at(A).login()).statusCode).toBe(200);
    const left = (await failures()).map((f) => `${f.username_key}@${f.ip}`).sort();
    expect(left).toEqual([`analyst@${B}`, `colleague@${A}`]);
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
