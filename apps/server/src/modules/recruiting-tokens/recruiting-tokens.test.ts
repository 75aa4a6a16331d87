import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CONTRACT_ACCESS_KEY_ID,
  CONTRACT_SECRET_ACCESS_KEY,
  type MturkContractServer,
  startMturkContractServer,
} from '../../test/contract-servers/mturk/server.ts';
import { startTolokaContractServer, type TolokaContractServer } from '../../test/contract-servers/toloka/server.ts';
import { type Client, createTestApp, loggedIn, TEST_BACKEND, type TestApp } from '../../test/harness.ts';
import { createTokenCipher } from './crypto.ts';
import { createRecruitingTokensRepository } from './recruiting-tokens.repository.ts';
import { activeRecruitingToken, recruitingTokenById } from './recruiting-tokens.service.ts';

/**
 * Toloka and Amazon tokens (issue 14, item 3): linked only once the service accepts them (real HTTP to the
 * contract servers), stored encrypted, never answered or logged; shared by public user id and revoked; one
 * active token per user and service; the spec's refusals (a shared token is not deleted, a share its user has
 * active is not revoked).
 */
const TOLOKA = 'AQAAAAAtolokaProductionToken-0001';
const TOLOKA_2 = 'AQAAAAAtolokaProductionToken-0002';
const TOLOKA_BOB = 'AQAAAAAtolokaProductionToken-bob9';
const TOLOKA_SANDBOX = 'AQAAAAAtolokaSandboxToken-000077';
const OTHER_KEY_ID = 'AKIAEMOLENSOTHER0002';
const OTHER_SECRET = 'other/Secret+Key9876543210zyxwvutsrqpon';

let toloka: TolokaContractServer;
let tolokaSandbox: TolokaContractServer;
let mturk: MturkContractServer;
let t: TestApp;
let alice: Client;
let bob: Client;
let carol: Client;
let ids: Record<'alice' | 'bob' | 'carol', { id: string; publicId: string }>;

beforeAll(async () => {
  toloka = await startTolokaContractServer({ tokens: [TOLOKA, TOLOKA_2, TOLOKA_BOB], balance: 100 });
  tolokaSandbox = await startTolokaContractServer({ tokens: [TOLOKA_SANDBOX] });
  mturk = await startMturkContractServer({
    credentials: { [CONTRACT_ACCESS_KEY_ID]: CONTRACT_SECRET_ACCESS_KEY, [OTHER_KEY_ID]: OTHER_SECRET },
  });
  t = await createTestApp({
    tolokaBaseUrl: toloka.url,
    tolokaSandboxBaseUrl: tolokaSandbox.url,
    mturkEndpoint: mturk.url,
  });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([toloka?.close(), tolokaSandbox?.close(), mturk?.close()]);
});
beforeEach(async () => {
  await t.reset();
  ({ alice, bob, carol } = await loggedIn(t.app, 'alice', 'bob', 'carol'));
  const entries = await Promise.all(
    (['alice', 'bob', 'carol'] as const).map(async (name) => {
      const user = await t.app.ctx.deps.users.findByUsername(name);
      return [name, { id: user?.id ?? '', publicId: user?.public_user_id ?? '' }] as const;
    }),
  );
  ids = Object.fromEntries(entries) as typeof ids;
});

const BASE = '/api/cabinet/recruiting-tokens';
const linkToloka = (client: Client, body: Record<string, unknown>) =>
  client.request('POST', `${BASE}/toloka/`, { body: { description: 'Main', environment: 'production', ...body } });
const linkMturk = (client: Client, body: Record<string, unknown>) =>
  client.request('POST', `${BASE}/mturk/`, {
    body: {
      description: 'MTurk',
      access_key_id: CONTRACT_ACCESS_KEY_ID,
      secret_access_key: CONTRACT_SECRET_ACCESS_KEY,
      environment: 'sandbox',
      ...body,
    },
  });
