import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../../test/harness.ts';
import { completedRespondent, launchedResearchOn, tolokaAppPerFile, WORKER_FEEDBACK } from '../../test/recruiting.ts';
import { insertProcessedRespondent } from '../../test/report-rows.ts';
import { formatShortCode, newShortCode, signCompletionCode } from '../respondents/completion-code.ts';

/**
 * Automatic acceptance of Toloka assignments (issue 14, item 5) over real HTTP against the Toloka contract server:
 * the completion codes of the pool's submitted assignments checked against the signed codes, each assignment
 * accepted or rejected with its reason (or left waiting for processing), sent at once ('auto') or after the analyst
 * confirms ('confirm'), never twice, and retried after Toloka failed.
 */
let alice: Client;
let bob: Client;
let projectId: string;
let researchId: string;
let linkId: string;
let poolId: string;
const TOKEN = 'AQAAAAAcontract-token-acceptance';

const t = tolokaAppPerFile(TOKEN, 1000);
beforeEach(async () => {
  ({ alice, bob, projectId, researchId, linkId } = await launchedResearchOn(t, 'toloka'));
  const linked = await alice.request('POST', '/api/cabinet/recruiting-tokens/toloka/', {
    body: { description: 'Main requester', token: TOKEN, environment: 'sandbox' },
  });
  expect(linked.statusCode).toBe(201);
  const made = await alice.request('POST', url(), { body: { title: 'Watch a short video', reward: 0.5, overlap: 40 } });
  expect(made.statusCode, made.body).toBe(201);
  poolId = made.json().pool.pool_id;
  // The contract server lives across the tests: count only this test's requests.
  t.toloka.state.requests.length = 0;
});

const url = (suffix = '') => `/api/cabinet/campaigns/${researchId}/toloka/${suffix}`;
const patches = () => t.toloka.state.requests.filter((r) => r.method === 'PATCH' && r.status === 200).length;
const review = () => alice.request('POST', url('review/'));
const decisions = async () => (await alice.request('GET', url('decisions/'))).json();
const setMode = (acceptance: 'auto' | 'confirm') => alice.request('PUT', url('acceptance/'), { body: { acceptance } });

/** A completed session of the research: processed usable, processed excluded, or not processed yet; its code. */
const respondent = (kind: 'usable' | 'excluded' | 'unprocessed') =>
  completedRespondent(t, { projectId, researchId, linkId }, kind === 'unprocessed' ? null : kind === 'usable');

const submit = (worker: string, code: string, status?: 'SUBMITTED' | 'ACCEPTED' | 'REJECTED') =>
  t.toloka.state.addAssignment(poolId, { user_id: worker, code, status }).id;

