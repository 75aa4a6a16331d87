import { beforeEach, describe, expect, it } from 'vitest';
import { type Client, markLaunched } from '../../test/harness.ts';
import { launchedResearchOn, tolokaAppPerFile } from '../../test/recruiting.ts';

/**
 * A research's Toloka pool (issue 14, item 4) over real HTTP against the Toloka contract server: made from the
 * research with the user's active token, run and stopped through Toloka's asynchronous operations, and each of the
 * spec's refusals — no token bound, not enough data to launch, not enough funds (before opening, and when Toloka
 * closes the pool for it), a Toloka start error, Toloka out of reach.
 */
let alice: Client;
let bob: Client;
let projectId: string;
let researchId: string;
const TOKEN = 'AQAAAAAcontract-token-alice';

const t = tolokaAppPerFile(TOKEN, 100);
beforeEach(async () => {
  t.toloka.state.setBalance(100);
  ({ alice, bob, projectId, researchId } = await launchedResearchOn(t, 'toloka'));
});

const url = (suffix = '') => `/api/cabinet/campaigns/${researchId}/toloka/${suffix}`;
const POOL = {
  title: 'Watch a short video',
  reward: 0.5,
  overlap: 40,
  sex: 'woman',
  age_min: 18,
  age_max: 35,
  countries: ['ru'],
};
const linkToken = () =>
  alice.request('POST', '/api/cabinet/recruiting-tokens/toloka/', {
    body: { description: 'Main requester', token: TOKEN, environment: 'sandbox' },
  });

describe('a Toloka pool', () => {
  it('is made from the research, run and stopped, with Toloka’s own state shown', async () => {
    const before = (await alice.request('GET', url())).json();
    expect(before).toMatchObject({ pool: null, token: null, problems: ['oauth.bindFirst'], can: { create: false } });
    const refused = await alice.request('POST', url(), { body: POOL });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().key).toBe('oauth.bindFirst');

    expect((await linkToken()).statusCode).toBe(201);
    const ready = (await alice.request('GET', url())).json();
    expect(ready).toMatchObject({
      balance: 100,
      problems: [],
      can: { create: true },
      token: { environment: 'sandbox' },
    });
    expect(ready.quota_link).toMatch(/\/project-research\/[\w-]+$/);

    const made = await alice.request('POST', url(), { body: POOL });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({
      pool: { status: 'CLOSED', reward: 0.5, overlap: 40, cost: 26, audience: { sex: 'woman', countries: ['RU'] } },
      can: { create: false, open: true, close: false },
    });
    // What Toloka was asked: an external-link project, a pool with the audience's filter, one task with the link.
    const pool = [...t.toloka.state.pools.values()][0];
    expect(pool).toMatchObject({ reward_per_assignment: 0.5 });
    expect(JSON.stringify(pool?.filter)).toContain('FEMALE');
    expect(JSON.stringify(pool?.filter)).toContain('"RU"');
    const task = [...t.toloka.state.tasks.values()][0];
    expect(JSON.stringify(task?.input_values)).toContain(ready.quota_link);
    // A second pool for the research is refused.
    expect((await alice.request('POST', url(), { body: POOL })).json().key).toBe('pool.exists');

    const opened = await alice.request('POST', url('open/'));
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ pool: { status: 'OPEN' }, can: { open: false, close: true } });
    const closed = await alice.request('POST', url('close/'));
    expect(closed.json()).toMatchObject({ pool: { status: 'CLOSED', last_close_reason: 'MANUAL' } });

    // Another customer sees nothing of it.
    expect((await bob.request('GET', url())).statusCode).toBe(404);
    expect((await bob.request('POST', url('open/'))).statusCode).toBe(404);
    // The token never reached the logs.
    expect(t.logs.join('\n')).not.toContain(TOKEN);
  });

  it('answers the spec’s refusals', async () => {
    await linkToken();
    // Not enough data to launch: a platform other than Toloka, a project not launched.
    const db = t.app.ctx.database.db;
    await db.updateTable('projects').set({ platform: 'cint' }).where('id', '=', projectId).execute();
    const wrong = await alice.request('POST', url(), { body: POOL });
    expect(wrong.json()).toMatchObject({
      key: 'pool.notEnoughData',
      field_keys: { pool: { key: 'pool.wrongPlatform' } },
    });
    await db
      .updateTable('projects')
      .set({ platform: 'yandex_tasks', status: 'new' })
      .where('id', '=', projectId)
      .execute();
    expect((await alice.request('POST', url(), { body: POOL })).json().field_keys.pool.key).toBe('pool.notLaunched');
    await markLaunched(t.app, projectId);
    // Bad input: the spec's 'must be between'.
    const bad = await alice.request('POST', url(), { body: { ...POOL, reward: 0, age_min: 40, age_max: 20 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field_keys).toMatchObject({
      reward: { key: 'validation.between' },
      age_max: { key: 'validation.between' },
    });
    expect((await alice.request('POST', url('open/'))).json().key).toBe('pool.notFound');

    // Not enough funds: a balance below the pool's cost (40 × 0.5 × 1.3 = 26) is refused before Toloka is asked.
    expect((await alice.request('POST', url(), { body: POOL })).statusCode).toBe(201);
    t.toloka.state.setBalance(10);
    const poor = await alice.request('POST', url('open/'));
    expect(poor.statusCode).toBe(409);
    expect(poor.json()).toMatchObject({ key: 'pool.notEnoughFunds', message: 'Not enough funds' });
    expect([...t.toloka.state.pools.values()][0]?.status).toBe('CLOSED');
    // Toloka start error: Toloka refuses to open for a reason of its own.
    t.toloka.state.setBalance(1000);
    const { pool_id } = (await alice.request('GET', url())).json().pool;
    t.toloka.state.failNext(`/pools/${pool_id}/open`, 409, {
      code: 'CONFLICT_STATE',
      message: 'Pool cannot be opened',
    });
    const failed = await alice.request('POST', url('open/'));
    expect(failed.statusCode).toBe(409);
    expect(failed.json().key).toBe('pool.startError');
    // … and when Toloka itself closes the pool for NOT_ENOUGH_BALANCE (its fee is more than we assume).
    t.toloka.state.setBalance(26);
    t.toloka.state.feeRate = 0.5;
    const closedByToloka = await alice.request('POST', url('open/'));
    expect(closedByToloka.json().key).toBe('pool.notEnoughFunds');
    expect((await alice.request('GET', url())).json().pool).toMatchObject({
      status: 'CLOSED',
      last_close_reason: 'NOT_ENOUGH_BALANCE',
    });
    t.toloka.state.feeRate = 0.3;

    // Toloka out of reach: a clear 503, and the page still shows what is known.
    t.toloka.state.failNext(
      '/api/v1/requester',
      503,
      { code: 'REMOTE_SERVICE_UNAVAILABLE', message: 'down' },
      { times: 3 },
    );
    const down = await alice.request('POST', url('open/'));
    expect(down.statusCode).toBe(503);
    expect(down.json().key).toBe('pool.unavailable');
  });
});
