import { VIDEO_AD_BLANKS, WEBHOOK_EVENT_TYPES } from '@emolens/contracts';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WebhooksConfig } from '../../config.ts';
import { Client, insertMedia, loggedIn, seedUser } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { insertCompletedManOf30, videoResearch } from '../../test/report-rows.ts';
import {
  completeRespondent,
  launchedLink,
  linkWithQuestionnaires,
  respondentClient,
  WHO_WATCHES_SCREENER,
} from '../../test/respondent.ts';
import { webhookReceiver } from '../../test/webhook-receiver.ts';
import { buildReportJob } from '../reports/jobs/build-report.job.ts';
import { pruneWebhookLogJob } from './jobs/webhooks-jobs.ts';

/**
 * Webhooks (issue 33, item 3; decision 066): a local receiver gets a signed delivery of every event type, each made by
 * the pipeline's own publish where the test can reach it through the API; a failing receiver is retried on the
 * (shortened) schedule and an endpoint failing for too long is disabled; another account sees none of it.
 */
const SETTINGS: WebhooksConfig = {
  allowPrivateAddresses: true,
  allowHttp: true,
  timeoutMs: 2000,
  retryDelaysMs: [100, 300, 1200],
  disableAfterMs: 1500,
  logRetentionMs: 30 * 86_400_000,
};
const t = appPerFile({ webhooks: SETTINGS }, { queue: true });
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  receiver = await webhookReceiver();
});
afterAll(() => receiver.close());
beforeEach(async () => {
  receiver.received.length = 0;
  receiver.answerWith((_req, res) => res.writeHead(204).end());
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
});

const BASE = '/api/users/webhooks/endpoints/';