describe('acceptance of Toloka assignments', () => {
  it('accepts the short code a respondent copied (any case, with or without its hyphen) like the signed one', async () => {
    const usable = await respondent('usable');
    const typed = await respondent('usable');
    const excluded = await respondent('excluded');
    const short = async (sessionId: string) => {
      const code = await t.app.ctx.deps.sessionEnds.assignCompletionCode(sessionId, newShortCode());
      return formatShortCode(code ?? '');
    };
    const ids = {
      good: submit('worker-good', await short(usable.sessionId)),
      typed: submit('worker-typed', (await short(typed.sessionId)).replace('-', '').toLowerCase()),
      excluded: submit('worker-excluded', await short(excluded.sessionId)),
      unknown: submit('worker-unknown', formatShortCode(newShortCode())),
    };
    expect((await setMode('auto')).statusCode).toBe(200);
    const first = await review();
    expect(first.statusCode, first.body).toBe(200);
    const byId = new Map(first.json().items.map((d: { assignment_id: string }) => [d.assignment_id, d]));
    expect(byId.get(ids.good)).toMatchObject({ session_id: usable.sessionId, decision: 'accept', reason: 'usable' });
    expect(byId.get(ids.typed)).toMatchObject({ session_id: typed.sessionId, decision: 'accept', reason: 'usable' });
    expect(byId.get(ids.excluded)).toMatchObject({ session_id: excluded.sessionId, reason: 'excluded' });
    expect(byId.get(ids.unknown)).toMatchObject({ decision: 'reject', reason: 'session_missing', session_id: null });
  });

  it('accepts usable codes and rejects the rest with their reasons, at once in auto mode, never twice', async () => {
    const usable = await respondent('usable');
    const excluded = await respondent('excluded');
    const waiting = await respondent('unprocessed');
    const otherResearch = await signCompletionCode(t.app.ctx.secret, {
      sid: randomUUID(),
      pid: randomUUID(),
      cids: [randomUUID()],
      par: null,
      outcome: 'complete',
    });
    const [head, payload] = usable.code.split('.');
    const forged = `${head}.${payload}.${'A'.repeat(43)}`;
    const ids = {
      good: submit('worker-good', usable.code),
      forged: submit('worker-forged', forged),
      garbage: submit('worker-garbage', 'no code at all'),
      excluded: submit('worker-excluded', excluded.code),
      other: submit('worker-other', otherResearch),
      duplicate: submit('worker-duplicate', usable.code),
      waiting: submit('worker-waiting', waiting.code),
    };

    const set = await setMode('auto');
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ acceptance: 'auto', items: [], can: { review: true, change: true } });

    const first = await review();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().review).toEqual({ submitted: 7, decided: 6, waiting: 1, sent: 6, failed: 0 });
    const byId = new Map(first.json().items.map((d: { assignment_id: string }) => [d.assignment_id, d]));
    expect(byId.get(ids.good)).toMatchObject({
      worker_id: 'worker-good',
      session_id: usable.sessionId,
      decision: 'accept',
      reason: 'usable',
      status: 'sent',
      error: null,
    });
    expect(byId.get(ids.forged)).toMatchObject({ decision: 'reject', reason: 'forged', session_id: null });
    expect(byId.get(ids.garbage)).toMatchObject({ decision: 'reject', reason: 'forged' });
    expect(byId.get(ids.excluded)).toMatchObject({
      decision: 'reject',
      reason: 'excluded',
      excluded_reason: 'bad_frames',
      session_id: excluded.sessionId,
    });
    expect(byId.get(ids.other)).toMatchObject({ decision: 'reject', reason: 'other_research' });
    expect(byId.get(ids.duplicate)).toMatchObject({ decision: 'reject', reason: 'duplicate' });
    expect(byId.has(ids.waiting)).toBe(false);
    expect(first.json().counts).toEqual({
      accept: 1,
      reject: 5,
      return: 0,
      pending_confirmation: 0,
      sent: 6,
      failed: 0,
    });

    // What Toloka was told: the decision and the reason, in English.
    const state = (id: string) => t.toloka.state.assignments.get(id);
    expect(state(ids.good)).toMatchObject({ status: 'ACCEPTED', public_comment: WORKER_FEEDBACK.accepted });
    expect(state(ids.forged)).toMatchObject({ status: 'REJECTED', public_comment: WORKER_FEEDBACK.forged });
    expect(state(ids.excluded)?.public_comment).toMatch(WORKER_FEEDBACK.excluded);
    expect(state(ids.duplicate)?.public_comment).toMatch(/already been submitted/);
    expect(state(ids.waiting)?.status).toBe('SUBMITTED');
    expect(patches()).toBe(6);

    // Reviewing again sends nothing twice; the unprocessed one still waits.
    const again = await review();
    expect(again.json().review).toEqual({ submitted: 1, decided: 0, waiting: 1, sent: 0, failed: 0 });
    expect(patches()).toBe(6);

    // Once processed, the next review accepts it.
    await insertProcessedRespondent(t.app, { sessionId: waiting.sessionId, researchId }, { engagement: [0.5] });
    const later = await review();
    expect(later.json().review).toMatchObject({ decided: 1, waiting: 0, sent: 1 });
    expect(state(ids.waiting)?.status).toBe('ACCEPTED');
    expect(patches()).toBe(7);
    // Newest first.
    expect(later.json().items[0].assignment_id).toBe(ids.waiting);

    // Another customer sees nothing of it.
    expect((await bob.request('GET', url('decisions/'))).statusCode).toBe(404);
    expect((await bob.request('POST', url('review/'))).statusCode).toBe(404);
    expect(t.logs.join('\n')).not.toContain(TOKEN);

    // The respondent's data deleted: the decision keeps the worker and the verdict, not the session.
    await t.app.ctx.database.db.deleteFrom('respondent_sessions').where('id', '=', waiting.sessionId).execute();
    const kept = (await alice.request('GET', url('decisions/'))).json().items;
    expect(kept.find((d: { assignment_id: string }) => d.assignment_id === ids.waiting)).toMatchObject({
      session_id: null,
      decision: 'accept',
    });
  });

  it('holds decisions until the analyst confirms them in confirm mode', async () => {
    const usable = await respondent('usable');
    const other = await respondent('usable');
    const third = await respondent('usable');
    const good = submit('worker-1', usable.code);
    const bad = submit('worker-2', 'forged-code');
    const meanwhile = submit('worker-3', other.code);
    // Accepted in Toloka's own interface already: recorded as sent, and its session is taken.
    const byHand = submit('worker-4', third.code, 'ACCEPTED');
    const copy = submit('worker-5', third.code);

    expect((await decisions()).acceptance).toBe('confirm');
    const first = await review();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().review).toEqual({ submitted: 4, decided: 4, waiting: 0, sent: 0, failed: 0 });
    const byId = new Map(first.json().items.map((d: { assignment_id: string }) => [d.assignment_id, d]));
    expect(byId.get(good)).toMatchObject({ decision: 'accept', status: 'pending_confirmation', sent_at: null });
    expect(byId.get(bad)).toMatchObject({ decision: 'reject', reason: 'forged', status: 'pending_confirmation' });
    expect(byId.get(byHand)).toMatchObject({ decision: 'accept', reason: 'decided_on_platform', status: 'sent' });
    expect(byId.get(copy)).toMatchObject({ decision: 'reject', reason: 'duplicate' });
    expect(first.json().can.confirm).toBe(true);
    expect(patches()).toBe(0);
    // Reviewing again in confirm mode sends nothing either.
    await review();
    expect(patches()).toBe(0);

    // Decided in Toloka meanwhile: the next review records it as sent.
    const decidedByHand = t.toloka.state.assignments.get(meanwhile);
    if (decidedByHand) decidedByHand.status = 'ACCEPTED';
    await review();
    expect(
      (await decisions()).items.find((d: { assignment_id: string }) => d.assignment_id === meanwhile),
    ).toMatchObject({ status: 'sent' });

    // Confirming one sends only it.
    const one = await alice.request('POST', url('decisions/confirm/'), { body: { assignment_ids: [good] } });
    expect(one.statusCode, one.body).toBe(200);
    expect(t.toloka.state.assignments.get(good)?.status).toBe('ACCEPTED');
    expect(t.toloka.state.assignments.get(bad)?.status).toBe('SUBMITTED');
    expect(patches()).toBe(1);
    // Confirming all sends the rest; confirming again sends nothing.
    const all = await alice.request('POST', url('decisions/confirm/'), { body: {} });
    expect(all.json().counts).toMatchObject({ pending_confirmation: 0, failed: 0, sent: 5 });
    expect(all.json().can.confirm).toBe(false);
    expect(t.toloka.state.assignments.get(bad)).toMatchObject({ status: 'REJECTED' });
    expect(t.toloka.state.assignments.get(copy)).toMatchObject({ status: 'REJECTED' });
    expect(patches()).toBe(3);
    await alice.request('POST', url('decisions/confirm/'), { body: { assignment_ids: null } });
    await review();
    expect(patches()).toBe(3);
  });

  it('marks a decision Toloka refused as failed and sends it again on the next review; Toloka down is a 503', async () => {
    const usable = await respondent('usable');
    const id = submit('worker-1', usable.code);
    await setMode('auto');
    t.toloka.state.failNext(`/assignments/${id}`, 500, undefined, { method: 'PATCH', times: 3 });
    const failed = await review();
    expect(failed.statusCode).toBe(503);
    expect(failed.json().key).toBe('pool.unavailable');
    const after = await decisions();
    expect(after.items[0]).toMatchObject({ assignment_id: id, status: 'failed', sent_at: null });
    expect(after.items[0].error).toMatch(/500|INTERNAL/);
    expect(after.counts.failed).toBe(1);
    expect(t.toloka.state.assignments.get(id)?.status).toBe('SUBMITTED');

    // A refusal that is not an outage: failed, the review answers, and the next one sends it.
    t.toloka.state.failNext(`/assignments/${id}`, 400, undefined, { method: 'PATCH' });
    const refused = await review();
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json().review).toMatchObject({ sent: 0, failed: 1 });
    const retried = await review();
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().review).toMatchObject({ sent: 1, failed: 0 });
    expect(retried.json().items[0]).toMatchObject({ status: 'sent', error: null });
    expect(t.toloka.state.assignments.get(id)?.status).toBe('ACCEPTED');
    expect(patches()).toBe(1);

    // Toloka out of reach when reading the assignments: a clear 503.
    t.toloka.state.failNext('/assignments', 503, undefined, { method: 'GET', times: 3 });
    const down = await review();
    expect(down.statusCode).toBe(503);
    expect(down.json().key).toBe('pool.unavailable');
    // The setting needs a pool; a bad one is refused.
    expect((await setMode('nope' as 'auto')).statusCode).toBe(400);
  });
});
