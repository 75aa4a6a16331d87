import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RespondentEvent } from '@emolens/contracts';
import { type CalibrationPhantom, calibrationPhantoms } from '@emolens/phantom/validation/calibration-phantoms.ts';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Client, createTestAppWithFiles, loggedIn, TEST_BACKEND, type TestApp } from '../../test/harness.ts';
import { launchedLink, type RespondentClient, respondentClient, TINY_WEBM } from '../../test/respondent.ts';
import { checkCalibrationJob } from './jobs/calibration-check-jobs.ts';
import { checkRules } from './rules.ts';

let t: TestApp & { dir: string };
let alice: Client;
let phantoms: { following: CalibrationPhantom; still: CalibrationPhantom };

beforeAll(async () => {
  t = await createTestAppWithFiles('calibration-check-test', { engineWorkers: 1 });
  // Jobs are sent, not worked: the test runs them.
  await t.app.ctx.queue.start({ work: false });
  phantoms = await calibrationPhantoms(resolve(import.meta.dirname, '../../../../../.tmp/phantoms-calibration'));
}, 120_000);
afterAll(() => t?.close());
beforeEach(async () => {
  await t.reset();
  ({ alice } = await loggedIn(t.app, 'alice'));
});

const db = () => t.app.ctx.database.db;

/**
 * A launched link whose research is a picture test with these settings (the harness launches an interview; the type
 * is set in the database past the launch rules: the check reads only the type and the settings).
 */
async function pictureLink(settings: Record<string, unknown> = {}) {
  const link = await launchedLink(t.app, alice);
  await db()
    .updateTable('campaigns')
    .set({ content_type: 'pictures', settings: JSON.stringify(settings) })
    .where('id', 'in', link.researchIds)
    .execute();
  return link;
}

/** The session's clock set back, so that a recording's event times are not in its future. */
async function clockBack(client: RespondentClient, minutes: number) {
  await db()
    .updateTable('respondent_sessions')
    .set({ started_at: new Date(Date.now() - minutes * 60_000) })
    .where('id', '=', client.sessionId)
    .execute();
}

/**
 * One recording segment of a phantom, sent in four chunks, and the page's events through its validation (shifted onto
 * the segment's place on the session clock) as one batch: what the page has sent when it asks for a check.
 */
async function sendCalibration(client: RespondentClient, phantom: CalibrationPhantom, seq: number, video?: Buffer) {
  const segment = (await client.segment()).json() as { segment: number; offset_ms: number };
  await clockBack(client, 10 * (seq + 1));
  const bytes = video ?? readFileSync(phantom.video);
  const size = Math.ceil(bytes.length / 4);
  for (let i = 0; i < 4; i++) {
    const res = await client.chunk(segment.segment, i, bytes.subarray(i * size, (i + 1) * size));
    expect(res.statusCode, res.body).toBe(201);
  }
  const events = phantom.plan.events
    .filter((e) => e.t <= phantom.plan.validation.end && e.type !== 'segment_start')
    .map((e) => ({ ...e, t: e.t + segment.offset_ms }) as RespondentEvent);
  const posted = await client.events(seq, [
    { type: 'segment_start', t: segment.offset_ms, segment: segment.segment },
    ...events,
  ]);
  expect(posted.statusCode, posted.body).toBe(201);
  return { segments: [{ segment: segment.segment, chunks: 4 }], event_batches: seq + 1 };
}

const ask = (client: RespondentClient, attempt: number, sent: object) =>
  client.request('POST', `/r/sessions/${client.sessionId}/calibration-checks`, { body: { attempt, ...sent } });
const poll = (client: RespondentClient, attempt: number) =>
  client.request('GET', `/r/sessions/${client.sessionId}/calibration-checks/${attempt}`);

