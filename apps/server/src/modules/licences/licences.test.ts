import { beforeEach, describe, expect, it } from 'vitest';
import { Client, loggedIn, markLaunched, seedUser } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { insertRespondentSession, insertVideoProcess } from '../../test/respondent-rows.ts';
import { sessionResult } from '../../test/session-result.ts';
import { noticeBalance } from './licences.service.ts';

/**
 * Licence packages and session accounting (issue 15, item 3): staff add packages; a usable respondent consumes the
 * started 5-minute intervals of the interview, once; the balance never goes below zero; an account with nothing
 * left suspends its links and is told; the price list and the accounting read one configuration.
 */
const t = appPerFile();
let alice: Client;
let bob: Client;
let staff: Client;
let alicePublicId: string;
let projectId: string;
let researchId: string;
let linkId: string;
let linkToken: string;

beforeEach(async () => {
  await t.app.ctx.database.db.deleteFrom('session_ledger').execute();
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
  await seedUser(t.app, 'root', { role: 'super_user' });
  staff = new Client(t.app);
  await staff.login('root');
  alicePublicId = (await alice.request('GET', '/api/users/user-data/')).json().public_user_id;
  projectId = await alice.draftProject();
  await alice.readyToLaunch(projectId);
  const [research] = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${projectId}`)).json().items;
  researchId = research.id;
  const [link] = (await alice.request('GET', `/api/cabinet/projects/${projectId}/project-accessor-links/`)).json()
    .items;
  linkId = link.id;
  linkToken = link.token;
  await markLaunched(t.app, projectId);
});

const account = (publicId = alicePublicId) => `/api/cabinet/licences/accounts/${publicId}/`;
const addPackage = (body: Record<string, unknown>, client = staff, publicId = alicePublicId) =>
  client.request('POST', `${account(publicId)}packages/`, { body });
const licence = async (client = alice) => {
  const res = await client.request('GET', '/api/cabinet/licences/');
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** A completed respondent whose interview lasted `seconds`, processed usable (or excluded): the charge, if any. */
async function respondent(seconds: number, usable = true) {
  const sessionId = await insertRespondentSession(t.app, {
    linkId,
    status: 'completed',
    outcome: 'complete',
    quotaState: 'pending',
  });
  const started = new Date(Date.now() - 3_600_000);
  await t.app.ctx.database.db
    .updateTable('respondent_sessions')
    .set({ started_at: started, ended_at: new Date(started.getTime() + seconds * 1000) })
    .where('id', '=', sessionId)
    .execute();
  const processId = await insertVideoProcess(t.app, { sessionId, researchId, status: 'in_process' });
  const result = sessionResult(usable ? {} : { excluded: 'bad_frames' });
  const written = await t.app.ctx.deps.processing.finish(processId, 0, { status: 'done', result });
  if (!written) throw new Error('not written');
  return { sessionId, processId, charge: written.counted?.charge ?? null };
}

describe('licence packages', () => {
  it('are added by staff from the price list, and shown to the account', async () => {
    // No package: not metered.
    expect(await licence()).toMatchObject({ licensed: false, balance: 0, packages: [], projects: [] });

    const basic = await addPackage({ package: 'basic', note: 'Contract 42' });
    expect(basic.statusCode, basic.body).toBe(201);
    expect(basic.json()).toMatchObject({ licensed: true, balance: 3000, user: { username: 'alice' } });
    const extra = await addPackage({ package: 'additional', quantity: 3 });
    expect(extra.json()).toMatchObject({ balance: 3300, added: 3300, consumed: 0 });

    const mine = await licence();
    expect(mine).toMatchObject({ licensed: true, balance: 3300, low: false });
    expect(mine.packages.map((p: { package: string; delta: number }) => [p.package, p.delta])).toEqual([
      ['additional', 300],
      ['basic', 3000],
    ]);
    expect(mine.packages[1].note).toBe('Contract 42');
    // Bob's account is his own.
    expect((await licence(bob)).licensed).toBe(false);
  });

  it('are staff-only, and refuse a user that does not exist or a package not on the price list', async () => {
    const refused = await addPackage({ package: 'basic' }, alice);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().key).toBe('licence.forbidden');
    expect((await alice.request('GET', account())).statusCode).toBe(403);
    const nobody = await addPackage({ package: 'basic' }, staff, 'NOSUCHUSER');
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json()).toMatchObject({ key: 'user.doesNotExist', message: "User doesn't exist" });
    const bad = await addPackage({ package: 'platinum', quantity: 0 });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().field_keys).sort()).toEqual(['package', 'quantity']);
    expect((await licence()).licensed).toBe(false);
  });
});

describe('session accounting', () => {
  it('charges each usable respondent the started 5-minute intervals of the interview, once', async () => {
    await addPackage({ package: 'additional' });
    // 4:59 → 1, 5:00 → 1, 5:01 → 2, 12:00 → 3.
    const charges = [];
    for (const seconds of [299, 300, 301, 720]) charges.push((await respondent(seconds)).charge);
    expect(charges.map((c) => c?.charged)).toEqual([1, 1, 2, 3]);
    expect(charges.at(-1)).toMatchObject({ balance: 93, unpaid: 0 });
    // An excluded recording consumes nothing.
    expect((await respondent(400, false)).charge).toBeNull();

    const mine = await licence();
    expect(mine).toMatchObject({ balance: 93, consumed: 7, unpaid: 0 });
    expect(mine.projects).toEqual([
      { project_id: projectId, title: 'Project', respondents: 4, analyses: 0, sessions: 7 },
    ]);
    const history = (await alice.request('GET', '/api/cabinet/licences/history/?limit=2')).json();
    expect(history.items.map((e: { delta: number }) => e.delta)).toEqual([-3, -2]);
    expect(history.items[0]).toMatchObject({ kind: 'respondent', seconds: 720, project_title: 'Project' });
    const next = (
      await alice.request('GET', `/api/cabinet/licences/history/?limit=10&cursor=${history.next_cursor}`)
    ).json();
    expect(next.items.map((e: { delta: number }) => e.delta)).toEqual([-1, -1, 100]);
    expect(next.next_cursor).toBeNull();
    expect((await alice.request('GET', '/api/cabinet/licences/history/?cursor=garbage')).statusCode).toBe(400);

    // The same session's other research finishing later charges nothing more.
    const { sessionId } = await respondent(301);
    const again = await t.app.ctx.database.db.transaction().execute(async (trx) => {
      const { chargeRespondent } = await import('./licences.repository.ts');
      return chargeRespondent(trx, sessionId);
    });
    expect(again).toBeNull();
    expect((await licence()).balance).toBe(91);
  });

  it('never goes below zero: what the balance cannot cover is owed, the links are suspended, the owner told', async () => {
    // An account without a package is not metered: its respondents are not charged, its links stay open.
    expect((await respondent(600)).charge).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: `/r/links/${linkToken}` })).json().state).toBe('open');

    await addPackage({ package: 'additional' });
    await t.app.ctx.database.db.updateTable('session_accounts').set({ balance: 102 }).execute();
    const first = await respondent(600);
    expect(first.charge).toMatchObject({ charged: 2, unpaid: 0, balance: 100 });
    const low = await respondent(300);
    expect(low.charge).toMatchObject({ balance: 99 });
    if (low.charge) await noticeBalance(t.app.ctx.deps, low.charge);
    // 99 left of 100 … then a long interview takes what is left and owes the rest.
    await t.app.ctx.database.db.updateTable('session_accounts').set({ balance: 2 }).execute();
    const last = await respondent(900);
    expect(last.charge).toMatchObject({ charged: 2, unpaid: 1, balance: 0 });
    if (last.charge) {
      await noticeBalance(t.app.ctx.deps, last.charge);
      await noticeBalance(t.app.ctx.deps, last.charge);
    }
    expect(await licence()).toMatchObject({ balance: 0, unpaid: 1, low: true });

    // Links answer "collection suspended" until a package is added.
    const state = await t.app.inject({ method: 'GET', url: `/r/links/${linkToken}` });
    expect(state.json().state).toBe('suspended');
    const notes = (await alice.request('GET', '/api/cabinet/notifications/')).json().items;
    expect(notes.map((n: { kind: string }) => n.kind)).toEqual(['balance_exhausted', 'balance_low']);
    expect(notes[0]).toMatchObject({ link: '/cabinet/licences', params: { balance: 0 } });

    await addPackage({ package: 'additional' });
    expect((await t.app.inject({ method: 'GET', url: `/r/links/${linkToken}` })).json().state).toBe('open');
  });
});
