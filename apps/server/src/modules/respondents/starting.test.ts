import { MTURK_PREVIEW_ASSIGNMENT } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { type Client, insertMedia, markLaunched } from '../../test/harness.ts';
import {
  completeRespondent,
  journeyEvents,
  launchedLink,
  respondentClient,
  TINY_WEBM,
  webmChunks,
} from '../../test/respondent.ts';
import { respondentApiPerFile } from './respondents.fixture.ts';

/**
 * Starting a respondent session through the respondent API, and the quotas it counts against (decision 010): the
 * consent and the panel's parameters checked, one completion per participant, a full quota ending a session at once,
 * a draft's preview and a respondent who leaves; the quota under 50 respondents at once; the researches a session is
 * given (signed content URLs, the orientation, the face check, a random order per respondent); a scenario's quota
 * over its links, a released slot and a completion sent twice.
 */
let alice: Client;
const { t, db, sessionRow } = respondentApiPerFile((client) => (alice = client));

describe('starting', () => {
  it('needs the current consent and, on Cint, the panel consent', async () => {
    const { token } = await launchedLink(t.app, alice);
    const client = respondentClient(t.app);
    const outdated = await client.start(token, { consent: { policy_version: '2000-01-01' } });
    expect(outdated.statusCode).toBe(409);
    expect(outdated.json().key).toBe('respondent.consentOutdated');
    const noPanel = await client.start(token, { consent: { panel_consent: false } });
    expect(noPanel.statusCode).toBe(400);
    expect(noPanel.json().key).toBe('respondent.panelConsentRequired');
    expect(await db().selectFrom('respondent_sessions').selectAll().execute()).toHaveLength(0);
  });

  it('refuses the MTurk preview and return addresses that are not MTurk', async () => {
    const { token, projectId } = await launchedLink(t.app, alice);
    await db().updateTable('projects').set({ platform: 'amazon' }).where('id', '=', projectId).execute();
    const client = respondentClient(t.app);
    const preview = await client.start(token, { panel: { assignmentId: MTURK_PREVIEW_ASSIGNMENT } });
    expect(preview.statusCode).toBe(409);
    const evil = await client.start(token, {
      panel: { assignmentId: 'A1', workerId: 'W1', turkSubmitTo: 'https://evil.example.com' },
    });
    expect(evil.statusCode).toBe(400);
    expect(evil.json().key).toBe('respondent.turkSubmitInvalid');
    expect(await db().selectFrom('respondent_sessions').selectAll().execute()).toHaveLength(0);
    const { end } = await completeRespondent(t.app, token, {
      panel: { assignmentId: 'A1', workerId: 'W1', turkSubmitTo: 'https://workersandbox.mturk.com' },
    });
    expect(end.mturk).toEqual({ action: 'https://workersandbox.mturk.com/mturk/externalSubmit', assignment_id: 'A1' });
    expect(
      (await sessionRow((await db().selectFrom('respondent_sessions').select('id').executeTakeFirstOrThrow()).id))
        .participant_id,
    ).toBe('W1');
  });

  it('lets the same participant complete a link once', async () => {
    const { token } = await launchedLink(t.app, alice);
    await completeRespondent(t.app, token, { panel: { RID: 'same' } });
    const again = await respondentClient(t.app).start(token, { panel: { RID: 'same' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('respondent.alreadyCompleted');
    // Two sessions of one participant racing to complete: one completes.
    const first = respondentClient(t.app);
    const second = respondentClient(t.app);
    const { token: other } = await launchedLink(t.app, alice);
    await first.start(other, { panel: { RID: 'racer' } });
    await second.start(other, { panel: { RID: 'racer' } });
    for (const c of [first, second]) {
      await c.segment();
      await c.chunk(0, 0, TINY_WEBM);
      await c.events(0, journeyEvents(c.session?.researches.map((r) => r.campaign_id) ?? []));
    }
    const answers = await Promise.all([first, second].map((c) => c.complete([{ segment: 0, chunks: 1 }], 1)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });

  it('ends at once when the quota is full, before any recording', async () => {
    const { token, linkId } = await launchedLink(t.app, alice);
    await db().updateTable('project_accessor_links').set({ quota_size: 1 }).where('id', '=', linkId).execute();
    await completeRespondent(t.app, token);
    expect((await respondentClient(t.app).linkInfo(token)).json().state).toBe('quota_full');
    const late = respondentClient(t.app);
    const res = await late.start(token);
    expect(res.statusCode).toBe(201);
    expect(res.json().session).toMatchObject({ status: 'quota_full', end: { outcome: 'quota_full' } });
    expect((await late.segment()).statusCode).toBe(409);
  });

  it('runs a draft project as a preview: nothing recorded, no quota, no code', async () => {
    const { token } = await launchedLink(t.app, alice, { launch: false });
    const client = respondentClient(t.app);
    const res = await client.start(token);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().session.preview).toBe(true);
    const segment = await client.segment();
    expect(segment.statusCode).toBe(409);
    expect(segment.json().key).toBe('respondent.previewNotSaved');
    const done = await client.complete([{ segment: 0, chunks: 1 }], 1);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ outcome: 'complete', code: null, token: null, redirect_url: null, mturk: null });
    expect(await db().selectFrom('video_processes').selectAll().execute()).toHaveLength(0);
    expect((await sessionRow(client.sessionId)).quota_state).toBeNull();
  });

  it('a respondent who leaves ends dropped out, and a reload shows it', async () => {
    const { token } = await launchedLink(t.app, alice);
    const client = respondentClient(t.app);
    await client.start(token);
    const left = await client.leave('camera_lost');
    expect(left.statusCode).toBe(200);
    expect(left.json().status).toBe('dropped_out');
    expect((await client.state()).json().status).toBe('dropped_out');
    expect((await sessionRow(client.sessionId)).leave_reason).toBe('camera_lost');
    expect((await client.segment()).json().key).toBe('respondent.sessionEnded');
  });
});

describe('the quota under load', () => {
  it('50 respondents completing at once on a quota of 10: exactly 10 complete, 40 find it full', async () => {
    const { token, linkId } = await launchedLink(t.app, alice);
    await db().updateTable('project_accessor_links').set({ quota_size: 10 }).where('id', '=', linkId).execute();
    const clients = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const c = respondentClient(t.app);
        expect((await c.start(token)).statusCode).toBe(201);
        await c.segment();
        expect((await c.chunk(0, 0, TINY_WEBM)).statusCode).toBe(201);
        await c.events(0, journeyEvents(c.session?.researches.map((r) => r.campaign_id) ?? []));
        return c;
      }),
    );
    const answers = await Promise.all(clients.map((c) => c.complete([{ segment: 0, chunks: 1 }], 1)));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const outcomes = answers.map((a) => a.json().outcome);
    expect(outcomes.filter((o) => o === 'complete')).toHaveLength(10);
    expect(outcomes.filter((o) => o === 'quota_full')).toHaveLength(40);
    const rows = await db().selectFrom('respondent_sessions').select(['status']).execute();
    expect(rows.filter((r) => r.status === 'completed')).toHaveLength(10);
    expect(rows.filter((r) => r.status === 'quota_full')).toHaveLength(40);
    expect(await db().selectFrom('video_processes').selectAll().execute()).toHaveLength(10);
  }, 60_000);
});