async function queuedChecks() {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pgboss.job where name = ${checkCalibrationJob.name}
  `.execute(db());
  return rows[0]?.n ?? 0;
}

async function sessionRow(client: RespondentClient) {
  return db()
    .selectFrom('respondent_sessions')
    .select(['status', 'outcome', 'quota_state', 'calibration_check', 'step'])
    .where('id', '=', client.sessionId)
    .executeTakeFirstOrThrow();
}

describe(`the calibration check before the content, ${TEST_BACKEND}`, () => {
  it('passes a respondent whose eyes follow the dots; the check is asked once per attempt, by its own session', {
    timeout: 180_000,
  }, async () => {
    const { token } = await pictureLink();
    const client = respondentClient(t.app);
    expect((await client.start(token)).statusCode).toBe(201);
    expect(client.session?.calibration_check).toBe(true);
    const sent = await sendCalibration(client, phantoms.following, 0);

    const asked = await ask(client, 1, sent);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({ attempt: 1, status: 'queued', threshold_percent: 10, next: null });
    // Asked again (an answer lost on the way): the same check, no second job.
    expect((await ask(client, 1, sent)).json()).toMatchObject({ attempt: 1, status: 'queued' });
    expect(await queuedChecks()).toBe(1);
    // Another respondent's secret does not reach it; a second attempt before a failure is refused.
    const other = respondentClient(t.app);
    await other.start(token);
    const stranger = await other.request('GET', `/r/sessions/${client.sessionId}/calibration-checks/1`);
    expect(stranger.statusCode).toBe(404);
    expect((await ask(client, 2, sent)).statusCode).toBe(409);

    await t.app.ctx.queue.run(checkCalibrationJob, { session_id: client.sessionId, attempt: 1 });
    const state = (await poll(client, 1)).json();
    expect(state, JSON.stringify(state)).toMatchObject({ status: 'passed', progress: 100, next: 'content', end: null });
    expect(state.accuracy_percent).toBeLessThanOrEqual(10);
    expect(await sessionRow(client)).toMatchObject({ status: 'started', calibration_check: 'passed' });
  });

  it('repeats a failed calibration once, then ends the session as "calibration failed", counted, no slot taken', {
    timeout: 240_000,
  }, async () => {
    const { token, projectId } = await pictureLink({ validationThresholdPercent: 12 });
    const client = respondentClient(t.app);
    expect((await client.start(token)).statusCode).toBe(201);
    const first = await sendCalibration(client, phantoms.still, 0);
    expect((await ask(client, 1, first)).statusCode).toBe(200);
    await t.app.ctx.queue.run(checkCalibrationJob, { session_id: client.sessionId, attempt: 1 });
    const failed = (await poll(client, 1)).json();
    expect(failed, JSON.stringify(failed)).toMatchObject({ status: 'failed', next: 'repeat', end: null });
    expect(await sessionRow(client)).toMatchObject({ status: 'started', calibration_check: null });

    // The calibration again (a second segment here), and its check.
    const second = await sendCalibration(client, phantoms.still, 1);
    const asked = await ask(client, 2, { segments: [first.segments[0], ...second.segments], event_batches: 2 });
    expect(asked.statusCode, asked.body).toBe(200);
    await t.app.ctx.queue.run(checkCalibrationJob, { session_id: client.sessionId, attempt: 2 });
    const ended = (await poll(client, 2)).json();
    expect(ended, JSON.stringify(ended)).toMatchObject({ status: 'failed', next: 'end' });
    expect(ended.end).toMatchObject({ outcome: 'screen_out' });
    expect(ended.end.code).toEqual(expect.any(String));
    expect(ended.threshold_percent).toBe(12);
    expect(await sessionRow(client)).toMatchObject({
      status: 'calibration_failed',
      outcome: 'screen_out',
      quota_state: null,
      calibration_check: 'failed',
      step: 'end',
    });
    // The session's state says the same end; nothing more is recorded.
    expect((await client.state()).json()).toMatchObject({
      status: 'calibration_failed',
      end: { outcome: 'screen_out' },
    });
    expect((await client.segment()).statusCode).toBe(409);
    // Fieldwork counts it on its own, not as a complete.
    const fieldwork = (await alice.request('GET', `/api/cabinet/projects/${projectId}/fieldwork/`)).json();
    expect(fieldwork.total).toMatchObject({ completes: 0, pending: 0, calibration_failed: 1, in_progress: 0 });
    const listed = (await alice.request('GET', `/api/cabinet/projects/${projectId}/respondent-sessions/`)).json();
    expect(listed.items[0]).toMatchObject({ status: 'calibration_failed', calibration_check: 'failed' });
  });

  it('flags a session whose second calibration fails when the research says continue_flag: it goes on', {
    timeout: 240_000,
  }, async () => {
    const { token } = await pictureLink({ validationFailure: 'continue_flag' });
    const client = respondentClient(t.app);
    expect((await client.start(token)).statusCode).toBe(201);
    const first = await sendCalibration(client, phantoms.still, 0);
    await ask(client, 1, first);
    await t.app.ctx.queue.run(checkCalibrationJob, { session_id: client.sessionId, attempt: 1 });
    expect((await poll(client, 1)).json()).toMatchObject({ status: 'failed', next: 'repeat' });
    const second = await sendCalibration(client, phantoms.still, 1);
    await ask(client, 2, { segments: [...first.segments, ...second.segments], event_batches: 2 });
    await t.app.ctx.queue.run(checkCalibrationJob, { session_id: client.sessionId, attempt: 2 });
    const state = (await poll(client, 2)).json();
    expect(state, JSON.stringify(state)).toMatchObject({ status: 'failed', next: 'continue_flagged', end: null });
    expect(await sessionRow(client)).toMatchObject({ status: 'started', calibration_check: 'flagged' });
    // The session goes on: it still records.
    expect((await client.segment()).statusCode).toBe(201);
  });

  it('lets the respondent go on when the check cannot run, and records that it did not', async () => {
    const { token } = await pictureLink();
    const client = respondentClient(t.app);
    expect((await client.start(token)).statusCode).toBe(201);
    // A recording far shorter than its events: the engine refuses it.
    const sent = await sendCalibration(client, phantoms.following, 0, TINY_WEBM);
    expect((await ask(client, 1, sent)).statusCode).toBe(200);
    await t.app.ctx.queue.run(checkCalibrationJob, { session_id: client.sessionId, attempt: 1 });
    const state = (await poll(client, 1)).json();
    expect(state, JSON.stringify(state)).toMatchObject({ status: 'error', next: 'content', accuracy_percent: null });
    expect(await sessionRow(client)).toMatchObject({ status: 'started', calibration_check: 'not_checked' });
  }, 120_000);

  it('checks only gaze researches that keep it on: an interview or a video goes on unchecked', async () => {
    const { token } = await launchedLink(t.app, alice);
    const client = respondentClient(t.app);
    expect((await client.start(token)).statusCode).toBe(201);
    expect(client.session?.calibration_check).toBe(false);
    await client.segment();
    const refused = await ask(client, 1, { segments: [{ segment: 0, chunks: 1 }], event_batches: 1 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().key).toBe('respondent.calibrationCheckOff');
  });
});

describe('the rules of a session with several researches', () => {
  const research = (content_type: string, settings: object = {}) => ({ content_type, settings }) as never;
  it('takes the strictest threshold and ends when any research ends', () => {
    expect(checkRules([research('video'), research('contentless')])).toMatchObject({ enabled: false });
    expect(checkRules([research('pictures', { validationBeforeContent: false })])).toMatchObject({ enabled: false });
    expect(
      checkRules([
        research('pictures', { validationThresholdPercent: 15, validationFailure: 'continue_flag' }),
        research('site', { validationThresholdPercent: 8, validationFailure: 'continue_flag' }),
        research('video', { validationThresholdPercent: 3 }),
      ]),
    ).toEqual({ enabled: true, thresholdPercent: 8, onFailure: 'continue_flag' });
    expect(checkRules([research('shelf', { validationFailure: 'continue_flag' }), research('pictures')])).toEqual({
      enabled: true,
      thresholdPercent: 10,
      onFailure: 'end',
    });
  });
});
