import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMturkClient, EXTERNAL_QUESTION_NAMESPACE } from '../../integrations/mturk/client.ts';
import {
  CONTRACT_ACCESS_KEY_ID,
  CONTRACT_SECRET_ACCESS_KEY,
  type MturkContractServer,
  startMturkContractServer,
} from '../../test/contract-servers/mturk/server.ts';
import { type Client, createTestApp, loggedIn, markLaunched, type TestApp } from '../../test/harness.ts';
import { completedRespondent, launchedResearchOn, WORKER_FEEDBACK } from '../../test/recruiting.ts';
import { insertProcessedRespondent } from '../../test/report-rows.ts';
import { formatShortCode, newShortCode } from '../respondents/completion-code.ts';

/**
 * A research's MTurk HIT (issue 14, item 6) and the approval or rejection of its assignments (item 5), over real
 * HTTP against the MTurk contract server (AWS JSON 1.1, SigV4 checked) with the real `@aws-sdk/client-mturk`.
 */
let mturk: MturkContractServer;
let t: TestApp;
let alice: Client;
let bob: Client;
let projectId: string;
let researchId: string;
let linkId: string;
let linkToken: string;
/** Requests the contract server had before this test (it lives across the tests). */
let seen = 0;
const PUBLIC_URL = 'https://emolens.example';

beforeAll(async () => {
  mturk = await startMturkContractServer();
  t = await createTestApp({ mturkEndpoint: mturk.url, publicUrl: PUBLIC_URL, publicUrlSet: true });
});
afterAll(async () => {
  await t?.close();
  await mturk?.close();
});
beforeEach(async () => {
  await t.reset();
  mturk.state.setBalance('10000.00');
  ({ alice, bob, projectId, researchId, linkId, linkToken } = await launchedResearchOn(t, 'amazon'));
  seen = mturk.state.requests.length;
});

const url = (suffix = '') => `/api/cabinet/campaigns/${researchId}/mturk/${suffix}`;
const HIT = { title: 'Watch a 30-second video ad', description: 'Your webcam records your reaction.', reward: 0.5 };
const linkKeys = (client: Client = alice) =>
  client.request('POST', '/api/cabinet/recruiting-tokens/mturk/', {
    body: {
      description: 'Lab requester',
      access_key_id: CONTRACT_ACCESS_KEY_ID,
      secret_access_key: CONTRACT_SECRET_ACCESS_KEY,
      environment: 'sandbox',
    },
  });
const requests = () => mturk.state.requests.slice(seen);
const hitsMade = () => requests().filter((r) => r.operation === 'CreateHIT' && r.status === 200).length;

