import { randomUUID } from 'node:crypto';
import {
  abandonedBefore,
  effectiveSessionStatus,
  RESPONDENT_LIMITS,
  RESPONDENT_SESSION_STATUSES,
  type RespondentSessionStatus,
} from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { Client, TEST_BACKEND } from '../../test/harness.ts';
import { insertVideoProcess } from '../../test/respondent-rows.ts';
import { fieldworkPerFile, type LaunchedProject } from './fieldwork.fixture.ts';

/**
 * Respondent sessions counted: the quota statistics of a project per link, scenario and total (every outcome,
 * drop-outs by step, the quotas a scenario takes from its links), in the cabinet and on the public page; one set of
 * session states in the lists, their filters and the counts alike, the SQL agreeing with the TypeScript rule (issue
 * 28, item 15); and the counts of sessions and videos shown elsewhere in the cabinet.
 */
// The current test's launched project (see fieldworkPerFile).
let { alice, bob, projectId, scenarioId, linkId, researchId, session } = {} as LaunchedProject;
const t = fieldworkPerFile((project) => ({ alice, bob, projectId, scenarioId, linkId, researchId, session } = project));

/** A second link of the scenario with a quota of 5, and a scenario quota of 10. */
async function secondLink(): Promise<string> {
  await t.app.ctx.database.db.updateTable('scenarios').set({ quota: 10 }).where('id', '=', scenarioId).execute();
  const res = await alice.request('POST', `/api/cabinet/scenarios/${scenarioId}/project-accessor-links/`, {
    body: { quota_size: 5 },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

describe(`quota statistics on ${TEST_BACKEND}`, () => {
  it('counts every outcome exactly, per link, scenario and total, with drop-outs by step', async () => {
    const other = await secondLink();
    await session({ status: 'completed', quotaState: 'counted', outcome: 'complete' });
    await session({ status: 'completed', quotaState: 'counted', outcome: 'complete' });
    await session({ status: 'completed', quotaState: 'pending', outcome: 'complete' });
    await session({ status: 'completed', quotaState: 'released', outcome: 'complete' });
    await session({ status: 'screened_out', outcome: 'screen_out' });
    await session({ status: 'quota_full', outcome: 'quota_full', linkId: other });
    await session({ status: 'dropped_out', step: 'calibration' });
    // Quiet past the drop-out time: a drop-out at the step it was at; just under: still in progress.
    await session({ status: 'started', step: 'content', quietMinutes: RESPONDENT_LIMITS.dropOutAfterMinutes + 1 });
    await session({ status: 'started', step: 'camera', quietMinutes: RESPONDENT_LIMITS.dropOutAfterMinutes - 1 });
    await session({ status: 'started', step: 'consent', linkId: other });
    // A draft's preview is never counted.
    await session({ status: 'completed', quotaState: 'counted', preview: true });

    const res = await alice.request('GET', `/api/cabinet/projects/${projectId}/fieldwork/`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.project).toEqual({ id: projectId, title: 'Project', status: 'active' });
    expect(body.total).toEqual({
      quota: 10,
      completes: 2,
      pending: 1,
      screened_out: 1,
      quota_full: 1,
      dropped_out: 2,
      calibration_failed: 0,
      device_too_slow: 0,
      in_progress: 2,
    });
    expect(body.dropped_at).toEqual({ calibration: 1, content: 1 });
    expect(body.scenarios).toHaveLength(1);
    expect(body.scenarios[0].id).toBe(scenarioId);
    expect(body.scenarios[0].counts).toEqual(body.total);
    const byLink = Object.fromEntries(body.scenarios[0].links.map((l: { id: string }) => [l.id, l]));
    expect(byLink[linkId].counts).toEqual({
      quota: null,
      completes: 2,
      pending: 1,
      screened_out: 1,
      quota_full: 0,
      dropped_out: 2,
      calibration_failed: 0,
      device_too_slow: 0,
      in_progress: 1,
    });
    expect(byLink[other].counts).toEqual({
      quota: 5,
      completes: 0,
      pending: 0,
      screened_out: 0,
      quota_full: 1,
      dropped_out: 0,
      calibration_failed: 0,
      device_too_slow: 0,
      in_progress: 1,
    });

    // The public page shows the same numbers, without a login.
    const pub = await new Client(t.app).request('GET', `/r/quota/${projectId}`);
    expect(pub.statusCode).toBe(200);
    expect(pub.json()).toEqual(body);
    // No personal data in it: no participant ids, no session ids.
    expect(pub.body).not.toMatch(/participant|session/);
  });

  it("takes a scenario's quota from its links when it has none of its own", async () => {
    await t.app.ctx.database.db
      .updateTable('project_accessor_links')
      .set({ quota_size: 3 })
      .where('id', '=', linkId)
      .execute();
    const body = async () => (await alice.request('GET', `/api/cabinet/projects/${projectId}/fieldwork/`)).json();
    expect((await body()).scenarios[0].counts.quota).toBe(3);
    expect((await body()).total.quota).toBe(3);
    await secondLink(); // a second link of 5, and the scenario's own quota of 10
    expect((await body()).total.quota).toBe(10);
    await t.app.ctx.database.db.updateTable('scenarios').set({ quota: null }).where('id', '=', scenarioId).execute();
    expect((await body()).total.quota).toBe(8);
    await t.app.ctx.database.db
      .updateTable('project_accessor_links')
      .set({ quota_size: null })
      .where('id', '=', linkId)
      .execute();
    expect((await body()).total.quota).toBeNull();
  });

  it('answers project.notFound for an unknown or malformed id on the public page', async () => {
    const anon = new Client(t.app);
    for (const id of [randomUUID(), 'not-a-uuid', '%00']) {
      const res = await anon.request('GET', `/r/quota/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().message).toBe('Project not found');
    }
  });

  it("hides another customer's project, and needs a login", async () => {
    const res = await bob.request('GET', `/api/cabinet/projects/${projectId}/fieldwork/`);
    expect(res.statusCode).toBe(404);
    expect(res.json().key).toBe('project.notFound');
    expect((await new Client(t.app).request('GET', `/api/cabinet/projects/${projectId}/fieldwork/`)).statusCode).toBe(
      401,
    );
  });
});

describe(`one set of session states on ${TEST_BACKEND} (issue 28, item 15)`, () => {
  const minutes = RESPONDENT_LIMITS.dropOutAfterMinutes;

  it('a tab closed mid-calibration is a drop-out in the list, its filter and the counts alike', async () => {
    const closed = await session({ status: 'started', step: 'calibration', quietMinutes: minutes + 10 });
    const walking = await session({ status: 'started', step: 'content', quietMinutes: minutes - 5 });
    const list = async (query = '') =>
      (await alice.request('GET', `/api/cabinet/projects/${projectId}/respondent-sessions/${query}`)).json();
    const byId = new Map((await list()).items.map((s: { id: string; status: string }) => [s.id, s]));
    expect(byId.get(closed)).toMatchObject({ status: 'dropped_out', step: 'calibration' });
    expect(byId.get(walking)).toMatchObject({ status: 'started', step: 'content' });
    const dropped = await list('?status=dropped_out');
    expect(dropped.items.map((s: { id: string }) => s.id)).toEqual([closed]);
    expect(dropped.total).toBe(1);
    const running = await list('?status=started');
    expect(running.items.map((s: { id: string }) => s.id)).toEqual([walking]);
    const counts = (await alice.request('GET', `/api/cabinet/projects/${projectId}/fieldwork/`)).json();
    expect(counts.total).toMatchObject({ dropped_out: 1, in_progress: 1 });
    expect(counts.dropped_at).toEqual({ calibration: 1 });
    // The research's own list says the same.
    const ofResearch = await alice.request(
      'GET',
      `/api/cabinet/campaigns/${researchId}/respondent-sessions/?status=dropped_out`,
    );
    expect(ofResearch.json().items.map((s: { id: string }) => s.id)).toEqual([closed]);
  });

  it('the SQL status and the TypeScript rule agree on every row, at the cut-off too', async () => {
    const now = new Date();
    const cutoff = abandonedBefore(now).getTime();
    const db = t.app.ctx.database.db;
    const rows: { id: string; status: RespondentSessionStatus; last_seen_at: Date }[] = [];
    for (const status of RESPONDENT_SESSION_STATUSES) {
      for (const offset of [-60_000, -1, 0, 1, 60_000]) {
        const id = await session({ status });
        const last_seen_at = new Date(cutoff + offset);
        await db.updateTable('respondent_sessions').set({ last_seen_at }).where('id', '=', id).execute();
        rows.push({ id, status, last_seen_at });
      }
    }
    const page = await t.app.ctx.deps.fieldwork.listSessions({ projectId }, { now, limit: 100, offset: 0 });
    const fromSql = new Map(page.items.map((s) => [s.id, s.status]));
    for (const row of rows) {
      expect(fromSql.get(row.id), `${row.status} at ${row.last_seen_at.getTime() - cutoff} ms`).toBe(
        effectiveSessionStatus(row, now),
      );
    }
    // The rule itself: only a started session silent since before the cut-off is abandoned.
    const started = rows.filter((r) => r.status === 'started').map((r) => effectiveSessionStatus(r, now));
    expect(started).toEqual(['dropped_out', 'dropped_out', 'started', 'started', 'started']);
  });

  it('counts a respondent the full quota turned away under "Quota full", once the quota is full only', async () => {
    await t.app.ctx.database.db
      .updateTable('project_accessor_links')
      .set({ quota_size: 1 })
      .where('id', '=', linkId)
      .execute();
    const { token } = await t.app.ctx.database.db
      .selectFrom('project_accessor_links')
      .select('token')
      .where('id', '=', linkId)
      .executeTakeFirstOrThrow();
    const anon = new Client(t.app);
    const turnAway = () => anon.request('POST', `/r/links/${token}/turned-away`);
    // Open: nothing is counted.
    expect((await turnAway()).json()).toEqual({ recorded: false });
    await session({ status: 'completed', quotaState: 'counted', outcome: 'complete' });
    expect((await anon.request('GET', `/r/links/${token}`)).json().state).toBe('quota_full');
    for (let i = 0; i < 2; i++) expect((await turnAway()).json()).toEqual({ recorded: true });
    const counts = (await alice.request('GET', `/api/cabinet/projects/${projectId}/fieldwork/`)).json();
    expect(counts.total).toMatchObject({ completes: 1, quota_full: 2 });
    expect(counts.scenarios[0].counts.quota_full).toBe(2);
    expect(counts.scenarios[0].links[0].counts.quota_full).toBe(2);
    expect((await anon.request('GET', `/r/quota/${projectId}`)).json().total).toEqual(counts.total);
    // An unknown link is not found; nothing else is counted.
    expect((await anon.request('POST', '/r/links/nope/turned-away')).statusCode).toBe(404);
  });
});

describe(`counts shown elsewhere in the cabinet on ${TEST_BACKEND}`, () => {
  it("fills a project's sessions, a quota link's sessions and a research's video count", async () => {
    const one = await session({ status: 'completed', quotaState: 'pending' });
    await session({ status: 'started' });
    await session({ status: 'completed', preview: true });
    await insertVideoProcess(t.app, { sessionId: one, researchId, status: 'collected' });

    expect((await alice.request('GET', `/api/cabinet/projects/${projectId}/`)).json().counts.sessions).toBe(2);
    const links = await alice.request('GET', `/api/cabinet/projects/${projectId}/project-accessor-links/`);
    expect(links.json().items[0].sessions_count).toBe(2);
    expect((await alice.request('GET', `/api/cabinet/campaigns/${researchId}/`)).json().video_count).toBe(1);
    const list = await alice.request('GET', `/api/cabinet/campaigns/?project_id=${projectId}`);
    expect(list.json().items[0].video_count).toBe(1);
  });
});
