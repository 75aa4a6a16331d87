import { batchEstimateOutput, type Research, sessionsPerInterview } from '@emolens/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Client, insertMedia, loggedIn, TEST_BACKEND } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';

const ESTIMATE = '/api/entity_session/batch-estimate-count/';

const t = appPerFile();
let alice: Client;
let bob: Client;

beforeEach(async () => {
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
});

async function newResearch(
  projectId: string,
  content_type: string,
  extra: Record<string, unknown> = {},
): Promise<Research> {
  const res = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
    body: {
      project_id: projectId,
      from_wizard: true,
      campaigns_data: [{ title: `A ${content_type}`, content_type, ...extra }],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().campaigns[0];
}

/** A stored file as the upload and probe jobs leave it (a video's duration null: still being probed). */
const media = (research: Research, kind: 'video' | 'image', duration_seconds: number | null = null) =>
  insertMedia(t.app, {
    researchId: research.id,
    owner: 'alice',
    kind,
    status: kind === 'video' && duration_seconds === null ? 'processing' : 'ready',
    duration_seconds,
  });

async function scenario(projectId: string, researches: Research[], quota: number | null = null): Promise<string> {
  const res = await alice.request('POST', `/api/cabinet/projects/${projectId}/scenarios/`, {
    body: { campaign_ids: researches.map((c) => c.id), quota },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function estimate(items: unknown[], client = alice) {
  const res = await client.request('POST', ESTIMATE, { body: { items } });
  return { status: res.statusCode, body: res.json() };
}

describe(`session count estimate on ${TEST_BACKEND}`, () => {
  it('counts calibration plus the content, in started 5-minute sessions, times the respondents', async () => {
    const id = await alice.draftProject('new');
    const ad = await newResearch(id, 'video');
    await media(ad, 'video', 280);
    const withVideo = await scenario(id, [ad], 100);

    const res = await estimate([{ type: 'scenario', id: withVideo }]);
    expect(res.status).toBe(200);
    // 34 s of calibration + 280 s of video = 314 s: two sessions per respondent.
    expect(batchEstimateOutput.parse(res.body)).toEqual({
      items: [
        {
          type: 'scenario',
          id: withVideo,
          respondents: 100,
          interview_seconds: 314,
          sessions_per_respondent: 2,
          sessions: 200,
          unknown_durations: [],
        },
      ],
      total_sessions: 200,
    });

    // The short calibration of the old flow keeps the same video within one session.
    const old = await alice.draftProject('old');
    const oldAd = await newResearch(old, 'video');
    await media(oldAd, 'video', 280);
    const oldScenario = await scenario(old, [oldAd], 100);
    const oldRes = await estimate([{ type: 'scenario', id: oldScenario, respondents: 40 }]);
    expect(oldRes.body.items[0]).toMatchObject({ interview_seconds: 292, sessions_per_respondent: 1, sessions: 40 });
  });

  it('adds pictures, shelves, site tasks and contentless researches of a scenario; quota links use their quota', async () => {
    const id = await alice.draftProject('new');
    const pictures = await newResearch(id, 'pictures');
    // Two pictures of 10 s each (the gallery's default).
    await media(pictures, 'image');
    await media(pictures, 'image');
    const site = await newResearch(id, 'site');
    await t.database.db
      .updateTable('campaigns')
      .set({
        settings: JSON.stringify({
          taskTimeLimitSeconds: 60,
          webResourceScenario: [
            { id: 'a', description: 'Find', image: 'x', final_point: { x: 0, y: 0 }, timeout: 120, is_timeout: true },
            { id: 'b', description: 'Buy', image: 'x', final_point: { x: 0, y: 0 }, timeout: 500, is_timeout: false },
          ],
        }),
      })
      .where('id', '=', site.id)
      .execute();
    const shelf = await newResearch(id, 'shelf');
    await t.database.db
      .updateTable('campaigns')
      .set({ shelf_content_scenario: JSON.stringify([{ id: 'd', name: 'Dairy', image: 'x', duration_seconds: 45 }]) })
      .where('id', '=', shelf.id)
      .execute();
    const contentless = await newResearch(id, 'contentless');
    const all = await scenario(id, [pictures, site, shelf, contentless], 10);

    const link = await alice.request('POST', `/api/cabinet/scenarios/${all}/project-accessor-links/`, {
      body: { quota_size: 7 },
    });
    expect(link.statusCode, link.body).toBe(201);
    const linkId = link.json().id;

    const res = await estimate([
      { type: 'scenario', id: all },
      { type: 'project_accessor_link', id: linkId },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // 34 + pictures 20 + site 120 + 60 (no limit: the research's default) + shelf 45 + contentless 60
    // (its default recording length) = 339 s: two 5-minute sessions a respondent.
    expect(res.body.items.map((i: { interview_seconds: number }) => i.interview_seconds)).toEqual([339, 339]);
    expect(res.body.items.map((i: { sessions: number }) => i.sessions)).toEqual([20, 14]);
    expect(res.body.total_sessions).toBe(34);
  });

  it('names the researches whose length is not known yet, and leaves sessions empty without a quota', async () => {
    const id = await alice.draftProject('new');
    const probing = await newResearch(id, 'video');
    await media(probing, 'video');
    const empty = await newResearch(id, 'video');
    const s = await scenario(id, [probing, empty]);
    const res = await estimate([{ type: 'scenario', id: s }]);
    expect(res.body.items[0]).toMatchObject({
      respondents: null,
      sessions: null,
      interview_seconds: 34,
      unknown_durations: [
        { id: probing.id, title: probing.title },
        { id: empty.id, title: empty.title },
      ],
    });
    expect(res.body.total_sessions).toBe(0);
  });

  it("answers 404 for another customer's scenario or link and for unknown ids; validates the body", async () => {
    const id = await alice.draftProject('new');
    const s = await scenario(id, []);
    expect((await estimate([{ type: 'scenario', id: s }], bob)).status).toBe(404);
    expect((await estimate([{ type: 'project_accessor_link', id: s }])).status).toBe(404);
    expect((await estimate([{ type: 'scenario', id: 'nope' }])).status).toBe(404);
    expect((await estimate([])).status).toBe(400);
    const negative = await estimate([{ type: 'scenario', id: s, respondents: -1 }]);
    expect(negative.status).toBe(400);
    expect(negative.body.fields).toEqual({ 'items.0.respondents': 'Must be 0 or more' });
    const noCsrf = await alice.request('POST', ESTIMATE, {
      body: { items: [{ type: 'scenario', id: s }] },
      csrf: false,
    });
    expect(noCsrf.statusCode).toBe(403);
  });

  it('rounds every started five minutes up, and one interview is at least one session', () => {
    expect([0, 1, 300, 301, 600, 601].map(sessionsPerInterview)).toEqual([1, 1, 1, 2, 2, 3]);
  });
});
