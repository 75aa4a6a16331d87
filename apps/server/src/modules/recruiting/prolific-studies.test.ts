import { beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '../../test/harness.ts';
import { launchedResearchOn, prolificAppPerFile } from '../../test/recruiting.ts';
import { insertProcessedRespondent } from '../../test/report-rows.ts';
import { completeRespondent } from '../../test/respondent.ts';

/**
 * Prolific (issue 33, item 2) over real HTTP against the Prolific contract server: a token linked once Prolific
 * accepts it, a study made from the research (its URL with Prolific's parameters, a code per outcome with its action,
 * places, reward in cents, devices and webcam), published, paused, started and stopped; participants coming through
 * the link with PROLIFIC_PID, STUDY_ID and SESSION_ID sent back to Prolific with their outcome's code; and their
 * submissions approved, rejected (message and category) or asked to return from the processed sessions, once.
 */
let alice: Client;
let bob: Client;
let researchId: string;
let linkId: string;
let projectId: string;
const TOKEN = 'prolific-contract-token-alice-0001';

const t = prolificAppPerFile(TOKEN);
beforeEach(async () => {
  ({ alice, bob, projectId, researchId, linkId } = await launchedResearchOn(t, 'prolific'));
  t.prolific.state.requests.length = 0;
});

const url = (suffix = '') => `/api/cabinet/campaigns/${researchId}/prolific/${suffix}`;
const STUDY = {
  title: 'Watch a short video with your webcam on',
  description: 'A five-minute study: you watch a video while your webcam records your face.',
  reward: 1.25,
  places: 30,
  minutes: 10,
  actions: { complete: 'MANUALLY_REVIEW', screen_out: 'REQUEST_RETURN', quota_full: 'MANUALLY_REVIEW' },
  devices: ['desktop'],
  webcam: true,
};
const linkToken = (token = TOKEN) =>
  alice.request('POST', '/api/cabinet/recruiting-tokens/prolific/', { body: { description: 'Lab account', token } });

/** A participant Prolific sends to the study: the study URL as opened, cut into the link's token and parameters. */
function arrive(studyId: string, pid: string) {
  const { submission, url: opened } = t.prolific.state.startSubmission(studyId, pid);
  const u = new URL(opened);
  const token = u.pathname.split('/').pop() ?? '';
  return { submission, token, panel: Object.fromEntries(u.searchParams) };
}

/** The code Prolific gets from the completion URL the respondent was sent to. */
const codeOf = (redirect: string | null) => {
  const u = new URL(redirect ?? '');
  expect(`${u.origin}${u.pathname}`).toBe('https://app.prolific.com/submissions/complete');
  return u.searchParams.get('cc') ?? '';
};

describe('Prolific', () => {
  it('refuses a token Prolific does not accept, and links one it does', async () => {
    const bad = await linkToken('not-a-prolific-token');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      key: 'oauth.prolificRejected',
      field_keys: { token: { key: 'oauth.prolificRejected' } },
    });
    const good = await linkToken();
    expect(good.statusCode, good.body).toBe(201);
    expect(good.json()).toMatchObject({ service: 'prolific', environment: 'production', hint: '0001', active: true });
    // Prolific was asked who the token's researcher is, with Prolific's header.
    expect(t.prolific.state.requests.map((r) => `${r.method} ${r.path} ${r.auth}`)).toEqual([
      'GET /api/v1/users/me/ invalid',
      'GET /api/v1/users/me/ ok',
    ]);
    // Prolific out of reach: a clear 503, nothing linked.
    t.prolific.state.failNext('/api/v1/users/me/', 503, { error: { status: 503, title: 'Unavailable' } }, { times: 3 });
    const down = await alice.request('POST', '/api/cabinet/recruiting-tokens/prolific/', {
      body: { description: 'Second', token: 'another-token' },
    });
    expect(down.statusCode).toBe(503);
    expect(down.json().key).toBe('oauth.serviceUnreachable');
    expect(t.logs.join('\n')).not.toContain(TOKEN);
  });

  it('makes a study, sends participants back with their outcome’s code and decides their submissions', async () => {
    expect((await alice.request('GET', url())).json()).toMatchObject({ study: null, problems: ['oauth.bindFirst'] });
    await linkToken();
    const made = await alice.request('POST', url(), { body: STUDY });
    expect(made.statusCode, made.body).toBe(201);
    const { study } = made.json();
    expect(made.json()).toMatchObject({
      study: { status: 'UNPUBLISHED', reward: 1.25, places: 30, minutes: 10, devices: ['desktop'], webcam: true },
      balance: null,
      can: { create: false, publish: true, pause: false, start: false, stop: false },
    });
    expect(study.cost).toBeCloseTo(1.25 * 30 * 1.428, 2);
    // What Prolific was asked for.
    const sent = t.prolific.state.studies.get(study.study_id);
    expect(sent).toMatchObject({
      name: STUDY.title,
      prolific_id_option: 'url_parameters',
      total_available_places: 30,
      reward: 125,
      estimated_completion_time: 10,
      device_compatibility: ['desktop'],
      peripheral_requirements: ['camera'],
    });
    expect(sent?.external_study_url).toMatch(
      /\/project-research\/[\w-]+\?PROLIFIC_PID=\{\{%PROLIFIC_PID%\}\}&STUDY_ID=\{\{%STUDY_ID%\}\}&SESSION_ID=\{\{%SESSION_ID%\}\}$/,
    );
    const codes = study.completion_codes;
    expect(sent?.completion_codes).toEqual([
      {
        code: codes.complete.code,
        code_type: 'COMPLETED',
        actor: 'participant',
        actions: [{ action: 'MANUALLY_REVIEW' }],
      },
      {
        code: codes.screen_out.code,
        code_type: 'OTHER',
        actor: 'participant',
        actions: [{ action: 'REQUEST_RETURN', return_reason: expect.any(String) }],
      },
      {
        code: codes.quota_full.code,
        code_type: 'OTHER',
        actor: 'participant',
        actions: [{ action: 'MANUALLY_REVIEW' }],
      },
    ]);
    expect((await alice.request('POST', url(), { body: STUDY })).json().key).toBe('study.exists');

    // Publish, pause, start again: Prolific's status shown each time.
    expect((await alice.request('POST', url('publish/'))).json()).toMatchObject({
      study: { status: 'ACTIVE' },
      can: { publish: false, pause: true, stop: true },
    });
    expect((await alice.request('POST', url('pause/'))).json()).toMatchObject({ study: { status: 'PAUSED' } });
    expect((await alice.request('POST', url('start/'))).json()).toMatchObject({ study: { status: 'ACTIVE' } });

    // Participants come through the link with Prolific's parameters.
    const usable = arrive(study.study_id, 'pid-usable');
    const done = await completeRespondent(t.app, usable.token, { panel: usable.panel });
    expect(codeOf(done.end.redirect_url)).toBe(codes.complete.code);
    t.prolific.state.complete(usable.submission.id, codeOf(done.end.redirect_url));
    const session = await t.app.ctx.database.db
      .selectFrom('respondent_sessions')
      .select(['id', 'participant_id', 'panel'])
      .where('id', '=', done.client.sessionId)
      .executeTakeFirstOrThrow();
    expect(session).toMatchObject({
      participant_id: 'pid-usable',
      panel: { PROLIFIC_PID: 'pid-usable', STUDY_ID: study.study_id, SESSION_ID: usable.submission.id },
    });
    await insertProcessedRespondent(t.app, { sessionId: session.id, researchId }, { engagement: [0.5], usable: true });

    const excluded = arrive(study.study_id, 'pid-excluded');
    const ended = await completeRespondent(t.app, excluded.token, { panel: excluded.panel });
    t.prolific.state.complete(excluded.submission.id, codeOf(ended.end.redirect_url));
    await insertProcessedRespondent(
      t.app,
      { sessionId: ended.client.sessionId, researchId },
      { engagement: [0.5], usable: false },
    );

    const waiting = arrive(study.study_id, 'pid-waiting');
    const unprocessed = await completeRespondent(t.app, waiting.token, { panel: waiting.panel });
    t.prolific.state.complete(waiting.submission.id, codeOf(unprocessed.end.redirect_url));

    // The quota is full for the next one: sent back at once with the quota-full code.
    const db = t.app.ctx.database.db;
    await db.updateTable('project_accessor_links').set({ quota_size: 3 }).where('id', '=', linkId).execute();
    const late = arrive(study.study_id, 'pid-late');
    const full = await completeRespondent(t.app, late.token, { panel: late.panel });
    expect(full.end.outcome).toBe('quota_full');
    expect(codeOf(full.end.redirect_url)).toBe(codes.quota_full.code);
    t.prolific.state.complete(late.submission.id, codes.quota_full.code);

    // One who never came through the link submits anyway.
    const stranger = t.prolific.state.startSubmission(study.study_id, 'pid-stranger').submission;
    t.prolific.state.complete(stranger.id, 'GUESSED1');

    const review = await alice.request('POST', url('review/'));
    expect(review.statusCode, review.body).toBe(200);
    expect(review.json().review).toMatchObject({ submitted: 5, decided: 4, waiting: 1, sent: 0 });
    const byWorker = new Map(review.json().items.map((d: { worker_id: string }) => [d.worker_id, d]));
    expect(byWorker.get('pid-usable')).toMatchObject({ decision: 'accept', reason: 'usable', session_id: session.id });
    expect(byWorker.get('pid-excluded')).toMatchObject({ decision: 'reject', reason: 'excluded' });
    expect(byWorker.get('pid-late')).toMatchObject({ decision: 'return', reason: 'not_complete' });
    expect(byWorker.get('pid-stranger')).toMatchObject({ decision: 'reject', reason: 'session_missing' });
    expect(review.json().counts).toMatchObject({ accept: 1, reject: 2, return: 1, pending_confirmation: 4 });

    const confirmed = await alice.request('POST', url('decisions/confirm/'), { body: {} });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const subs = t.prolific.state.submissions;
    expect(subs.get(usable.submission.id)?.status).toBe('APPROVED');
    expect(subs.get(excluded.submission.id)).toMatchObject({
      status: 'REJECTED',
      rejection: { rejection_category: 'NO_DATA' },
    });
    expect(subs.get(excluded.submission.id)?.rejection?.message.length).toBeGreaterThanOrEqual(100);
    expect(subs.get(stranger.id)).toMatchObject({ status: 'REJECTED', rejection: { rejection_category: 'NO_CODE' } });
    expect(subs.get(late.submission.id)).toMatchObject({
      status: 'AWAITING REVIEW',
      return_requested: expect.any(String),
    });

    // Reviewing again decides and sends nothing twice; the processed one is decided then.
    const transitions = () => t.prolific.state.requests.filter((r) => r.path.startsWith('/api/v1/submissions/')).length;
    const before = transitions();
    await insertProcessedRespondent(
      t.app,
      { sessionId: unprocessed.client.sessionId, researchId },
      { engagement: [0.5], usable: true },
    );
    expect((await alice.request('PUT', url('acceptance/'), { body: { acceptance: 'auto' } })).statusCode).toBe(200);
    const again = await alice.request('POST', url('review/'));
    expect(again.json().review).toMatchObject({ decided: 1, waiting: 0, sent: 1, failed: 0 });
    expect(transitions()).toBe(before + 1);
    expect(subs.get(waiting.submission.id)?.status).toBe('APPROVED');
    expect((await alice.request('POST', url('review/'))).json().review).toMatchObject({ decided: 0, sent: 0 });
    expect(transitions()).toBe(before + 1);

    // Stopped: final; the cabinet shows Prolific's status.
    expect((await alice.request('POST', url('stop/'))).json()).toMatchObject({
      study: { status: 'AWAITING REVIEW' },
      can: { publish: false, pause: false, start: false, stop: false },
    });
    // Another customer sees nothing of it.
    expect((await bob.request('GET', url())).statusCode).toBe(404);
    expect((await bob.request('POST', url('review/'))).statusCode).toBe(404);
    expect(t.logs.join('\n')).not.toContain(TOKEN);
  });

  it('surfaces Prolific’s refusals and failures as the spec’s messages', async () => {
    await linkToken();
    const db = t.app.ctx.database.db;
    await db.updateTable('projects').set({ platform: 'toloka' }).where('id', '=', projectId).execute();
    expect((await alice.request('POST', url(), { body: STUDY })).json()).toMatchObject({
      key: 'pool.notEnoughData',
      field_keys: { study: { key: 'study.wrongPlatform' } },
    });
    await db.updateTable('projects').set({ platform: 'prolific' }).where('id', '=', projectId).execute();
    const bad = await alice.request('POST', url(), { body: { ...STUDY, reward: 1.255, devices: [] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field_keys).toMatchObject({
      reward: { key: 'hit.cents' },
      devices: { key: 'validation.minItems' },
    });
    // Prolific refuses the draft: the start error, no study recorded.
    t.prolific.state.failNext('/api/v1/studies/', 400, {
      error: { status: 400, error_code: 140100, title: 'Invalid request', detail: { name: ['Too long.'] } },
    });
    const refused = await alice.request('POST', url(), { body: STUDY });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().key).toBe('study.startError');
    expect((await alice.request('GET', url())).json().study).toBeNull();

    expect((await alice.request('POST', url(), { body: STUDY })).statusCode).toBe(201);
    // Not enough funds to publish.
    t.prolific.state.balance = 100;
    const poor = await alice.request('POST', url('publish/'));
    expect(poor.statusCode).toBe(409);
    expect(poor.json()).toMatchObject({ key: 'pool.notEnoughFunds', message: 'Not enough funds' });
    t.prolific.state.balance = 1_000_000;
    // A transition Prolific does not allow now.
    const early = await alice.request('POST', url('pause/'));
    expect(early.statusCode).toBe(409);
    expect(early.json().key).toBe('study.refused');
    // Prolific out of reach: 503 with the spec's message; the page shows the stored state, offline.
    const { study } = (await alice.request('GET', url())).json();
    const path = `/api/v1/studies/${study.study_id}/transition/`;
    t.prolific.state.failNext(path, 502, 'Bad gateway', { times: 3 });
    const down = await alice.request('POST', url('publish/'));
    expect(down.statusCode).toBe(503);
    expect(down.json().key).toBe('study.unavailable');
    t.prolific.state.failNext(`/api/v1/studies/${study.study_id}/`, 500, { error: { status: 500 } }, { times: 3 });
    expect((await alice.request('GET', url())).json()).toMatchObject({
      offline: true,
      study: { status: 'UNPUBLISHED' },
    });
    // The token revoked on Prolific since.
    t.prolific.state.tokens.delete(TOKEN);
    const revoked = await alice.request('POST', url('publish/'));
    expect(revoked.statusCode).toBe(409);
    expect(revoked.json().key).toBe('oauth.prolificRejected');
    t.prolific.state.tokens.add(TOKEN);
  });
});