async function makeEndpoint(client: Client, body: Record<string, unknown> = {}) {
  const res = await client.request('POST', BASE, {
    body: { url: receiver.url(), event_types: [...WEBHOOK_EVENT_TYPES], ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string };
}

/** Runs the events' subscribers, then the deliveries due, until `until` holds or `ms` pass (retries wait). */
async function deliver(until: () => boolean = () => true, ms = 5000) {
  const queue = t.app.ctx.queue;
  const deadline = Date.now() + ms;
  for (;;) {
    await queue.runQueued();
    await queue.runQueued(['webhooks.deliver']);
    if (until() || Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

const log = async (client: Client, id: string) => {
  const res = await client.request('GET', `${BASE}${id}/deliveries/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as {
    event_type: string;
    attempt: number;
    status_code: number | null;
    error: string | null;
  }[];
};

/** A self-service test sent to moderation through the API: its state changes once. */
async function selfServiceSubmitted() {
  await seedUser(t.app, 'root', { role: 'super_user' });
  const staff = new Client(t.app);
  await staff.login('root');
  const category = await staff.request('POST', '/api/cabinet/categories/', {
    body: { kind: 'subtype', name: 'TV ad', content_type: 'video' },
  });
  expect(category.statusCode, category.body).toBe(201);
  const made = await alice.request('POST', '/api/cabinet/self-service/', { body: { title: 'Spring ad' } });
  expect(made.statusCode, made.body).toBe(201);
  const test = made.json();
  await insertMedia(t.app, {
    researchId: test.campaign_id,
    owner: 'alice',
    kind: 'video',
    status: 'ready',
    duration_seconds: 30,
  });
  const current = (await alice.request('GET', `/api/cabinet/self-service/${test.id}/`)).json();
  const patched = await alice.request('PATCH', `/api/cabinet/self-service/${test.id}/`, {
    body: { updated_at: current.updated_at, categories: { subtype: 'TV ad' }, respondents: 100 },
  });
  expect(patched.statusCode, patched.body).toBe(200);
  const survey = (await alice.request('GET', `/api/cabinet/surveys/${test.survey_id}/`)).json();
  for (const q of survey.questions) {
    for (const o of q.options) if ((VIDEO_AD_BLANKS as readonly string[]).includes(o.id)) o.text.ru = `Brand ${o.id}`;
  }
  const filled = await alice.request('PATCH', `/api/cabinet/surveys/${test.survey_id}/`, {
    body: { title: survey.title, enabled: survey.enabled, questions: survey.questions, updated_at: survey.updated_at },
  });
  expect(filled.statusCode, filled.body).toBe(200);
  const submitted = await alice.request('POST', `/api/cabinet/self-service/${test.id}/submit/`);
  expect(submitted.statusCode, submitted.body).toBe(200);
  return test.id as string;
}

describe('webhook deliveries', () => {
  it('sends every event type to the owner’s endpoint, signed so the Standard Webhooks verifier accepts it', async () => {
    const { id, secret } = await makeEndpoint(alice);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const bobs = await makeEndpoint(bob);
    const db = t.app.ctx.database.db;

    // A respondent completes; the link's quota is one, so the next one is turned away.
    const link = await launchedLink(t.app, alice);
    await db.updateTable('project_accessor_links').set({ quota_size: 1 }).where('id', '=', link.linkId).execute();
    const first = await completeRespondent(t.app, link.token);
    const second = await completeRespondent(t.app, link.token);
    expect(second.end.outcome).toBe('quota_full');
    // Processing counts the first one (as the processing job does) and publishes: its quota link is filled.
    await db
      .updateTable('respondent_sessions')
      .set({ quota_state: 'counted' })
      .where('id', '=', first.client.sessionId)
      .execute();
    const process = await db
      .selectFrom('video_processes')
      .select('id')
      .where('session_id', '=', first.client.sessionId)
      .executeTakeFirstOrThrow();
    await t.app.ctx.queue.publish('recording.processed', {
      process_id: process.id,
      generation: 1,
      session_id: first.client.sessionId,
      status: 'done',
      counted: { project_id: link.projectId, charge: null },
    });
    // A respondent screened out by the screener.
    const screened = await linkWithQuestionnaires(t.app, alice, { screener: WHO_WATCHES_SCREENER, survey: null });
    const respondent = respondentClient(t.app);
    expect((await respondent.start(screened.token)).statusCode).toBe(201);
    const out = await respondent.answers('screener', { tv: { choices: ['no'] }, sex: { choices: ['f'] } }, true);
    expect(out.json().end.outcome).toBe('screen_out');
    // A report built by its job.
    const video = await videoResearch(t.app, alice, 'alice', { width: 1000, height: 500, seconds: 3 });
    for (const engagement of [
      [0.2, 0.4, 0.6],
      [0.4, 0.4, 0.4],
    ]) {
      await insertCompletedManOf30(t.app, { linkId: video.linkId, researchId: video.researchId }, { engagement });
    }
    const report = await alice.request('POST', `/api/cabinet/campaigns/${video.researchId}/reports/`, {
      body: { name: 'Weekly' },
    });
    expect(report.statusCode, report.body).toBe(201);
    await t.app.ctx.queue.run(buildReportJob, { report_id: report.json().id, generation: 1 });
    // A self-service test moves to moderation.
    const testId = await selfServiceSubmitted();

    await deliver(() => new Set(receiver.received.map((r) => JSON.parse(r.body).type)).size >= 7);
    const verifier = new Webhook(secret);
    const byType = new Map<string, Record<string, unknown>>();
    for (const r of receiver.received) {
      expect(r.path).toBe('/hook');
      expect(r.headers['content-type']).toBe('application/json');
      const payload = verifier.verify(r.body, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      }) as { type: string; timestamp: string; data: Record<string, unknown> };
      expect(String(r.headers['webhook-id'])).toMatch(/^msg_/);
      byType.set(payload.type, payload.data);
    }
    expect([...byType.keys()].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    expect(byType.get('session.completed')).toMatchObject({ session_id: first.client.sessionId, status: 'completed' });
    expect(byType.get('session.quota_full')).toMatchObject({ session_id: second.client.sessionId });
    expect(byType.get('session.screened_out')).toMatchObject({ session_id: respondent.sessionId });
    expect(byType.get('recording.processed')).toMatchObject({ process_id: process.id, status: 'done' });
    expect(byType.get('research.quota_filled')).toMatchObject({ quota_link_id: link.linkId, quota: 1, counted: 1 });
    expect(byType.get('report.built')).toMatchObject({ report_id: report.json().id, research_id: video.researchId });
    expect(byType.get('self_service.state_changed')).toMatchObject({ test_id: testId, state: 'moderation' });
    // Another secret does not verify them; every delivery was logged as delivered; bob's endpoint got nothing of it.
    expect(() =>
      new Webhook(bobs.secret).verify(receiver.received[0]?.body ?? '', receiver.received[0]?.headers as never),
    ).toThrow();
    const entries = await log(alice, id);
    expect(entries.length).toBe(receiver.received.length);
    expect(entries.every((e) => e.status_code === 204 && e.error === null && e.attempt === 1)).toBe(true);
    expect(await log(bob, bobs.id)).toEqual([]);
    // A subscriber run again sends nothing twice.
    await t.app.ctx.queue.publish('recording.processed', {
      process_id: process.id,
      generation: 1,
      session_id: first.client.sessionId,
      status: 'done',
      counted: { project_id: link.projectId, charge: null },
    });
    const before = receiver.received.length;
    await deliver();
    expect(receiver.received.length).toBe(before);
  });

  it('sends only the chosen event types, and nothing to a disabled endpoint', async () => {
    const { id } = await makeEndpoint(alice, { event_types: ['session.quota_full'] });
    const link = await launchedLink(t.app, alice);
    await completeRespondent(t.app, link.token);
    await deliver();
    expect(receiver.received).toEqual([]);
    await t.app.ctx.database.db
      .updateTable('project_accessor_links')
      .set({ quota_size: 1 })
      .where('id', '=', link.linkId)
      .execute();
    const off = await alice.request('PATCH', `${BASE}${id}/`, { body: { enabled: false } });
    expect(off.json()).toMatchObject({ enabled: false, disabled_reason: null, can: { test: false } });
    await completeRespondent(t.app, link.token);
    await deliver();
    expect(receiver.received).toEqual([]);
    expect((await alice.request('POST', `${BASE}${id}/test/`)).json().key).toBe('webhook.disabled');
    await alice.request('PATCH', `${BASE}${id}/`, { body: { enabled: true } });
    await completeRespondent(t.app, link.token);
    await deliver(() => receiver.received.length > 0);
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['session.quota_full']);
  });

  it('retries a failing receiver with growing delays under the same webhook-id, and logs each attempt', async () => {
    const { id, secret } = await makeEndpoint(alice);
    let calls = 0;
    receiver.answerWith((_req, res) => {
      calls++;
      if (calls <= 2) res.writeHead(500).end('down');
      else res.writeHead(200).end('ok');
    });
    const sent = await alice.request('POST', `${BASE}${id}/test/`);
    expect(sent.statusCode, sent.body).toBe(202);
    await deliver(() => receiver.received.length >= 3);
    expect(receiver.received).toHaveLength(3);
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect(ids).toEqual(new Set([sent.json().message_id]));
    const [a, b, c] = receiver.received.map((r) => r.at) as [number, number, number];
    expect(b - a).toBeGreaterThanOrEqual(90);
    expect(c - b).toBeGreaterThanOrEqual(290);
    // Each attempt is signed afresh (its own timestamp) and verifies.
    for (const r of receiver.received)
      expect(() => new Webhook(secret).verify(r.body, r.headers as never)).not.toThrow();
    const entries = await log(alice, id);
    expect(entries.map((e) => [e.event_type, e.attempt, e.status_code, e.error])).toEqual([
      ['webhook.test', 3, 200, null],
      ['webhook.test', 2, 500, 'http_status'],
      ['webhook.test', 1, 500, 'http_status'],
    ]);
    const endpoint = (await alice.request('GET', BASE)).json().items[0];
    expect(endpoint).toMatchObject({ enabled: true, failing_since: null });
  });

  it('disables an endpoint whose deliveries failed for too long, with the reason, and stops retrying', async () => {
    const { id } = await makeEndpoint(alice);
    receiver.answerWith((_req, res) => res.writeHead(503).end());
    expect((await alice.request('POST', `${BASE}${id}/test/`)).statusCode).toBe(202);
    await deliver(() => receiver.received.length >= 4, 6000);
    const endpoint = (await alice.request('GET', BASE)).json().items[0];
    expect(endpoint).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    expect(endpoint.disabled_at).not.toBeNull();
    const entries = await log(alice, id);
    expect(entries.map((e) => e.attempt)).toEqual([4, 3, 2, 1]);
    expect(entries.every((e) => e.status_code === 503)).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    await deliver();
    expect(receiver.received).toHaveLength(4);
    // Enabled again by hand, it starts afresh.
    const on = await alice.request('PATCH', `${BASE}${id}/`, { body: { enabled: true } });
    expect(on.json()).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
  });
});

describe('the delivery log', () => {
  it('keeps finished messages for the retention, then deletes them with their attempts; pending ones stay', async () => {
    const { id } = await makeEndpoint(alice);
    const sends = async () => {
      const res = await alice.request('POST', `${BASE}${id}/test/`);
      expect(res.statusCode, res.body).toBe(202);
      return res.json().message_id as string;
    };
    const delivered = [await sends(), await sends()];
    await deliver(() => receiver.received.length >= 2);
    receiver.answerWith((_req, res) => res.writeHead(503).end());
    const pending = await sends();
    await deliver(() => receiver.received.length >= 3);
    const db = t.app.ctx.database.db;
    const states = async () =>
      Object.fromEntries(
        (await db.selectFrom('webhook_messages').select(['id', 'state']).execute()).map((m) => [m.id, m.state]),
      );
    expect(await states()).toEqual({
      [delivered[0] as string]: 'succeeded',
      [delivered[1] as string]: 'succeeded',
      [pending]: 'pending',
    });
    // One delivered message and the pending one made 31 days ago, the other delivered one 29 days ago.
    const age = (messageId: string, days: number) =>
      db
        .updateTable('webhook_messages')
        .set({ created_at: new Date(Date.now() - days * 86_400_000) })
        .where('id', '=', messageId)
        .execute();
    await age(delivered[0] as string, 31);
    await age(delivered[1] as string, 29);
    await age(pending, 31);
    const { handle } = await pruneWebhookLogJob.load();
    await handle({}, t.app.ctx, { retryCount: 0, retryLimit: 0, signal: new AbortController().signal });
    expect(await states()).toEqual({ [delivered[1] as string]: 'succeeded', [pending]: 'pending' });
    const attempts = await db.selectFrom('webhook_attempts').select('message_id').execute();
    expect(new Set(attempts.map((a) => a.message_id))).toEqual(new Set([delivered[1], pending]));
    expect((await log(alice, id)).length).toBe(attempts.length);
  });
});

describe('webhook endpoints', () => {
  it('show the secret once, rotate it, and are the account’s own', async () => {
    const made = await makeEndpoint(alice, { description: 'CRM' });
    const list = (await alice.request('GET', BASE)).json();
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ id: made.id, description: 'CRM', secret_prefix: made.secret.slice(0, 10) });
    expect(JSON.stringify(list)).not.toContain(made.secret);
    expect(list.event_types).toEqual([...WEBHOOK_EVENT_TYPES]);
    const rotated = await alice.request('POST', `${BASE}${made.id}/rotate-secret/`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().secret).not.toBe(made.secret);
    expect((await alice.request('POST', `${BASE}${made.id}/test/`)).statusCode).toBe(202);
    await deliver(() => receiver.received.length > 0);
    const r = receiver.received[0];
    expect(() => new Webhook(rotated.json().secret).verify(r?.body ?? '', r?.headers as never)).not.toThrow();
    expect(() => new Webhook(made.secret).verify(r?.body ?? '', r?.headers as never)).toThrow();
    const edited = await alice.request('PATCH', `${BASE}${made.id}/`, {
      body: { event_types: ['report.built', 'session.completed'] },
    });
    expect(edited.json().event_types).toEqual(['session.completed', 'report.built']);

    // Bob sees none of it and changes none of it: not found.
    expect((await bob.request('GET', BASE)).json().items).toEqual([]);
    for (const [method, suffix, body] of [
      ['PATCH', '', { enabled: false }],
      ['DELETE', '', undefined],
      ['POST', 'rotate-secret/', undefined],
      ['POST', 'test/', undefined],
      ['GET', 'deliveries/', undefined],
    ] as const) {
      const res = await bob.request(method, `${BASE}${made.id}/${suffix}`, body ? { body } : {});
      expect(res.statusCode, `${method} ${suffix}`).toBe(404);
      expect(res.json().key).toBe('webhook.notFound');
    }
    expect((await alice.request('GET', BASE)).json().items[0].enabled).toBe(true);
    expect((await alice.request('DELETE', `${BASE}${made.id}/`)).statusCode).toBe(204);
    expect((await alice.request('GET', BASE)).json().items).toEqual([]);
  });

  it('refuse bad input with 4xx', async () => {
    const post = (body: Record<string, unknown>, options: { csrf?: boolean } = {}) =>
      alice.request('POST', BASE, { body, ...options });
    const fieldKey = async (body: Record<string, unknown>, field: string) =>
      (await post(body)).json().field_keys?.[field]?.key;
    const ok = { url: receiver.url(), event_types: ['report.built'] };
    expect(await fieldKey({ ...ok, url: 'not a url' }, 'url')).toBe('validation.url');
    expect(await fieldKey({ ...ok, url: 'ftp://example.org/' }, 'url')).toBe('validation.url');
    expect(await fieldKey({ ...ok, event_types: [] }, 'event_types')).toBe('validation.minItems');
    expect((await post({ ...ok, event_types: ['user.deleted'] })).statusCode).toBe(400);
    expect((await post({ url: receiver.url() })).statusCode).toBe(400);
    expect((await post({ ...ok, secret: 'whsec_mine' })).statusCode).toBe(400);
    expect((await post({ ...ok, description: 'x'.repeat(256) })).statusCode).toBe(400);
    expect((await post({ ...ok, url: 'http://user:pass@127.0.0.1/' })).statusCode).toBe(400);
    expect((await post(ok, { csrf: false })).statusCode).toBe(403);
    expect((await alice.request('PATCH', `${BASE}not-a-uuid/`, { body: {} })).statusCode).toBe(400);
    const made = await makeEndpoint(alice);
    expect((await alice.request('PATCH', `${BASE}${made.id}/`, { body: { enabled: 'yes' } })).statusCode).toBe(400);
    expect((await alice.request('PATCH', `${BASE}${made.id}/`, { body: { url: '' } })).statusCode).toBe(400);
    for (let i = 1; i < 20; i++) expect((await post(ok)).statusCode).toBe(201);
    const over = await post(ok);
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ key: 'webhook.limit', params: { max: 20 } });
  });
});
