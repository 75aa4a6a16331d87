import { SESSION_COOKIE, userDataOutput } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import type { SsoConfig } from '../../config.ts';
import { Client, createTestApp, seedUser } from '../../test/harness.ts';
import { signInAtProvider } from '../../test/oidc-provider/browser.ts';
import { startTestProvider, type TestProvider } from '../../test/oidc-provider/provider.ts';
import { perFile } from '../../test/per-file.ts';
import { FLOW_COOKIE } from './flow-cookie.ts';
import { resolveSsoUser } from './sso.service.ts';

// The test config's public address (PUBLIC_URL unset): the callback the provider's client is registered with.
const APP_ORIGIN = 'http://localhost:8080';
const CALLBACK = `${APP_ORIGIN}/api/auth/sso/callback/`;

let provider: TestProvider;
const sso = (): SsoConfig => ({
  issuer: provider.issuer,
  clientId: provider.clientId,
  clientSecret: provider.clientSecret,
  allowedDomains: ['acme.test'],
  createUsers: true,
  newUserRole: 'ux_customer',
  buttonLabel: 'Sign in with Acme',
});
const t = perFile(async () => {
  provider = await startTestProvider({ redirectUris: [CALLBACK] });
  const app = await createTestApp({ sso: sso() });
  return {
    ...app,
    close: async () => {
      await app.close();
      await provider.close();
    },
  };
});

/** One sign-in as a browser does it: the app's start, the provider's login form, the app's callback. */
async function signIn(
  login: string,
  tamper: { authorization?: (url: URL) => void; callback?: (url: URL) => void; client?: Client } = {},
) {
  const client = tamper.client ?? new Client(t.app);
  const start = await client.request('GET', '/api/auth/sso/start/?next=/cabinet/researches&lang=en');
  expect(start.statusCode).toBe(302);
  const authorization = new URL(String(start.headers.location));
  expect(authorization.origin).toBe(provider.issuer);
  tamper.authorization?.(authorization);
  const answer = await signInAtProvider(authorization, login);
  expect(answer.origin + answer.pathname).toBe(CALLBACK);
  tamper.callback?.(answer);
  const res = await client.request('GET', `${answer.pathname}${answer.search}`);
  expect(res.statusCode).toBe(302);
  return { client, res, location: String(res.headers.location) };
}

const users = () => t.database.db.selectFrom('users').selectAll().orderBy('created_at').execute();
const identities = () => t.database.db.selectFrom('user_identities').selectAll().execute();
const refused = (reason: string) => `/login?sso_error=${reason}`;