describe('the researches a respondent is shown', () => {
  /** A launched project with a video and a pictures research (files in the database only) in one scenario. */
  async function contentProject(options: { random: boolean }) {
    const projectId = await alice.draftProject();
    const added = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
      body: {
        project_id: projectId,
        campaigns_data: [
          { title: 'Spot', content_type: 'video', settings: { researchOrientation: 'horizontal' } },
          { title: 'Pack shots', content_type: 'pictures' },
          { title: 'Talk', content_type: 'contentless' },
        ],
      },
    });
    expect(added.statusCode, added.body).toBe(201);
    const [video, pictures, talk] = added.json().campaigns.map((c: { id: string }) => c.id) as [string, string, string];
    const videoId = await insertMedia(t.app, {
      researchId: video,
      owner: 'alice',
      kind: 'video',
      status: 'ready',
      duration_seconds: 30,
    });
    const pictureId = await insertMedia(t.app, {
      researchId: pictures,
      owner: 'alice',
      kind: 'image',
      status: 'ready',
    });
    // A file still being checked is not shown.
    await insertMedia(t.app, { researchId: pictures, owner: 'alice', kind: 'image', status: 'processing' });
    const scenario = await alice.request('POST', `/api/cabinet/projects/${projectId}/scenarios/`, {
      body: { campaign_ids: [video, pictures, talk], is_random_order: options.random },
    });
    expect(scenario.statusCode, scenario.body).toBe(201);
    const link = await alice.request('POST', `/api/cabinet/scenarios/${scenario.json().id}/project-accessor-links/`, {
      body: {},
    });
    await markLaunched(t.app, projectId);
    return {
      token: link.json().token as string,
      linkId: link.json().id as string,
      video,
      pictures,
      talk,
      videoId,
      pictureId,
    };
  }

  it('come with signed content URLs, the orientation asked for and the face check of link and scenario', async () => {
    const p = await contentProject({ random: false });
    const info = (await respondentClient(t.app).linkInfo(p.token)).json();
    expect(info).toMatchObject({ orientation: 'horizontal', use_face_checker: true });
    const client = respondentClient(t.app);
    await client.start(p.token);
    const [video, pictures, talk] = client.session?.researches ?? [];
    expect(video).toMatchObject({ campaign_id: p.video, content_type: 'video', orientation: 'horizontal' });
    expect(video?.video?.url).toMatch(new RegExp(`^/r/media/${p.videoId}\\?s=${client.sessionId}&e=\\d+&sig=`));
    expect(video?.video?.duration_seconds).toBe(30);
    expect(video?.duration_seconds).toBe(30);
    expect(Object.keys(pictures?.images ?? {})).toEqual([p.pictureId]);
    expect(pictures?.picture_gallery.items.map((i) => i.image)).toEqual([p.pictureId]);
    expect(talk).toMatchObject({ content_type: 'contentless', video: null, duration_seconds: 60, images: {} });
    // A reload gives the same URLs (the browser's cache holds).
    expect((await client.state()).json().researches).toEqual(client.session?.researches);
    // Either switch off: no face check.
    await db()
      .updateTable('project_accessor_links')
      .set({ is_use_face_checker: false })
      .where('id', '=', p.linkId)
      .execute();
    expect((await respondentClient(t.app).linkInfo(p.token)).json().use_face_checker).toBe(false);
  });

  it('come in a random order per respondent when the scenario says so, and the log must follow it', async () => {
    const p = await contentProject({ random: true });
    const orders = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const client = respondentClient(t.app);
      await client.start(p.token);
      const order = client.session?.researches.map((r) => r.campaign_id) ?? [];
      expect([...order].sort()).toEqual([p.video, p.pictures, p.talk].sort());
      orders.add(order.join());
      const row = await sessionRow(client.sessionId);
      expect(row.research_order).toEqual(order);
    }
    // Six orders of three: twelve respondents seeing one order only has a chance of 6^-11.
    expect(orders.size).toBeGreaterThan(1);
  });
});