const list = async (client: Client, service: 'toloka' | 'mturk' = 'toloka') => {
  const res = await client.request('GET', `${BASE}/?service=${service}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const linked = async (client: Client, token: string, description = 'Main') => {
  const res = await linkToloka(client, { token, description });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};

/** Every byte of the tokens' table as text, to look for a secret in it. */
async function tableText(): Promise<string> {
  const rows = await t.database.db.selectFrom('recruiting_tokens').selectAll().execute();
  return rows
    .map(
      (row) =>
        `${JSON.stringify({ ...row, secret_ciphertext: null })} ${Buffer.from(row.secret_ciphertext).toString('latin1')}`,
    )
    .join('\n');
}

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe(`Toloka tokens on ${TEST_BACKEND}`, () => {
  it('are linked once Toloka accepts them, the first made active, and never answered, logged or stored in clear', async () => {
    const made = await linkToloka(alice, { token: `  ${TOLOKA} `, description: ' Team account ' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({
      service: 'toloka',
      environment: 'production',
      description: 'Team account',
      hint: TOLOKA.slice(-4),
      owner: { public_user_id: ids.alice.publicId, username: 'alice' },
      mine: true,
      active: true,
      shared_with: [],
      can: { activate: false, delete: true, share: true, revoke_share: false },
    });
    expect(made.json().validated_at).not.toBeNull();
    expect(toloka.state.requests.some((r) => r.method === 'GET' && r.path.endsWith('/requester'))).toBe(true);

    // A second one is linked inactive: the first stays the active one.
    const second = await linkToloka(alice, { token: TOLOKA_2, description: 'Spare' });
    expect(second.json()).toMatchObject({ active: false, can: { activate: true } });
    // A sandbox token is checked with the sandbox.
    const sandbox = await linkToloka(alice, { token: TOLOKA_SANDBOX, environment: 'sandbox' });
    expect(sandbox.statusCode, sandbox.body).toBe(201);
    expect(sandbox.json()).toMatchObject({ environment: 'sandbox', active: false });

    const listed = await list(alice);
    expect(listed.items.map((i: { description: string }) => i.description)).toEqual(['Main', 'Spare', 'Team account']);
    expect(listed.can.link).toBe(true);
    expect(await list(alice, 'mturk')).toEqual({ items: [], can: { link: true } });

    const answers = [made.body, second.body, sandbox.body, JSON.stringify(listed)].join('\n');
    const logs = t.logs.join('\n');
    const table = await tableText();
    for (const secret of [TOLOKA, TOLOKA_2, TOLOKA_SANDBOX]) {
      const body = secret.slice(0, -4);
      expect(answers).not.toContain(body);
      expect(logs).not.toContain(body);
      expect(table).not.toContain(body);
    }

    // Recruiting reads the active token, in clear, on the server.
    expect(await activeRecruitingToken(t.app.ctx.deps, ids.alice.id, 'toloka')).toEqual({
      id: made.json().id,
      environment: 'production',
      secret: TOLOKA,
    });
    expect(await activeRecruitingToken(t.app.ctx.deps, ids.alice.id, 'mturk')).toBeNull();
    expect(await recruitingTokenById(t.app.ctx.deps, ids.alice.id, sandbox.json().id)).toEqual({
      id: sandbox.json().id,
      environment: 'sandbox',
      secret: TOLOKA_SANDBOX,
    });
    expect(await recruitingTokenById(t.app.ctx.deps, ids.alice.id, 'not-a-uuid')).toBeNull();
  });

  it('refuses a token Toloka does not accept, one without a description, a repeat', async () => {
    const wrong = await linkToloka(alice, { token: 'AQAAAAAnotAtokenTolokaKnows-9999' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      key: 'oauth.tolokaRejected',
      field_keys: { token: { key: 'oauth.tolokaRejected' } },
    });
    // A production token is not a sandbox one.
    const elsewhere = await linkToloka(alice, { token: TOLOKA, environment: 'sandbox' });
    expect(elsewhere.json().key).toBe('oauth.tolokaRejected');

    for (const description of [undefined, '', '   ']) {
      const res = await linkToloka(alice, { token: TOLOKA, description });
      expect(res.statusCode).toBe(400);
      expect(res.json().field_keys.description.key).toBe('oauth.descriptionRequired');
      expect(res.json().fields.description).toBe('token must have description');
    }
    expect((await linkToloka(alice, { token: '' })).json().field_keys.token.key).toBe('validation.required');
    expect((await linkToloka(alice, { token: TOLOKA, environment: 'staging' })).json().field_keys.environment.key).toBe(
      'validation.choice',
    );
    expect((await linkToloka(alice, { token: TOLOKA, secret: 'x' })).statusCode).toBe(400);
    expect(await list(alice)).toEqual({ items: [], can: { link: true } });

    await linked(alice, TOLOKA);
    const again = await linkToloka(alice, { token: TOLOKA, description: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('oauth.duplicate');
    // Another user may link the same account's token: it is theirs to hold.
    expect((await linkToloka(bob, { token: TOLOKA })).statusCode).toBe(201);
    expect(t.logs.join('\n')).not.toContain('notAtokenTolokaKnows');
  });

  it('answers 503 with its own message when Toloka fails or cannot be reached, and stores nothing', async () => {
    toloka.state.failNext('/requester', 500, undefined, { times: 3 });
    const failing = await linkToloka(alice, { token: TOLOKA });
    expect(failing.statusCode).toBe(503);
    expect(failing.json()).toMatchObject({ key: 'oauth.serviceUnreachable', params: { service: 'Toloka' } });

    const config = t.app.ctx.deps.config;
    const saved = config.tolokaBaseUrl;
    config.tolokaBaseUrl = await closedPortUrl();
    try {
      const closed = await linkToloka(alice, { token: TOLOKA });
      expect(closed.statusCode).toBe(503);
      expect(closed.json().message).toBe('Toloka could not be reached to check the token. Try again later.');
    } finally {
      config.tolokaBaseUrl = saved;
    }
    expect((await list(alice)).items).toEqual([]);
    expect(t.logs.join('\n')).not.toContain(TOLOKA.slice(0, -4));
  });
});

describe(`Amazon tokens on ${TEST_BACKEND}`, () => {
  it('are linked once MTurk accepts the keys, and the secret never leaves the server', async () => {
    const made = await linkMturk(alice, {});
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({
      service: 'mturk',
      environment: 'sandbox',
      hint: CONTRACT_ACCESS_KEY_ID,
      active: true,
      mine: true,
    });
    expect(mturk.state.requestsOf('GetAccountBalance').at(-1)).toMatchObject({
      accessKeyId: CONTRACT_ACCESS_KEY_ID,
      status: 200,
    });
    const listed = await list(alice, 'mturk');
    expect(listed.items).toHaveLength(1);
    expect((await list(alice, 'toloka')).items).toEqual([]);
    for (const where of [made.body, JSON.stringify(listed), t.logs.join('\n'), await tableText()]) {
      expect(where).not.toContain(CONTRACT_SECRET_ACCESS_KEY);
    }
    const active = await activeRecruitingToken(t.app.ctx.deps, ids.alice.id, 'mturk');
    expect(active?.environment).toBe('sandbox');
    expect(JSON.parse(active?.secret ?? '{}')).toEqual({
      access_key_id: CONTRACT_ACCESS_KEY_ID,
      secret_access_key: CONTRACT_SECRET_ACCESS_KEY,
    });
    // The same keys for production are another token; for the sandbox again, a repeat.
    expect((await linkMturk(alice, { environment: 'production' })).statusCode).toBe(201);
    expect((await linkMturk(alice, { description: 'Again' })).json().key).toBe('oauth.duplicate');
  });

  it('need all fields, and keys MTurk knows', async () => {
    const empty = await alice.request('POST', `${BASE}/mturk/`, { body: { environment: 'sandbox' } });
    expect(empty.statusCode).toBe(400);
    for (const field of ['description', 'access_key_id', 'secret_access_key']) {
      expect(empty.json().field_keys[field].key, field).toBe('oauth.amazonFieldsRequired');
    }
    for (const field of ['description', 'access_key_id', 'secret_access_key']) {
      const res = await linkMturk(alice, { [field]: ' ' });
      expect(res.json().field_keys[field].key, field).toBe('oauth.amazonFieldsRequired');
    }
    expect((await linkMturk(alice, { environment: undefined })).json().field_keys.environment.key).toBe(
      'validation.choice',
    );
    expect((await linkMturk(alice, { access_key_id: 'akia-lower' })).json().field_keys.access_key_id.key).toBe(
      'oauth.accessKeyFormat',
    );

    const unknown = await linkMturk(alice, { access_key_id: 'AKIAEMOLENSUNKNOWN01' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      key: 'oauth.mturkRejected',
      field_keys: { access_key_id: { key: 'oauth.mturkRejected' } },
    });
    const wrongSecret = await linkMturk(alice, { secret_access_key: OTHER_SECRET });
    expect(wrongSecret.json()).toMatchObject({
      key: 'oauth.mturkRejected',
      field_keys: { secret_access_key: { key: 'oauth.mturkRejected' } },
    });

    mturk.state.failNext('GetAccountBalance', 500, { __type: 'ServiceFault', Message: 'Try your call again' });
    mturk.state.failNext('GetAccountBalance', 500, { __type: 'ServiceFault', Message: 'Try your call again' });
    const failing = await linkMturk(alice, {});
    expect(failing.statusCode).toBe(503);
    expect(failing.json()).toMatchObject({
      key: 'oauth.serviceUnreachable',
      params: { service: 'Amazon Mechanical Turk' },
    });

    const config = t.app.ctx.deps.config;
    const saved = config.mturkEndpoint;
    config.mturkEndpoint = await closedPortUrl();
    try {
      expect((await linkMturk(alice, {})).statusCode).toBe(503);
    } finally {
      config.mturkEndpoint = saved;
    }
    expect((await list(alice, 'mturk')).items).toEqual([]);
    expect(t.logs.join('\n')).not.toContain(OTHER_SECRET);
    expect(t.logs.join('\n')).not.toContain(CONTRACT_SECRET_ACCESS_KEY);
  });
});

describe(`sharing and activating on ${TEST_BACKEND}`, () => {
  it('shares by public id, lets the other user activate, keeps one active token per user and service', async () => {
    const main = await linked(alice, TOLOKA);
    const spare = await linked(alice, TOLOKA_2, 'Spare');
    // Activating another: exactly one is active.
    expect((await alice.request('POST', `${BASE}/${spare}/activate/`)).statusCode).toBe(204);
    let items = (await list(alice)).items;
    expect(items.map((i: { id: string; active: boolean }) => [i.id, i.active])).toEqual([
      [spare, true],
      [main, false],
    ]);
    const activeRows = await t.database.db
      .selectFrom('recruiting_active_tokens')
      .selectAll()
      .where('user_id', '=', ids.alice.id)
      .execute();
    expect(activeRows).toEqual([{ user_id: ids.alice.id, service: 'toloka', token_id: spare }]);

    // Not shared: another user sees nothing of it, and can do nothing with it.
    expect((await list(bob)).items).toEqual([]);
    for (const [method, url, body] of [
      ['POST', `${BASE}/${main}/activate/`, undefined],
      ['DELETE', `${BASE}/${main}/`, undefined],
      ['POST', `${BASE}/${main}/shares/`, { user_id: ids.bob.publicId }],
      ['DELETE', `${BASE}/${main}/shares/${ids.bob.publicId}/`, undefined],
    ] as const) {
      const res = await bob.request(method, url, { body });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().key).toBe('oauth.notFound');
    }
    expect(await recruitingTokenById(t.app.ctx.deps, ids.bob.id, main)).toBeNull();

    // Shared by public id (typed in any case).
    const shared = await alice.request('POST', `${BASE}/${main}/shares/`, {
      body: { user_id: ids.bob.publicId.toLowerCase() },
    });
    expect(shared.statusCode, shared.body).toBe(204);
    // Sharing again changes nothing.
    expect(
      (await alice.request('POST', `${BASE}/${main}/shares/`, { body: { user_id: ids.bob.publicId } })).statusCode,
    ).toBe(204);
    items = (await list(alice)).items;
    expect(items.find((i: { id: string }) => i.id === main)).toMatchObject({
      shared_with: [{ public_user_id: ids.bob.publicId, username: 'bob', active: false, can: { revoke: true } }],
      can: { delete: false, share: true, revoke_share: true },
    });

    // Bob sees it as alice's, without whom it is shared with, and may activate it.
    const bobs = await list(bob);
    expect(bobs.items).toHaveLength(1);
    expect(bobs.items[0]).toMatchObject({
      id: main,
      mine: false,
      active: false,
      owner: { public_user_id: ids.alice.publicId, username: 'alice' },
      shared_with: null,
      can: { activate: true, delete: false, share: false, revoke_share: false },
    });
    expect(JSON.stringify(bobs)).not.toContain(TOLOKA.slice(0, -4));
    expect(await activeRecruitingToken(t.app.ctx.deps, ids.bob.id, 'toloka')).toBeNull();
    expect((await bob.request('POST', `${BASE}/${main}/activate/`)).statusCode).toBe(204);
    expect(await activeRecruitingToken(t.app.ctx.deps, ids.bob.id, 'toloka')).toEqual({
      id: main,
      environment: 'production',
      secret: TOLOKA,
    });
    expect((await recruitingTokenById(t.app.ctx.deps, ids.bob.id, main))?.secret).toBe(TOLOKA);
    expect(await recruitingTokenById(t.app.ctx.deps, ids.bob.id, spare)).toBeNull();
    // Alice's own choice is hers: still the spare.
    expect((await activeRecruitingToken(t.app.ctx.deps, ids.alice.id, 'toloka'))?.id).toBe(spare);

    // Only the owner deletes, shares and revokes.
    for (const [method, url, body] of [
      ['DELETE', `${BASE}/${main}/`, undefined],
      ['POST', `${BASE}/${main}/shares/`, { user_id: ids.carol.publicId }],
      ['DELETE', `${BASE}/${main}/shares/${ids.bob.publicId}/`, undefined],
    ] as const) {
      const res = await bob.request(method, url, { body });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().key).toBe('oauth.ownerOnly');
    }
    // Carol, whom it is not shared with, still sees nothing.
    expect((await list(carol)).items).toEqual([]);

    // Bob links his own: his active one stays alice's until he picks his.
    const own = await linkToloka(bob, { token: TOLOKA_BOB });
    expect(own.json()).toMatchObject({ active: false, mine: true });
    expect((await bob.request('POST', `${BASE}/${own.json().id}/activate/`)).statusCode).toBe(204);
    const bobActive = await t.database.db
      .selectFrom('recruiting_active_tokens')
      .selectAll()
      .where('user_id', '=', ids.bob.id)
      .execute();
    expect(bobActive).toEqual([{ user_id: ids.bob.id, service: 'toloka', token_id: own.json().id }]);

    // Services are apart: an Amazon token is active beside the Toloka one.
    await linkMturk(alice, {});
    expect((await activeRecruitingToken(t.app.ctx.deps, ids.alice.id, 'toloka'))?.id).toBe(spare);
    expect((await list(alice, 'mturk')).items[0].active).toBe(true);
  });

  it('refuses an unknown user, the owner themselves, and a share to revoke that does not exist', async () => {
    const main = await linked(alice, TOLOKA);
    const unknown = await alice.request('POST', `${BASE}/${main}/shares/`, { body: { user_id: 'NOSUCHUSER' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      key: 'user.doesNotExist',
      field_keys: { user_id: { key: 'user.doesNotExist' } },
    });
    expect(unknown.json().message).toBe("User doesn't exist");
    const self = await alice.request('POST', `${BASE}/${main}/shares/`, { body: { user_id: ids.alice.publicId } });
    expect(self.statusCode).toBe(400);
    expect(self.json().field_keys.user_id.key).toBe('oauth.shareSelf');
    expect((await alice.request('POST', `${BASE}/${main}/shares/`, { body: {} })).json().field_keys.user_id.key).toBe(
      'validation.required',
    );
    for (const who of [ids.bob.publicId, 'NOSUCHUSER']) {
      const res = await alice.request('DELETE', `${BASE}/${main}/shares/${who}/`);
      expect(res.statusCode).toBe(404);
      expect(res.json().key).toBe('oauth.shareNotFound');
    }
    const missing = await alice.request('POST', `${BASE}/00000000-0000-4000-8000-000000000000/activate/`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ key: 'oauth.notFound', message: 'no token found' });
  });

  it('does not revoke a share its user has active, nor delete a shared token; clears nothing silently', async () => {
    const main = await linked(alice, TOLOKA);
    await alice.request('POST', `${BASE}/${main}/shares/`, { body: { user_id: ids.bob.publicId } });
    await alice.request('POST', `${BASE}/${main}/shares/`, { body: { user_id: ids.carol.publicId } });
    expect((await bob.request('POST', `${BASE}/${main}/activate/`)).statusCode).toBe(204);

    const deleteShared = await alice.request('DELETE', `${BASE}/${main}/`);
    expect(deleteShared.statusCode).toBe(409);
    expect(deleteShared.json().key).toBe('oauth.deleteShared');
    const revokeActive = await alice.request('DELETE', `${BASE}/${main}/shares/${ids.bob.publicId}/`);
    expect(revokeActive.statusCode).toBe(409);
    expect(revokeActive.json()).toMatchObject({
      key: 'oauth.revokeActive',
      message: 'An active token of another user cannot be revoked',
    });
    const token = (await list(alice)).items[0];
    expect(token.shared_with).toEqual([
      { public_user_id: ids.bob.publicId, username: 'bob', active: true, can: { revoke: false } },
      { public_user_id: ids.carol.publicId, username: 'carol', active: false, can: { revoke: true } },
    ]);
    expect(token.can).toEqual({ activate: false, delete: false, share: true, revoke_share: true });
    // Bob still has it active: nothing was cleared.
    expect((await activeRecruitingToken(t.app.ctx.deps, ids.bob.id, 'toloka'))?.id).toBe(main);

    // Carol's share (not active) is revoked; she no longer sees or uses it.
    expect((await alice.request('DELETE', `${BASE}/${main}/shares/${ids.carol.publicId}/`)).statusCode).toBe(204);
    expect((await list(carol)).items).toEqual([]);
    expect((await carol.request('POST', `${BASE}/${main}/activate/`)).statusCode).toBe(404);
    expect(await recruitingTokenById(t.app.ctx.deps, ids.carol.id, main)).toBeNull();

    // Once bob picks another token, his share can be revoked, then the token deleted.
    const bobs = await linked(bob, TOLOKA_BOB);
    expect((await bob.request('POST', `${BASE}/${bobs}/activate/`)).statusCode).toBe(204);
    expect((await alice.request('DELETE', `${BASE}/${main}/shares/${ids.bob.publicId}/`)).statusCode).toBe(204);
    expect((await list(bob)).items.map((i: { id: string }) => i.id)).toEqual([bobs]);
    expect((await alice.request('DELETE', `${BASE}/${main}/`)).statusCode).toBe(204);
    expect((await list(alice)).items).toEqual([]);
    expect(await activeRecruitingToken(t.app.ctx.deps, ids.alice.id, 'toloka')).toBeNull();
    expect((await alice.request('DELETE', `${BASE}/${main}/`)).json().key).toBe('oauth.notFound');
    // Bob's own active token is untouched.
    expect((await activeRecruitingToken(t.app.ctx.deps, ids.bob.id, 'toloka'))?.id).toBe(bobs);
  });

  it('does not open a secret moved to another row or sealed under another key', async () => {
    const first = await linked(alice, TOLOKA);
    const second = await linked(alice, TOLOKA_2, 'Spare');
    const db = t.database.db;
    const other = createRecruitingTokensRepository(db, createTokenCipher(randomBytes(32)));
    expect((await other.secretOf(ids.alice.id, { id: first }))?.secret).toBeNull();

    const rows = await db.selectFrom('recruiting_tokens').select(['id', 'secret_ciphertext']).execute();
    const sealed = Object.fromEntries(rows.map((r) => [r.id, Buffer.from(r.secret_ciphertext)]));
    await db
      .updateTable('recruiting_tokens')
      .set({ secret_ciphertext: sealed[second] })
      .where('id', '=', first)
      .execute();
    await expect(activeRecruitingToken(t.app.ctx.deps, ids.alice.id, 'toloka')).rejects.toMatchObject({
      code: 'invalid_state',
      ref: { key: 'oauth.unreadable' },
    });
    expect((await recruitingTokenById(t.app.ctx.deps, ids.alice.id, second))?.secret).toBe(TOLOKA_2);
  });
});