describe('single sign-on through a real OpenID provider', () => {
  it('tells the login page about the button', async () => {
    const res = await new Client(t.app).request('GET', '/api/auth/sso/');
    expect(res.json()).toEqual({ enabled: true, label: 'Sign in with Acme' });
  });

  it('sends the browser with PKCE (S256), state and nonce, and keeps them in a signed httpOnly cookie', async () => {
    const client = new Client(t.app);
    const start = await client.request('GET', '/api/auth/sso/start/');
    const url = new URL(String(start.headers.location));
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(url.searchParams.get('scope')).toBe('openid email profile');
    const cookie = start.cookies.find((c) => c.name === FLOW_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth/sso/' });
  });

  it('creates the account on first sign-in with the configured role, and starts the password login session', async () => {
    provider.accounts.set('sub-ann', {
      email: 'Ann@Acme.test',
      email_verified: true,
      given_name: 'Ann',
      family_name: 'Lee',
    });
    const { client, res, location } = await signIn('sub-ann');
    expect(location).toBe('/cabinet/researches');
    const session = res.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // The flow cookie is used up.
    expect(res.cookies.find((c) => c.name === FLOW_COOKIE)?.value).toBe('');

    const me = await client.request('GET', '/api/users/user-data/');
    expect(me.statusCode).toBe(200);
    expect(userDataOutput.parse(me.json())).toMatchObject({
      role: 'ux_customer',
      username: 'ann@acme.test',
      first_name: 'Ann',
      last_name: 'Lee',
      current_lang: 'en',
    });
    const [user] = await users();
    expect(user).toMatchObject({ email: 'Ann@Acme.test', is_active: true });
    expect(await identities()).toEqual([
      expect.objectContaining({ user_id: user?.id, issuer: provider.issuer, subject: 'sub-ann' }),
    ]);
    // No password signs in to it.
    const login = await new Client(t.app).login('ann@acme.test', '!no-password');
    expect(login.statusCode).toBe(401);
  });

  it('signs the same identity in as the same account the second time, even after its e-mail changed', async () => {
    provider.accounts.set('sub-bob', { email: 'bob@acme.test', email_verified: true });
    await signIn('sub-bob');
    provider.accounts.set('sub-bob', { email: 'robert@acme.test', email_verified: true });
    const second = await signIn('sub-bob');
    expect(second.location).toBe('/cabinet/researches');
    const me = await second.client.request('GET', '/api/users/user-data/');
    expect(me.json().username).toBe('bob@acme.test');
    expect(await users()).toHaveLength(1);
    expect(await identities()).toHaveLength(1);
  });

  it('links an existing account by its verified e-mail, whatever its case, keeping its role', async () => {
    const existing = await seedUser(t.app, 'carol', { role: 'customer' });
    await t.app.ctx.deps.users.update(existing.id, { email: 'carol@acme.test' });
    provider.accounts.set('sub-carol', { email: 'CAROL@acme.test', email_verified: true });
    const { client } = await signIn('sub-carol');
    const me = await client.request('GET', '/api/users/user-data/');
    expect(me.json()).toMatchObject({ username: 'carol', role: 'customer' });
    expect(await users()).toHaveLength(1);
    expect((await identities())[0]).toMatchObject({ user_id: existing.id, subject: 'sub-carol' });
  });

  it('refuses an e-mail the provider has not verified, making and linking nothing', async () => {
    const existing = await seedUser(t.app, 'dave');
    await t.app.ctx.deps.users.update(existing.id, { email: 'dave@acme.test' });
    provider.accounts.set('sub-dave', { email: 'dave@acme.test', email_verified: false });
    const { res, location } = await signIn('sub-dave');
    expect(location).toBe(refused('email_unverified'));
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    expect(await identities()).toHaveLength(0);
    expect(await users()).toHaveLength(1);
  });

  it('refuses an e-mail outside the allowed domains', async () => {
    provider.accounts.set('sub-eve', { email: 'eve@evil.test', email_verified: true });
    expect((await signIn('sub-eve')).location).toBe(refused('domain_not_allowed'));
    // A subdomain is another domain.
    provider.accounts.set('sub-eve2', { email: 'eve@mail.acme.test', email_verified: true });
    expect((await signIn('sub-eve2')).location).toBe(refused('domain_not_allowed'));
    expect(await users()).toHaveLength(0);
  });

  it('refuses a tampered state, a nonce the app did not send, and an answer in a browser that did not start it', async () => {
    provider.accounts.set('sub-fay', { email: 'fay@acme.test', email_verified: true });
    const state = await signIn('sub-fay', { callback: (url) => url.searchParams.set('state', 'forged-state') });
    expect(state.location).toBe(refused('failed'));
    const nonce = await signIn('sub-fay', {
      authorization: (url) => url.searchParams.set('nonce', 'attacker-chosen-nonce'),
    });
    expect(nonce.location).toBe(refused('failed'));
    const pkce = await signIn('sub-fay', {
      authorization: (url) => url.searchParams.set('code_challenge', 'A'.repeat(43)),
    });
    expect(pkce.location).toBe(refused('failed'));
    // Login CSRF: someone else's answer delivered to a browser without the flow cookie, or with an altered one.
    const victim = new Client(t.app);
    const other = await signIn('sub-fay', {
      callback: () => victim.cookies.clear(),
      client: victim,
    });
    expect(other.location).toBe(refused('failed'));
    const altered = new Client(t.app);
    const forged = await signIn('sub-fay', {
      client: altered,
      callback: () => {
        const value = altered.cookies.get(FLOW_COOKIE) ?? '';
        altered.cookies.set(FLOW_COOKIE, `${value.slice(0, -2)}xx`);
      },
    });
    expect(forged.location).toBe(refused('failed'));
    for (const attempt of [state, nonce, pkce, other, forged]) {
      expect(attempt.res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    }
    expect(await users()).toHaveLength(0);
    expect(t.logs.join('\n')).not.toContain(provider.clientSecret);
  });

  it('keeps a blocked account blocked, whether linked already or matched by e-mail', async () => {
    provider.accounts.set('sub-gus', { email: 'gus@acme.test', email_verified: true });
    await signIn('sub-gus');
    const [gus] = await users();
    await t.app.ctx.deps.users.update(gus?.id ?? '', { is_active: false });
    expect((await signIn('sub-gus')).location).toBe(refused('account_disabled'));

    const hal = await seedUser(t.app, 'hal');
    await t.app.ctx.deps.users.update(hal.id, { email: 'hal@acme.test', is_active: false });
    provider.accounts.set('sub-hal', { email: 'hal@acme.test', email_verified: true });
    const { res, location } = await signIn('sub-hal');
    expect(location).toBe(refused('account_disabled'));
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    expect((await identities()).map((i) => i.subject)).toEqual(['sub-gus']);
  });

  it('does not let a provider account that took a linked account’s e-mail into that account', async () => {
    provider.accounts.set('sub-ivy', { email: 'ivy@acme.test', email_verified: true });
    await signIn('sub-ivy');
    provider.accounts.set('sub-mallory', { email: 'ivy@acme.test', email_verified: true });
    const { res, location } = await signIn('sub-mallory');
    expect(location).toBe(refused('identity_conflict'));
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    expect(await users()).toHaveLength(1);
  });

  it('refuses an unknown e-mail when accounts are not created on first sign-in', async () => {
    const identity = {
      issuer: provider.issuer,
      subject: 'sub-jan',
      email: 'jan@acme.test',
      emailVerified: true,
      givenName: '',
      familyName: '',
    };
    await expect(
      resolveSsoUser({ sso: t.app.ctx.deps.sso }, { ...sso(), createUsers: false }, identity),
    ).rejects.toMatchObject({ reason: 'no_account' });
    expect(await users()).toHaveLength(0);
  });

  it('goes on only to a path of this site', async () => {
    provider.accounts.set('sub-kim', { email: 'kim@acme.test', email_verified: true });
    const client = new Client(t.app);
    const start = await client.request('GET', '/api/auth/sso/start/?next=//evil.test/x');
    const answer = await signInAtProvider(String(start.headers.location), 'sub-kim');
    const res = await client.request('GET', `${answer.pathname}${answer.search}`);
    expect(res.headers.location).toBe('/cabinet/projects');
  });
});
