import { randomBytes, randomUUID } from 'node:crypto';
import {
  abandonedBefore,
  CHECK_TOKEN_LIMIT,
  type CompletionClaims,
  effectiveSessionStatus,
  RESPONDENT_LIMITS,
  RESPONDENT_SESSION_STATUSES,
  type RespondentSessionStatus,
} from '@emolens/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { Client, loggedIn, markLaunched, TEST_BACKEND } from '../../test/harness.ts';
import { appWithFilesPerFile } from '../../test/per-file.ts';
import { completeRespondent, launchedLink, respondentClient, webmChunks } from '../../test/respondent.ts';
import { insertRecording, insertRespondentSession, insertVideoProcess } from '../../test/respondent-rows.ts';
import { formatShortCode, newShortCode, signCompletionCode } from '../respondents/completion-code.ts';
import { splitCodes } from './fieldwork.service.ts';

/** The app, its stored files in `t.dir`. */
const t = appWithFilesPerFile('fieldwork');
let alice: Client;
let bob: Client;
let projectId: string;
let scenarioId: string;
let linkId: string;
let researchId: string;

beforeEach(async () => {
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
  projectId = await alice.draftProject();
  scenarioId = await alice.readyToLaunch(projectId);
  const links = await alice.request('GET', `/api/cabinet/projects/${projectId}/project-accessor-links/`);
  linkId = links.json().items[0].id;
  researchId = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${projectId}`)).json().items[0].id;
  await markLaunched(t.app, projectId);
});

const session = (row: Omit<Parameters<typeof insertRespondentSession>[1], 'linkId'> & { linkId?: string }) =>
  insertRespondentSession(t.app, { linkId, ...row });

/** A second link of the scenario with a quota of 5, and a scenario quota of 10. */
async function secondLink(): Promise<string> {
  await t.app.ctx.database.db.updateTable('scenarios').set({ quota: 10 }).where('id', '=', scenarioId).execute();
  const res = await alice.request('POST', `/api/cabinet/scenarios/${scenarioId}/project-accessor-links/`, {
    body: { quota_size: 5 },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

describe(`the real respondent flow, seen from the cabinet, on ${TEST_BACKEND}`, () => {
  it('shows a respondent driven through /r: counts, session, recording, video process and code', async () => {
    const link = await launchedLink(t.app, alice);
    const chunks = webmChunks(3);
    const { end, client } = await completeRespondent(t.app, link.token, { panel: { RID: 'rid-42' }, chunks: 3 });
    const sid = client.sessionId;
    // A second respondent still on the way.
    const walking = respondentClient(t.app);
    expect((await walking.start(link.token, { panel: { RID: 'rid-43' } })).statusCode).toBe(201);

    const stats = (await alice.request('GET', `/api/cabinet/projects/${link.projectId}/fieldwork/`)).json();
    // No quota on the scenario or its one link: no limit.
    expect(stats.total).toMatchObject({ quota: null, completes: 0, pending: 1, in_progress: 1, dropped_out: 0 });
    expect((await new Client(t.app).request('GET', `/r/quota/${link.projectId}`)).json().total).toEqual(stats.total);

    const sessions = await alice.request(
      'GET',
      `/api/cabinet/projects/${link.projectId}/respondent-sessions/?status=completed`,
    );
    const [item] = sessions.json().items;
    expect(item).toMatchObject({ id: sid, status: 'completed', quota_state: 'pending', preview: false });
    const bytes = Buffer.concat(chunks);
    expect(item.segments).toEqual([
      { segment: 0, chunks: 3, bytes: bytes.length, url: `/api/cabinet/respondent-sessions/${sid}/recordings/0/` },
    ]);
    const video = await alice.request('GET', item.segments[0].url);
    expect(video.statusCode).toBe(200);
    expect(video.headers['content-length']).toBe(String(bytes.length));
    expect(video.rawPayload.equals(bytes)).toBe(true);
    expect((await bob.request('GET', item.segments[0].url)).statusCode).toBe(404);
    // The research's own list finds both sessions by the researches they were given.
    const ofResearch = await alice.request('GET', `/api/cabinet/campaigns/${link.researchIds[0]}/respondent-sessions/`);
    expect(ofResearch.json().total).toBe(2);

    const processes = await alice.request(
      'GET',
      `/api/videoprocessor/campaigns-processes-list/?campaign=${link.researchIds[0]}`,
    );
    expect(processes.json().items).toEqual([
      expect.objectContaining({ session_id: sid, campaign_id: link.researchIds[0], status: 'collected' }),
    ]);

    // No redirect set on the link: the respondent is given the short code to copy, the signed token beside it;
    // the checker takes both alike.
    expect(end.outcome).toBe('complete');
    expect(end.code).toMatch(/^[2-9A-HJKMNP-Z]{7}-[2-9A-HJKMNP-Z]{7}$/);
    expect(end.token?.split('.')).toHaveLength(3);
    const checked = await alice.request('POST', '/api/cabinet/check-token/', {
      body: { codes: `${end.code}\n${end.token}` },
    });
    const genuine = {
      valid: true,
      project: { id: link.projectId },
      participant_id: 'rid-42',
      session_status: 'completed',
      quota_state: 'pending',
      outcome: 'complete',
    };
    expect(checked.json().items).toMatchObject([
      { code: end.code, ...genuine },
      { code: end.token, ...genuine },
    ]);
  });
});

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

describe(`respondent sessions and recordings on ${TEST_BACKEND}`, () => {
  it('lists sessions with their segments, filtered by status, by project and by research', async () => {
    const done = await session({ status: 'completed', quotaState: 'pending', participantId: 'p-1' });
    await session({ status: 'screened_out' });
    await insertRecording(t.app, done, 0, [Buffer.from('abc'), Buffer.from('defgh')]);
    await insertRecording(t.app, done, 1, []);

    const all = await alice.request('GET', `/api/cabinet/projects/${projectId}/respondent-sessions/`);
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({ total: 2, page: 1, page_size: 20 });
    const completed = await alice.request(
      'GET',
      `/api/cabinet/projects/${projectId}/respondent-sessions/?status=completed`,
    );
    expect(completed.json().total).toBe(1);
    const [item] = completed.json().items;
    expect(item).toMatchObject({
      id: done,
      link_id: linkId,
      scenario_id: scenarioId,
      participant_id: 'p-1',
      platform: 'cint',
      status: 'completed',
      step: 'end',
      quota_state: 'pending',
      preview: false,
    });
    expect(item.segments).toEqual([
      { segment: 0, chunks: 2, bytes: 8, url: `/api/cabinet/respondent-sessions/${done}/recordings/0/` },
      { segment: 1, chunks: 0, bytes: 0, url: `/api/cabinet/respondent-sessions/${done}/recordings/1/` },
    ]);

    const byResearch = await alice.request('GET', `/api/cabinet/campaigns/${researchId}/respondent-sessions/`);
    expect(byResearch.statusCode).toBe(200);
    expect(byResearch.json().total).toBe(2);
    const paged = await alice.request(
      'GET',
      `/api/cabinet/projects/${projectId}/respondent-sessions/?page=2&page_size=1`,
    );
    expect(paged.json().items).toHaveLength(1);

    for (const url of [
      `/api/cabinet/projects/${projectId}/respondent-sessions/`,
      `/api/cabinet/campaigns/${researchId}/respondent-sessions/`,
    ]) {
      expect((await bob.request('GET', url)).statusCode, url).toBe(404);
    }
  });

  it('streams a segment as its chunks concatenated in order, to the owner only', async () => {
    const id = await session({ status: 'completed', quotaState: 'counted' });
    const chunks = [randomBytes(70_000), randomBytes(3), randomBytes(130_000)];
    await insertRecording(t.app, id, 0, chunks);
    const url = `/api/cabinet/respondent-sessions/${id}/recordings/0/`;
    const res = await alice.request('GET', url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/webm');
    expect(res.headers['content-length']).toBe(String(200_003));
    expect(res.rawPayload.equals(Buffer.concat(chunks))).toBe(true);

    expect((await bob.request('GET', url)).statusCode).toBe(404);
    expect((await bob.request('GET', url)).json().key).toBe('fieldwork.sessionNotFound');
    expect((await new Client(t.app).request('GET', url)).statusCode).toBe(401);
    const missing = await alice.request('GET', `/api/cabinet/respondent-sessions/${id}/recordings/3/`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().key).toBe('fieldwork.recordingNotFound');
    expect((await alice.request('GET', `/api/cabinet/respondent-sessions/${id}/recordings/x/`)).statusCode).toBe(400);
  });
});

describe(`video processes on ${TEST_BACKEND}`, () => {
  it('lists the processes of a research and counts them by status', async () => {
    const one = await session({ status: 'completed', quotaState: 'pending', participantId: 'worker-7' });
    const two = await session({ status: 'completed', quotaState: 'counted' });
    await insertVideoProcess(t.app, { sessionId: one, researchId, status: 'collected' });
    await insertVideoProcess(t.app, { sessionId: two, researchId, status: 'done', progress: 1, attempts: 1 });

    const list = await alice.request('GET', `/api/videoprocessor/campaigns-processes-list/?campaign=${researchId}`);
    expect(list.statusCode).toBe(200);
    const items = list.json().items;
    expect(items).toHaveLength(2);
    const byRespondent = Object.fromEntries(items.map((p: { respondent: string }) => [p.respondent, p]));
    expect(byRespondent['worker-7']).toMatchObject({ session_id: one, status: 'collected', progress: 0, attempts: 0 });
    // No participant id: the session names the respondent.
    expect(byRespondent[two]).toMatchObject({ session_id: two, status: 'done', progress: 1, attempts: 1 });

    const stats = await alice.request('POST', '/api/cabinet/campaigns/videoprocesses-statistic/', {
      body: { campaigns: [researchId] },
    });
    expect(stats.statusCode).toBe(200);
    const [row] = stats.json().items;
    expect(row.campaign_id).toBe(researchId);
    expect(row.total).toBe(2);
    expect(row.by_status).toMatchObject({ collected: 1, done: 1, error: 0, in_process: 0 });

    expect(
      (await bob.request('GET', `/api/videoprocessor/campaigns-processes-list/?campaign=${researchId}`)).statusCode,
    ).toBe(404);
    const hidden = await bob.request('POST', '/api/cabinet/campaigns/videoprocesses-statistic/', {
      body: { campaigns: [researchId] },
    });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().key).toBe('campaign.notFound');
    expect((await alice.request('GET', '/api/videoprocessor/campaigns-processes-list/?campaign=nope')).statusCode).toBe(
      404,
    );
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

describe(`completion codes on ${TEST_BACKEND}`, () => {
  const claimsOf = (sid: string, par: string | null = 'p-9'): CompletionClaims => ({
    sid,
    pid: projectId,
    cids: [researchId],
    par,
    outcome: 'complete',
  });
  const check = (client: Client, codes: string) =>
    client.request('POST', '/api/cabinet/check-token/', { body: { codes } });
  /** The code with one character of its payload or signature changed. */
  const alter = (code: string, part: 1 | 2) => {
    const parts = code.split('.');
    const text = parts[part] ?? '';
    const i = Math.floor(text.length / 2);
    parts[part] = text.slice(0, i) + (text[i] === 'A' ? 'B' : 'A') + text.slice(i + 1);
    return parts.join('.');
  };

  /** A completed, counted session of participant p-9. */
  const completedByP9 = () =>
    session({ status: 'completed', quotaState: 'counted', outcome: 'complete', participantId: 'p-9' });
  /** What a check tells of a genuine code of that session. */
  const genuineOfP9 = () => ({
    valid: true,
    reason: null,
    project: { id: projectId, title: 'Project' },
    researches: [{ id: researchId, title: 'Interview' }],
    participant_id: 'p-9',
    outcome: 'complete',
    session_status: 'completed',
    quota_state: 'counted',
  });

  it('reports a genuine code with its project, researches and the session now', async () => {
    const sid = await completedByP9();
    const code = await signCompletionCode(t.app.ctx.secret, claimsOf(sid));
    const res = await check(alice, `${code}\n`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      truncated: false,
      items: [{ code, ...genuineOfP9(), completed_at: expect.any(String) }],
    });
  });

  it('never takes a forged, altered or foreign-secret code, and tells malformed text apart', async () => {
    const sid = await session({ status: 'completed', quotaState: 'counted', outcome: 'complete' });
    const code = await signCompletionCode(t.app.ctx.secret, claimsOf(sid));
    const otherSecret = await signCompletionCode('another-installation-secret', claimsOf(sid));
    // A payload rewritten to another outcome, with the original signature.
    const [head, , sig] = code.split('.');
    const rewritten = Buffer.from(JSON.stringify({ ...claimsOf(sid), outcome: 'screen_out' })).toString('base64url');
    const swapped = `${head}.${rewritten}.${sig}`;
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${rewritten}.`;
    const formula = '=SUM(1+2)*cmd|A1';
    const res = await check(
      alice,
      [code, alter(code, 1), alter(code, 2), otherSecret, swapped, unsigned, 'hello', formula].join('\n'),
    );
    expect(res.statusCode).toBe(200);
    const items = res.json().items as { code: string; valid: boolean; reason: string | null }[];
    expect(items.map((i) => [i.valid, i.reason])).toEqual([
      [true, null],
      [false, 'forged'],
      [false, 'forged'],
      [false, 'forged'],
      [false, 'forged'],
      [false, 'malformed'],
      [false, 'malformed'],
      [false, 'malformed'],
    ]);
    // Text is only echoed back (as JSON); the web app's CSV export quotes it.
    expect(items[7]?.code).toBe(formula);
  });

  it("shows another customer's code and a deleted session as session_missing, with no details", async () => {
    const sid = await session({ status: 'completed', quotaState: 'counted', outcome: 'complete' });
    const code = await signCompletionCode(t.app.ctx.secret, claimsOf(sid));
    const gone = await signCompletionCode(t.app.ctx.secret, claimsOf(randomUUID()));
    const res = await check(bob, `${code}, ${gone}`);
    expect(res.statusCode).toBe(200);
    for (const item of res.json().items) {
      expect(item).toMatchObject({
        valid: false,
        reason: 'session_missing',
        project: null,
        researches: [],
        participant_id: null,
        session_status: null,
      });
    }
  });

  it('takes a short code in any case, with or without its hyphen, and only of an ended saved session', async () => {
    const sid = await completedByP9();
    const running = await session({ status: 'started' });
    const preview = await session({ status: 'completed', outcome: 'complete', preview: true });
    const give = async (id: string) =>
      formatShortCode((await t.app.ctx.deps.sessionEnds.assignCompletionCode(id, newShortCode())) ?? '');
    const code = await give(sid);
    // Given once: a second assignment keeps the first code.
    expect(await t.app.ctx.deps.sessionEnds.assignCompletionCode(sid, newShortCode())).toBe(code.replace('-', ''));
    const typed = code.replace('-', '').toLowerCase();
    const unknown = formatShortCode(newShortCode());
    const res = await check(alice, [code, typed, await give(running), await give(preview), unknown].join('\n'));
    expect(res.statusCode).toBe(200);
    const items = res.json().items;
    const genuine = genuineOfP9();
    expect(items[0]).toMatchObject({ code, ...genuine });
    expect(items[1]).toMatchObject({ code: typed, ...genuine });
    for (const item of items.slice(2)) expect(item).toMatchObject({ valid: false, reason: 'session_missing' });
    // Another customer learns nothing from a genuine short code.
    expect((await check(bob, code)).json().items[0]).toMatchObject({
      valid: false,
      reason: 'session_missing',
      project: null,
      participant_id: null,
    });
  });

  it('splits a pasted list by lines and commas, once each, at most the limit', async () => {
    expect(splitCodes(' a.b.c ,\r\nd.e.f\n\n a.b.c,')).toEqual(['a.b.c', 'd.e.f']);
    const many = Array.from({ length: CHECK_TOKEN_LIMIT + 3 }, (_, i) => `x${i}.y.z`).join('\n');
    const res = await check(alice, many);
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toHaveLength(CHECK_TOKEN_LIMIT);
    expect(res.json().truncated).toBe(true);
    expect((await check(alice, '')).json()).toEqual({ items: [], truncated: false });
    expect(
      (await new Client(t.app).request('POST', '/api/cabinet/check-token/', { body: { codes: 'a' } })).statusCode,
    ).toBe(401);
  });
});
