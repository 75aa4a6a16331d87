import type { VideoProcessStatus } from '@emolens/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Client, createTestApp, loggedIn, markLaunched, TEST_BACKEND, type TestApp } from '../../test/harness.ts';
import { insertRespondentSession, insertVideoProcess } from '../../test/respondent-rows.ts';
import { sessionResult } from '../../test/session-result.ts';
import { type ResearchWork, researchStatus } from './research-status.ts';

const idle: ResearchWork = { processes: 0, running: 0, rerunning: 0, failed: 0 };

describe('the research status (spec section 4)', () => {
  it('is archived with its project, whatever else', () => {
    expect(researchStatus('paused', 'archived', { ...idle, processes: 2, running: 2 })).toBe('archived');
    expect(researchStatus('new', 'archived', idle)).toBe('archived');
  });

  it('stays paused when it was paused', () => {
    expect(researchStatus('paused', 'active', { processes: 3, running: 1, rerunning: 0, failed: 0 })).toBe('paused');
    expect(researchStatus('paused', 'completed', idle)).toBe('paused');
  });

  it('is processing while recordings wait or run, reprocessing when one replaces a result', () => {
    expect(researchStatus('new', 'active', { processes: 3, running: 1, rerunning: 0, failed: 1 })).toBe('processing');
    expect(researchStatus('new', 'completed', { processes: 3, running: 2, rerunning: 1, failed: 0 })).toBe(
      'reprocessing',
    );
    expect(researchStatus('new', 'active', { processes: 2, running: 2, rerunning: 0, failed: 0 })).toBe('processing');
  });

  it('is done with a completed project, active with an active one, error when every recording failed', () => {
    expect(researchStatus('new', 'completed', { processes: 2, running: 0, rerunning: 0, failed: 2 })).toBe('done');
    expect(researchStatus('new', 'active', idle)).toBe('active');
    expect(researchStatus('new', 'active', { processes: 3, running: 0, rerunning: 0, failed: 2 })).toBe('active');
    expect(researchStatus('new', 'active', { processes: 2, running: 0, rerunning: 0, failed: 2 })).toBe('error');
  });

  it("keeps a draft project's research as it was stored", () => {
    expect(researchStatus('new', 'new', idle)).toBe('new');
    expect(researchStatus('draft', 'new', idle)).toBe('draft');
  });
});

describe(`research status and engagement in the cabinet, on ${TEST_BACKEND}`, () => {
  let t: TestApp;
  let alice: Client;
  let projectId: string;
  let researchId: string;
  let linkId: string;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.reset();
    ({ alice } = await loggedIn(t.app, 'alice'));
    projectId = await alice.draftProject();
    await alice.readyToLaunch(projectId);
    linkId = (await alice.request('GET', `/api/cabinet/projects/${projectId}/project-accessor-links/`)).json().items[0]
      .id;
    researchId = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${projectId}`)).json().items[0].id;
  });

  /** The research as the list and as its own page show it: always the same status and engagement. */
  async function shown() {
    const list = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${projectId}`)).json().items[0];
    const detail = (await alice.request('GET', `/api/cabinet/campaigns/${researchId}/`)).json();
    expect(detail.status).toBe(list.status);
    expect(detail.latest_engagement).toBe(list.latest_engagement);
    expect(detail.video_count).toBe(list.video_count);
    return { status: list.status, engagement: list.latest_engagement, videos: list.video_count };
  }

  async function process(status: VideoProcessStatus) {
    const sessionId = await insertRespondentSession(t.app, {
      linkId,
      status: 'completed',
      outcome: 'complete',
      quotaState: 'pending',
    });
    return insertVideoProcess(t.app, { sessionId, researchId, status });
  }
  const finish = (id: string, generation: number, engagement: number, excluded?: 'bad_frames') =>
    t.app.ctx.deps.processing.finish(id, generation, {
      status: 'done',
      result: sessionResult({ engagement, excluded }),
    });
  const setProject = (status: 'active' | 'completed' | 'archived') =>
    t.app.ctx.database.db.updateTable('projects').set({ status }).where('id', '=', projectId).execute();

  it('follows the work of the recordings and averages the usable results', async () => {
    expect(await shown()).toEqual({ status: 'new', engagement: null, videos: 0 });
    await markLaunched(t.app, projectId);
    expect(await shown()).toEqual({ status: 'active', engagement: null, videos: 0 });

    const a = await process('in_process');
    const b = await process('collected');
    expect(await shown()).toMatchObject({ status: 'processing', engagement: null, videos: 2 });

    expect(await finish(a, 0, 0.6)).toBeTruthy();
    expect(await shown()).toMatchObject({ status: 'processing', engagement: 0.6 });
    expect(await finish(b, 0, 0.2)).toBeTruthy();
    expect(await shown()).toEqual({ status: 'active', engagement: 0.4, videos: 2 });

    // An excluded session is left out of the mean.
    const c = await process('in_process');
    expect(await finish(c, 0, 0.99, 'bad_frames')).toBeTruthy();
    expect(await shown()).toEqual({ status: 'active', engagement: 0.4, videos: 3 });

    // Reprocessing: the current results still count while the new ones are made.
    expect((await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reprocess/`)).statusCode).toBe(200);
    expect(await shown()).toEqual({ status: 'reprocessing', engagement: 0.4, videos: 3 });
    expect(await finish(a, 1, 0.8)).toBeTruthy();
    expect(await shown()).toMatchObject({ status: 'reprocessing', engagement: 0.5 });
    expect(await finish(b, 1, 0.2)).toBeTruthy();
    expect(await finish(c, 1, 0.5, 'bad_frames')).toBeTruthy();
    expect(await shown()).toEqual({ status: 'active', engagement: 0.5, videos: 3 });

    await setProject('completed');
    expect(await shown()).toMatchObject({ status: 'done', engagement: 0.5 });
    await t.app.ctx.database.db
      .updateTable('campaigns')
      .set({ status: 'paused' })
      .where('id', '=', researchId)
      .execute();
    expect(await shown()).toMatchObject({ status: 'paused' });
  });

  it('is in error when every recording failed', async () => {
    await markLaunched(t.app, projectId);
    const one = await process('in_process');
    await t.app.ctx.deps.processing.fail(one, 0, 'decode_failed');
    await process('detection_error');
    expect(await shown()).toEqual({ status: 'error', engagement: null, videos: 2 });
    await process('done');
    expect(await shown()).toMatchObject({ status: 'active', videos: 3 });
  });

  it('is archived with its project', async () => {
    await markLaunched(t.app, projectId);
    await process('in_process');
    await setProject('archived');
    // An archived project hides its researches from the lists; the rule itself is the pure function's.
    const list = await alice.request('GET', `/api/cabinet/campaigns/?project_id=${projectId}`);
    expect(list.json().items).toEqual([]);
    const [row] = await t.app.ctx.deps.researches.listByIds([researchId]);
    expect(row).toMatchObject({ project_status: 'archived', running_count: 1, video_count: 1 });
  });
});