describe('a research’s MTurk HIT', () => {
  it('is made from the research as an ExternalQuestion on its quota link, shown as MTurk reports it, and expired', async () => {
    expect((await linkKeys()).statusCode).toBe(201);
    const before = await alice.request('GET', url());
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toMatchObject({
      hit: null,
      balance: 10000,
      token: { description: 'Lab requester', environment: 'sandbox' },
      quota_link: `${PUBLIC_URL}/project-research/${linkToken}`,
      problems: [],
      can: { create: true, expire: false },
    });

    const made = await alice.request('POST', url(), { body: { ...HIT, max_assignments: 40, keywords: 'video, ad' } });
    expect(made.statusCode, made.body).toBe(201);
    const hit = made.json().hit;
    expect(hit).toMatchObject({
      environment: 'sandbox',
      title: HIT.title,
      reward: 0.5,
      max_assignments: 40,
      status: 'Assignable',
      expired: false,
      assignments: { available: 40, pending: 0, submitted: 0, completed: 0 },
      // 40 × (0.50 + 20% + 20% for 10 or more assignments) = 40 × 0.70.
      cost: 28,
    });
    expect(hit.preview_url).toBe(`https://workersandbox.mturk.com/mturk/preview?groupId=${hit.group_id}`);
    expect(made.json().can).toEqual({ create: false, expire: true });

    // What MTurk was asked: the quota link framed, the reward in dollars, a week to offer it, an hour per worker.
    const stored = mturk.state.hits.get(hit.hit_id);
    expect(stored).toMatchObject({
      Title: HIT.title,
      Description: HIT.description,
      Keywords: 'video, ad',
      Reward: '0.50',
      MaxAssignments: 40,
      AssignmentDurationInSeconds: 3600,
      RequesterAnnotation: researchId,
    });
    expect(stored?.Question).toContain(EXTERNAL_QUESTION_NAMESPACE);
    expect(stored?.Question).toContain(`<ExternalURL>${PUBLIC_URL}/project-research/${linkToken}</ExternalURL>`);
    expect(Math.round(((stored?.Expiration ?? 0) - Date.now()) / 3_600_000)).toBe(7 * 24);

    // One HIT per research.
    const again = await alice.request('POST', url(), { body: HIT });
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('hit.exists');
    expect(hitsMade()).toBe(1);

    // Stopped: expired in MTurk, no longer offered.
    const expired = await alice.request('POST', url('expire/'));
    expect(expired.statusCode, expired.body).toBe(200);
    expect(expired.json().hit).toMatchObject({ expired: true, status: 'Reviewable' });
    expect(expired.json().can.expire).toBe(false);
    expect((stored?.Expiration ?? Infinity) <= Date.now()).toBe(true);

    // Another customer sees nothing of it; no secret reaches the logs.
    for (const [method, path] of [
      ['GET', url()],
      ['POST', url('expire/')],
      ['GET', url('decisions/')],
    ] as const) {
      expect((await bob.request(method, path)).statusCode).toBe(404);
    }
    expect(t.logs.join('\n')).not.toContain(CONTRACT_SECRET_ACCESS_KEY);
  });

  it('takes the quota as the number of assignments, and adopts a HIT made by an attempt whose answer was lost', async () => {
    await linkKeys();
    await t.app.ctx.database.db
      .updateTable('project_accessor_links')
      .set({ quota_size: 30 })
      .where('id', '=', linkId)
      .execute();
    // An earlier attempt made the HIT in MTurk, then the answer was lost: the same idempotency token.
    const direct = createMturkClient({
      accessKeyId: CONTRACT_ACCESS_KEY_ID,
      secretAccessKey: CONTRACT_SECRET_ACCESS_KEY,
      sandbox: true,
      endpoint: mturk.url,
    });
    const earlier = await direct.createExternalHit({
      title: HIT.title,
      description: HIT.description,
      reward: '0.50',
      maxAssignments: 30,
      lifetimeSeconds: 3600,
      assignmentDurationSeconds: 3600,
      externalUrl: `${PUBLIC_URL}/project-research/${linkToken}`,
      frameHeight: 0,
      uniqueRequestToken: `emolens-${researchId}`,
    });
    direct.destroy();
    const made = await alice.request('POST', url(), { body: HIT });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().hit.hit_id).toBe(earlier.hitId);
    expect(made.json()).toMatchObject({ quota: 30, hit: { max_assignments: 30, cost: 21 } });
    // MTurk refused the second HIT by its idempotency token: still one.
    expect(
      requests()
        .filter((r) => r.operation === 'CreateHIT')
        .map((r) => r.status),
    ).toEqual([200, 400]);
  });

  it('answers the refusals clearly and records nothing that MTurk did not make', async () => {
    // No Amazon token yet: 'first bind the token'.
    const none = await alice.request('GET', url());
    expect(none.json().problems).toContain('oauth.bindFirst');
    expect(none.json().can.create).toBe(false);
    const unbound = await alice.request('POST', url(), { body: HIT });
    expect(unbound.statusCode).toBe(409);
    expect(unbound.json().key).toBe('oauth.bindFirst');
    await linkKeys();

    // Bad input: the spec's validation messages.
    const bad = await alice.request('POST', url(), { body: { ...HIT, reward: 0.505, title: '', max_assignments: 0 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field_keys).toMatchObject({
      reward: { key: 'hit.cents' },
      title: { key: 'validation.required' },
      max_assignments: { key: 'validation.between' },
    });

    // The balance below the HIT's cost: 'Not enough funds', checked before asking MTurk.
    mturk.state.setBalance('27.99');
    const poor = await alice.request('POST', url(), { body: { ...HIT, max_assignments: 40 } });
    expect(poor.statusCode).toBe(409);
    expect(poor.json().key).toBe('pool.notEnoughFunds');
    expect(requests().filter((r) => r.operation === 'CreateHIT')).toHaveLength(0);

    // MTurk refusing for funds itself (the balance changed between the two calls) says the same.
    mturk.state.setBalance('10000.00');
    mturk.state.failNext('CreateHIT', 400, {
      __type: 'RequestError',
      Message: 'This Requester has insufficient funds in their account to complete this transaction.',
      TurkErrorCode: 'AWS.MechanicalTurk.InsufficientFunds',
    });
    const refused = await alice.request('POST', url(), { body: { ...HIT, max_assignments: 10 } });
    expect(refused.json().key).toBe('pool.notEnoughFunds');

    // MTurk down (5xx on every attempt): a 503, nothing recorded.
    for (let i = 0; i < 3; i++)
      mturk.state.failNext('CreateHIT', 503, { __type: 'ServiceUnavailable', message: 'down' });
    const down = await alice.request('POST', url(), { body: { ...HIT, max_assignments: 10 } });
    expect(down.statusCode).toBe(503);
    expect(down.json().key).toBe('hit.unavailable');
    expect((await alice.request('GET', url())).json().hit).toBeNull();
    expect(hitsMade()).toBe(0);

    // MTurk frames only HTTPS pages: an installation on plain HTTP is told why.
    const plain = await createTestApp({ mturkEndpoint: mturk.url });
    try {
      const { alice: a } = await loggedIn(plain.app, 'alice');
      const p = await a.draftProject();
      await a.readyToLaunch(p);
      await plain.app.ctx.database.db.updateTable('projects').set({ platform: 'amazon' }).where('id', '=', p).execute();
      await markLaunched(plain.app, p);
      await linkKeys(a);
      const [c] = (await a.request('GET', `/api/cabinet/campaigns/?project_id=${p}`)).json().items;
      const state = await a.request('GET', `/api/cabinet/campaigns/${c.id}/mturk/`);
      expect(state.json().problems).toEqual(['hit.httpsRequired']);
      const refusedHttp = await a.request('POST', `/api/cabinet/campaigns/${c.id}/mturk/`, { body: HIT });
      expect(refusedHttp.json()).toMatchObject({
        key: 'pool.notEnoughData',
        field_keys: { hit: { key: 'hit.httpsRequired' } },
      });
    } finally {
      await plain.close();
    }

    // A project recruiting elsewhere.
    await t.app.ctx.database.db
      .updateTable('projects')
      .set({ platform: 'toloka' })
      .where('id', '=', projectId)
      .execute();
    const elsewhere = await alice.request('POST', url(), { body: HIT });
    expect(elsewhere.json()).toMatchObject({ field_keys: { hit: { key: 'hit.wrongPlatform' } } });
    expect((await alice.request('POST', url('expire/'))).json().key).toBe('hit.notFound');
    expect(hitsMade()).toBe(0);
  });
});

describe('acceptance of MTurk assignments', () => {
  let hitId: string;
  beforeEach(async () => {
    await linkKeys();
    const made = await alice.request('POST', url(), { body: { ...HIT, max_assignments: 20 } });
    expect(made.statusCode, made.body).toBe(201);
    hitId = made.json().hit.hit_id;
  });

  const respondent = (usable: boolean | null) =>
    completedRespondent(t, { projectId, researchId, linkId }, usable, [0.4, 0.6]);
  const later = async <T>(run: () => T) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return run();
  };
  const decided = () =>
    requests().filter(
      (r) => (r.operation === 'ApproveAssignment' || r.operation === 'RejectAssignment') && r.status === 200,
    ).length;

  it('approves usable codes and rejects the rest with the reason as feedback, at once in auto mode, never twice', async () => {
    const good = await respondent(true);
    const excluded = await respondent(false);
    const waiting = await respondent(null);
    const ids = {
      good: mturk.state.addAssignment(hitId, { workerId: 'A1GOOD', code: good.code }),
      forged: mturk.state.addAssignment(hitId, { workerId: 'A2FORGED', code: 'not-a-code' }),
      none: mturk.state.addAssignment(hitId, { workerId: 'A3NONE' }),
      // Submitted after the first with the same code (the first submitted keeps it).
      duplicate: await later(() => mturk.state.addAssignment(hitId, { workerId: 'A5DUP', code: good.code })),
      excluded: mturk.state.addAssignment(hitId, { workerId: 'A4EXCL', code: excluded.code }),
      waiting: mturk.state.addAssignment(hitId, { workerId: 'A6WAIT', code: waiting.code }),
      byHand: mturk.state.addAssignment(hitId, { workerId: 'A7HAND', code: 'whatever', status: 'Approved' }),
    };
    const set = await alice.request('PUT', url('acceptance/'), { body: { acceptance: 'auto' } });
    expect(set.statusCode, set.body).toBe(200);

    const first = await alice.request('POST', url('review/'));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().review).toEqual({ submitted: 6, decided: 5, waiting: 1, sent: 5, failed: 0 });
    const byId = new Map(first.json().items.map((d: { assignment_id: string }) => [d.assignment_id, d]));
    expect(byId.get(ids.good)).toMatchObject({ worker_id: 'A1GOOD', decision: 'accept', reason: 'usable' });
    expect(byId.get(ids.forged)).toMatchObject({ decision: 'reject', reason: 'forged' });
    expect(byId.get(ids.none)).toMatchObject({ decision: 'reject', reason: 'forged' });
    expect(byId.get(ids.excluded)).toMatchObject({ decision: 'reject', reason: 'excluded' });
    expect(byId.get(ids.duplicate)).toMatchObject({ decision: 'reject', reason: 'duplicate' });
    expect(byId.get(ids.byHand)).toMatchObject({ decision: 'accept', reason: 'decided_on_platform', status: 'sent' });
    expect(byId.has(ids.waiting)).toBe(false);

    const stored = (id: string) => mturk.state.assignments.get(id);
    expect(stored(ids.good)).toMatchObject({
      AssignmentStatus: 'Approved',
      RequesterFeedback: WORKER_FEEDBACK.accepted,
    });
    expect(stored(ids.forged)).toMatchObject({
      AssignmentStatus: 'Rejected',
      RequesterFeedback: WORKER_FEEDBACK.forged,
    });
    expect(stored(ids.excluded)?.RequesterFeedback).toMatch(WORKER_FEEDBACK.excluded);
    expect(stored(ids.waiting)?.AssignmentStatus).toBe('Submitted');
    expect(decided()).toBe(5);

    // Again: nothing sent twice. Processed later: approved by the next review.
    expect((await alice.request('POST', url('review/'))).json().review).toMatchObject({ decided: 0, sent: 0 });
    await insertProcessedRespondent(t.app, { sessionId: waiting.sessionId, researchId }, { engagement: [0.5] });
    expect((await alice.request('POST', url('review/'))).json().review).toMatchObject({ decided: 1, sent: 1 });
    expect(stored(ids.waiting)?.AssignmentStatus).toBe('Approved');
    expect(decided()).toBe(6);
    // The Toloka decisions of the same research are a separate list.
    expect((await alice.request('GET', `/api/cabinet/campaigns/${researchId}/toloka/decisions/`)).json().items).toEqual(
      [],
    );
  });

  it('approves the short code a worker typed like the signed one (issue 28, item 13)', async () => {
    const good = await respondent(true);
    const code = await t.app.ctx.deps.sessionEnds.assignCompletionCode(good.sessionId, newShortCode());
    const id = mturk.state.addAssignment(hitId, { workerId: 'A1SHORT', code: formatShortCode(code ?? '') });
    const unknown = mturk.state.addAssignment(hitId, { workerId: 'A2NONE', code: formatShortCode(newShortCode()) });
    expect((await alice.request('PUT', url('acceptance/'), { body: { acceptance: 'auto' } })).statusCode).toBe(200);
    const reviewed = await alice.request('POST', url('review/'));
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    const byId = new Map(reviewed.json().items.map((d: { assignment_id: string }) => [d.assignment_id, d]));
    expect(byId.get(id)).toMatchObject({ session_id: good.sessionId, decision: 'accept', reason: 'usable' });
    expect(byId.get(unknown)).toMatchObject({ decision: 'reject', reason: 'session_missing' });
    expect(mturk.state.assignments.get(id)?.AssignmentStatus).toBe('Approved');
  });

  it('holds decisions for confirmation, treats one decided in MTurk meanwhile as sent, and retries a failed one', async () => {
    const a = await respondent(true);
    const b = await respondent(true);
    const first = mturk.state.addAssignment(hitId, { workerId: 'A1', code: a.code });
    const second = mturk.state.addAssignment(hitId, { workerId: 'A2', code: b.code });
    // MTurk's counts: two submitted of 20, none decided yet.
    expect((await alice.request('GET', url())).json().hit.assignments).toEqual({
      available: 18,
      pending: 0,
      submitted: 2,
      completed: 0,
    });
    const reviewed = await alice.request('POST', url('review/'));
    expect(reviewed.json().counts).toMatchObject({ accept: 2, pending_confirmation: 2 });
    expect(decided()).toBe(0);

    // MTurk failing the approval (every attempt): marked failed with its error, and a 503.
    for (let i = 0; i < 3; i++) {
      mturk.state.failNext('ApproveAssignment', 500, {
        __type: 'ServiceFault',
        Message: 'internal',
        TurkErrorCode: 'ServiceFault',
      });
    }
    const confirmed = await alice.request('POST', url('decisions/confirm/'), { body: { assignment_ids: [first] } });
    expect(confirmed.statusCode).toBe(503);
    expect(confirmed.json().key).toBe('hit.unavailable');
    const after = (await alice.request('GET', url('decisions/'))).json();
    const one = after.items.find((d: { assignment_id: string }) => d.assignment_id === first);
    expect(one).toMatchObject({ status: 'failed' });
    expect(one.error).toMatch(/internal/);
    expect(after.counts).toMatchObject({ failed: 1, pending_confirmation: 1 });

    // Approved in MTurk's own interface meanwhile: MTurk refuses a second decision, and it counts as sent.
    const byHand = mturk.state.assignments.get(second);
    if (byHand) byHand.AssignmentStatus = 'Approved';
    const retried = await alice.request('POST', url('decisions/confirm/'), { body: { assignment_ids: null } });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().counts).toMatchObject({ pending_confirmation: 0, failed: 0, sent: 2 });
    expect(mturk.state.assignments.get(first)?.AssignmentStatus).toBe('Approved');
  });
});