describe('quotas', () => {
  it("counts the scenario's quota over its links, and gives a released slot back", async () => {
    const { token, scenarioId } = await launchedLink(t.app, alice);
    const second = await alice.request('POST', `/api/cabinet/scenarios/${scenarioId}/project-accessor-links/`, {
      body: {},
    });
    const otherToken: string = second.json().token;
    await db().updateTable('scenarios').set({ quota: 2 }).where('id', '=', scenarioId).execute();
    await completeRespondent(t.app, token);
    await completeRespondent(t.app, otherToken);
    expect((await respondentClient(t.app).linkInfo(token)).json().state).toBe('quota_full');
    // A started session finds the quota full at its completion.
    const late = respondentClient(t.app);
    await late.start(token);
    expect(late.session?.status).toBe('quota_full');
    // Processing found one completion unusable: its slot is free again.
    await db()
      .updateTable('respondent_sessions')
      .set({ quota_state: 'released' })
      .where('status', '=', 'completed')
      .where('link_id', '!=', second.json().id)
      .execute();
    expect((await respondentClient(t.app).linkInfo(otherToken)).json().state).toBe('open');
    const { end } = await completeRespondent(t.app, otherToken);
    expect(end.outcome).toBe('complete');
  });

  it('a completion sent twice at once counts once', async () => {
    const { token } = await launchedLink(t.app, alice);
    const client = respondentClient(t.app);
    await client.start(token);
    await client.segment();
    await client.chunk(0, 0, TINY_WEBM);
    await client.events(0, journeyEvents(client.session?.researches.map((r) => r.campaign_id) ?? []));
    const answers = await Promise.all(Array.from({ length: 4 }, () => client.complete([{ segment: 0, chunks: 1 }], 1)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(await db().selectFrom('video_processes').selectAll().execute()).toHaveLength(1);
    // Retries of what was already stored stay harmless after the end; new data is refused.
    expect((await client.chunk(0, 0, TINY_WEBM)).statusCode).toBe(200);
    const journey = journeyEvents(client.session?.researches.map((r) => r.campaign_id) ?? []);
    expect((await client.events(0, journey)).statusCode).toBe(200);
    expect((await client.events(1, [{ type: 'step', t: 100, step: 'end' }])).json().key).toBe(
      'respondent.sessionEnded',
    );
    expect((await client.chunk(0, 1, webmChunks(2)[1] as Buffer)).json().key).toBe('respondent.sessionEnded');
    expect((await client.leave()).json().status).toBe('completed');
  });
});
