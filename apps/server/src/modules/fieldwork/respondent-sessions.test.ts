import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Client, TEST_BACKEND } from '../../test/harness.ts';
import { completeRespondent, launchedLink, respondentClient, webmChunks } from '../../test/respondent.ts';
import { insertRecording, insertVideoProcess } from '../../test/respondent-rows.ts';
import { fieldworkPerFile, type LaunchedProject } from './fieldwork.fixture.ts';

/**
 * Respondent sessions as the cabinet sees them: a respondent driven through the respondent API shown with its
 * counts, session, recording, video process and code; a project's and a research's sessions listed with their
 * segments, filtered and paged; a segment streamed whole to its owner only; a research's video processes listed and
 * counted by status.
 */
// The current test's launched project (see fieldworkPerFile).
let { alice, bob, projectId, scenarioId, linkId, researchId, session } = {} as LaunchedProject;
const t = fieldworkPerFile((project) => ({ alice, bob, projectId, scenarioId, linkId, researchId, session } = project));

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
