import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Client, createTestApp, loggedIn, type TestApp } from '../../test/harness.ts';
import { insertProcessedRespondent, videoResearch } from '../../test/report-rows.ts';
import { launchedLink } from '../../test/respondent.ts';
import { insertRespondentSession, insertVideoProcess } from '../../test/respondent-rows.ts';
import { processRecordingJob } from '../processing/jobs/process-recording.job.ts';
import { buildReportJob } from '../reports/jobs/build-report.job.ts';
import { notify } from './notifications.service.ts';

/**
 * In-cabinet notifications (issue 15, item 6): each user's own, newest first with keyset paging, the unread count,
 * marking read, one notification per event, `notify` never failing its caller, and the events that notify today —
 * a report built or failed, a video process failed for good.
 */
let t: TestApp;
let alice: Client;
let bob: Client;
let aliceId: string;
let bobId: string;

beforeAll(async () => {
  t = await createTestApp();
  // Jobs are run here by the test.
  await t.app.ctx.queue.start({ work: false });
});
afterAll(() => t?.close());
beforeEach(async () => {
  await t.reset();
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
  aliceId = await userId('alice');
  bobId = await userId('bob');
});

async function userId(username: string): Promise<string> {
  const row = await t.app.ctx.database.db
    .selectFrom('users')
    .select('id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow();
  return row.id;
}

const list = (client: Client, query = '') => client.request('GET', `/api/cabinet/notifications/${query}`);
const unread = async (client: Client) =>
  (await client.request('GET', '/api/cabinet/notifications/unread/')).json().unread;
const markRead = (client: Client, body: unknown) =>
  client.request('POST', '/api/cabinet/notifications/read/', { body });
const rowsOf = (user: string) =>
  t.app.ctx.database.db.selectFrom('notifications').selectAll().where('user_id', '=', user).execute();

/** Notifications written with chosen moments (several sharing one, to the microsecond): their ids, in order given. */
async function insertAt(user: string, moments: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, at] of moments.entries()) {
    const row = await t.app.ctx.database.db
      .insertInto('notifications')
      .values({
        user_id: user,
        kind: 'collection_finished',
        params: JSON.stringify({ research: `R${i}` }),
        link: null,
        dedupe_key: null,
        created_at: sql<Date>`${at}::timestamptz`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return ids;
}

describe('the notification list', () => {
  it("shows the user only their own, newest first, with the unread count; the bell's count alone", async () => {
    const deps = t.app.ctx.deps;
    await notify(deps, { userId: aliceId, kind: 'balance_low', params: { balance: 12.5 }, link: '/cabinet/amazon' });
    await notify(deps, {
      userId: aliceId,
      kind: 'report_built',
      params: { report: 'Launch test', research: 'Ad' },
      link: '/cabinet/campaign/x/report/y',
    });
    await notify(deps, { userId: bobId, kind: 'balance_exhausted' });

    const res = await list(alice);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    expect(page.unread).toBe(2);
    expect(page.next_cursor).toBeNull();
    expect(page.items.map((n: { kind: string }) => n.kind)).toEqual(['report_built', 'balance_low']);
    expect(page.items[0]).toMatchObject({
      params: { report: 'Launch test', research: 'Ad' },
      link: '/cabinet/campaign/x/report/y',
      read: false,
    });
    expect(page.items[1].params).toEqual({ balance: 12.5 });
    expect(Date.parse(page.items[0].created_at)).not.toBeNaN();

    const bobs = (await list(bob)).json();
    expect(bobs.items).toHaveLength(1);
    expect(bobs.items[0]).toMatchObject({ kind: 'balance_exhausted', params: {}, link: null });
    expect(await unread(alice)).toBe(2);
    expect(await unread(bob)).toBe(1);
  });

  it('pages with a cursor, notifications sharing a moment included, never one twice', async () => {
    const same = '2026-12-01T10:00:00.123456Z';
    const ids = await insertAt(aliceId, [
      '2026-12-01T09:00:00.000001Z',
      same,
      same,
      same,
      '2026-12-01T11:00:00.5Z',
      '2026-12-01T10:00:00.123457Z',
    ]);
    await insertAt(bobId, ['2026-12-01T10:30:00Z']);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(alice, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((n: { id: string }) => n.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
    // Newest first: 11:00, then 10:00:00.123457, then the three of the same moment (by id, descending), then 09:00.
    const tied = [ids[1], ids[2], ids[3]].sort().reverse();
    expect(seen).toEqual([ids[4], ids[5], ...tied, ids[0]]);
    // The default page holds them all.
    const all = (await list(alice)).json();
    expect(all.items).toHaveLength(6);
    expect(all.next_cursor).toBeNull();
  });

  it("marks read the user's own of the ids given (another user's are ignored), or all", async () => {
    const mine = await insertAt(aliceId, ['2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z', '2026-12-01T11:00:00Z']);
    const [bobs] = await insertAt(bobId, ['2026-12-01T09:00:00Z']);
    const res = await markRead(alice, { ids: [mine[0], bobs] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ unread: 2 });
    expect(await unread(bob)).toBe(1);
    expect((await rowsOf(bobId))[0]?.read_at).toBeNull();
    const page = (await list(alice)).json();
    expect(page.items.map((n: { read: boolean }) => n.read)).toEqual([false, false, true]);
    // Bob cannot touch Alice's either.
    expect((await markRead(bob, { ids: mine })).json()).toEqual({ unread: 1 });
    expect(await unread(alice)).toBe(2);

    expect((await markRead(alice, { all: true })).json()).toEqual({ unread: 0 });
    expect((await list(alice)).json().items.every((n: { read: boolean }) => n.read)).toBe(true);
    expect(await unread(bob)).toBe(1);
    // Marking again changes nothing and keeps the first moment read.
    const before = (await rowsOf(aliceId)).map((r) => r.read_at?.getTime()).sort();
    expect((await markRead(alice, { ids: mine })).json()).toEqual({ unread: 0 });
    expect((await rowsOf(aliceId)).map((r) => r.read_at?.getTime()).sort()).toEqual(before);
  });

  it('refuses bad input with 400, and answers nobody without a session', async () => {
    const bad = [
      '?limit=0',
      '?limit=51',
      '?limit=abc',
      '?limit=1.5',
      '?cursor=abc',
      '?cursor=1_not-a-uuid',
      `?cursor=${'9'.repeat(18)}_00000000-0000-4000-8000-000000000000`,
      '?other=1',
    ];
    for (const query of bad) {
      const res = await list(alice, query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
    }
    // A well-formed cursor of nothing is an empty page.
    const empty = await list(alice, '?cursor=1_00000000-0000-4000-8000-000000000000');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({ items: [], next_cursor: null });

    const bodies = [
      {},
      { ids: [] },
      { ids: ['x'] },
      { ids: 'all' },
      { all: false },
      { all: 'true' },
      { ids: ['00000000-0000-4000-8000-000000000000'], all: true },
      { ids: Array.from({ length: 201 }, () => '00000000-0000-4000-8000-000000000000') },
      null,
      [],
    ];
    for (const body of bodies) {
      const res = await markRead(alice, body);
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
    }
    expect((await markRead(alice, { ids: ['00000000-0000-4000-8000-000000000000'] })).statusCode).toBe(200);

    const stranger = await t.app.inject({ method: 'GET', url: '/api/cabinet/notifications/unread/' });
    expect(stranger.statusCode).toBe(401);
    const noCsrf = await alice.request('POST', '/api/cabinet/notifications/read/', {
      body: { all: true },
      csrf: false,
    });
    expect(noCsrf.statusCode).toBe(403);
  });
});

describe('notify', () => {
  it('adds an event once per user however often it is reported', async () => {
    const deps = t.app.ctx.deps;
    const event = { kind: 'collection_finished' as const, params: { research: 'Ad' }, dedupeKey: 'collection:c1' };
    expect(await notify(deps, { userId: aliceId, ...event })).toBe(true);
    expect(await notify(deps, { userId: aliceId, ...event, params: { research: 'Changed' } })).toBe(false);
    expect(await notify(deps, { userId: bobId, ...event })).toBe(true);
    // Without a key nothing is deduplicated.
    expect(await notify(deps, { userId: aliceId, kind: 'balance_low' })).toBe(true);
    expect(await notify(deps, { userId: aliceId, kind: 'balance_low' })).toBe(true);
    const rows = await rowsOf(aliceId);
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.dedupe_key === 'collection:c1')?.params).toEqual({ research: 'Ad' });
  });

  it('never throws into its caller: a failure is logged and answers false', async () => {
    const deps = t.app.ctx.deps;
    const unknownUser = '00000000-0000-4000-8000-000000000000';
    await expect(notify(deps, { userId: unknownUser, kind: 'balance_low' })).resolves.toBe(false);
    await expect(notify(deps, { userId: 'not-a-uuid', kind: 'balance_low' })).resolves.toBe(false);
    // A kind the table does not know (a caller out of step with the schema).
    await expect(notify(deps, { userId: aliceId, kind: 'nonsense' as 'balance_low' })).resolves.toBe(false);
    const logged = t.logs.filter((line) => line.includes('notification not added'));
    expect(logged).toHaveLength(3);
    expect(logged[0]).toContain(unknownUser);
    expect(await rowsOf(aliceId)).toHaveLength(0);
  });
});

describe('events that notify', () => {
  it('a report built tells its maker, once per build; a rebuild tells again', async () => {
    const { researchId, linkId } = await videoResearch(t.app, alice, 'alice', { width: 1000, height: 500, seconds: 4 });
    for (const engagement of [
      [0.2, 0.4, 0.6, 0.8],
      [0.4, 0.4, 0.4, 0.4],
    ]) {
      const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
      await insertProcessedRespondent(t.app, { sessionId, researchId }, { engagement });
    }
    const created = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, {
      body: { name: 'Launch test' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const reportId = created.json().id;
    await t.app.ctx.queue.run(buildReportJob, { report_id: reportId, generation: 1 });
    // The job run again (a redelivery) adds nothing; the notification is report.built's subscriber's.
    await t.app.ctx.queue.run(buildReportJob, { report_id: reportId, generation: 1 });
    await t.app.ctx.queue.runQueued();

    const research = (await alice.request('GET', `/api/cabinet/campaigns/${researchId}/`)).json();
    let page = (await list(alice)).json();
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      kind: 'report_built',
      params: { report: 'Launch test', research: research.title },
      link: `/cabinet/campaign/${researchId}/report/${reportId}`,
      read: false,
    });
    expect((await list(bob)).json().items).toHaveLength(0);

    const rebuilt = await alice.request('POST', `/api/cabinet/reports/${reportId}/rebuild/`);
    expect(rebuilt.statusCode, rebuilt.body).toBe(200);
    await t.app.ctx.queue.run(buildReportJob, { report_id: reportId, generation: 2 });
    await t.app.ctx.queue.runQueued();
    page = (await list(alice)).json();
    expect(page.items.map((n: { kind: string }) => n.kind)).toEqual(['report_built', 'report_built']);

    expect(page.unread).toBe(2);
  });

  it('a failed build tells its maker it failed', async () => {
    const { researchId, linkId } = await videoResearch(t.app, alice, 'alice', { width: 1000, height: 500, seconds: 4 });
    const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
    // Smiling already in the calibration: the happy filter leaves nobody, and the build fails.
    await insertProcessedRespondent(t.app, { sessionId, researchId }, { engagement: [0.2, 0.4], restingHappy: 0.9 });
    const created = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, {
      body: { name: 'Nobody', filters: { happy: { min: 0, max: 0.13 } } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const reportId = created.json().id;
    await t.app.ctx.queue.run(buildReportJob, { report_id: reportId, generation: 1 });
    await t.app.ctx.queue.runQueued();
    const research = (await alice.request('GET', `/api/cabinet/campaigns/${researchId}/`)).json();
    const page = (await list(alice)).json();
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      kind: 'report_failed',
      params: { report: 'Nobody', research: research.title },
      link: `/cabinet/campaign/${researchId}/report/${reportId}`,
    });
  });

  it('a report of a maker since deleted tells the project’s owner', async () => {
    const { researchId, linkId } = await videoResearch(t.app, alice, 'alice', { width: 1000, height: 500, seconds: 4 });
    const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
    await insertProcessedRespondent(t.app, { sessionId, researchId }, { engagement: [0.2, 0.4, 0.6, 0.8] });
    const reportId = (
      await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, { body: { name: 'Orphan' } })
    ).json().id;
    await t.app.ctx.database.db.updateTable('reports').set({ created_by: null }).where('id', '=', reportId).execute();
    await t.app.ctx.queue.run(buildReportJob, { report_id: reportId, generation: 1 });
    await t.app.ctx.queue.runQueued();
    expect((await list(alice)).json().items.map((n: { kind: string }) => n.kind)).toEqual(['report_built']);
  });

  it('a video process failed for good tells the project’s owner once; a failure to be retried does not', async () => {
    const link = await launchedLink(t.app, alice);
    const researchId = link.researchIds[0] as string;
    const sessionId = await insertRespondentSession(t.app, { linkId: link.linkId, status: 'completed' });
    // No recording: a failure no retry can cure.
    const processId = await insertVideoProcess(t.app, { sessionId, researchId, status: 'collected' });
    const repo = t.app.ctx.deps.processing;

    // A transient failure with retries left: thrown for the queue to retry, nobody told.
    const spy = vi.spyOn(repo, 'jobInput').mockRejectedValueOnce(new Error('database away'));
    await expect(
      t.app.ctx.queue.run(
        processRecordingJob,
        { process_id: processId, generation: 0 },
        { retryCount: 0, retryLimit: 3 },
      ),
    ).rejects.toThrow('database away');
    spy.mockRestore();
    expect(await rowsOf(aliceId)).toHaveLength(0);

    await t.app.ctx.queue.run(processRecordingJob, { process_id: processId, generation: 0 });
    // The failure is published; the notification is its subscriber's.
    expect(await t.app.ctx.queue.runQueued()).toBe(1);
    const process = await t.app.ctx.database.db
      .selectFrom('video_processes')
      .select(['status', 'error_code'])
      .where('id', '=', processId)
      .executeTakeFirstOrThrow();
    expect(process).toEqual({ status: 'error', error_code: 'recording_missing' });
    const research = (await alice.request('GET', `/api/cabinet/campaigns/${researchId}/`)).json();
    const page = (await list(alice)).json();
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      kind: 'process_failed',
      params: { research: research.title, respondent: sessionId.slice(0, 8) },
      link: `/cabinet/campaign/${researchId}/statistic`,
    });

    // Restarted and failed again: still one.
    const restarted = await repo.restart(processId);
    expect(restarted?.generation).toBe(1);
    await t.app.ctx.queue.run(processRecordingJob, { process_id: processId, generation: 1 });
    await t.app.ctx.queue.runQueued();
    expect(await rowsOf(aliceId)).toHaveLength(1);
    expect(await rowsOf(bobId)).toHaveLength(0);
  });
});
