import { GUIDANCE_PROBLEMS, type ReportOutput } from '@emolens/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Client, loggedIn } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { insertProcessedRespondent, videoResearch } from '../../test/report-rows.ts';
import { launchedLink, respondentClient } from '../../test/respondent.ts';
import { insertRespondentSession } from '../../test/respondent-rows.ts';
import { buildReportJob } from '../reports/jobs/build-report.job.ts';

/**
 * Live guidance (issue 31, item 7; decision 045): the respondent's `guidance` events through the respondent API, and
 * the seconds per problem a report's sessions had, through the cabinet API.
 */
const t = appPerFile({}, { queue: true });
let alice: Client;
let bob: Client;
beforeEach(async () => {
  ({ alice } = await loggedIn(t.app, 'alice'));
  ({ bob } = await loggedIn(t.app, 'bob'));
});
const db = () => t.app.ctx.database.db;

describe('guidance events', () => {
  it('are stored when well formed; a bad state, an extra field or a bad time answers 400', async () => {
    const { token } = await launchedLink(t.app, alice);
    const client = respondentClient(t.app);
    await client.start(token);
    const bad = [
      { type: 'guidance', t: 10, state: 'sleepy' },
      { type: 'guidance', t: 10, state: 'too_far', seconds: 5 },
      { type: 'guidance', t: -5, state: 'ok' },
      { type: 'guidance', t: 10 },
      { type: 'guidance', t: 10, state: null },
    ];
    for (const event of bad) {
      const res = await client.request('POST', `/r/sessions/${client.sessionId}/events`, {
        body: { seq: 0, events: [event] },
      });
      expect(res.statusCode, JSON.stringify(event)).toBe(400);
    }
    const good = await client.events(0, [
      { type: 'guidance', t: 10, state: 'ok' },
      { type: 'guidance', t: 20, state: 'too_far' },
      { type: 'guidance', t: 30, state: 'off' },
    ]);
    expect(good.statusCode, good.body).toBe(201);
    expect(await db().selectFrom('session_event_batches').selectAll().execute()).toHaveLength(1);
  });

  it('go to the respondent’s own session only', async () => {
    const { token } = await launchedLink(t.app, alice);
    const mine = respondentClient(t.app);
    await mine.start(token);
    const other = respondentClient(t.app);
    await other.start(token);
    const res = await mine.request('POST', `/r/sessions/${other.sessionId}/events`, {
      body: { seq: 0, events: [{ type: 'guidance', t: 10, state: 'no_face' }] },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(await db().selectFrom('session_event_batches').selectAll().execute()).toHaveLength(0);
  });
});

describe("a report's guidance", () => {
  it('lists the seconds per problem of the sessions the report lists, to those who may see the report', async () => {
    const { researchId, linkId } = await videoResearch(t.app, alice, 'alice', { width: 1000, height: 500, seconds: 4 });
    const sessions: string[] = [];
    for (let i = 0; i < 3; i++) {
      const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
      await insertProcessedRespondent(t.app, { sessionId, researchId }, { engagement: [0.2, 0.4, 0.6, 0.8] });
      sessions.push(sessionId);
    }
    const [guided, quiet] = sessions as [string, string, string];
    await t.app.ctx.deps.guidance.save(guided, {
      guided_seconds: 60,
      problems: { too_dark: 0, no_face: 2.5, face_cut: 0, too_far: 12, too_near: 0, head_turned: 1 },
    });
    // A second processing replaces what the first stored.
    await t.app.ctx.deps.guidance.save(quiet, {
      guided_seconds: 30,
      problems: { too_dark: 9, no_face: 0, face_cut: 0, too_far: 0, too_near: 0, head_turned: 0 },
    });
    await t.app.ctx.deps.guidance.save(quiet, {
      guided_seconds: 40,
      problems: { too_dark: 0, no_face: 0, face_cut: 0, too_far: 0, too_near: 0, head_turned: 0 },
    });
    const created = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, {
      body: { name: 'Guidance' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const reportId = created.json().id as string;
    // Before the build the report lists nobody.
    const before = await alice.request('GET', `/api/cabinet/reports/${reportId}/guidance/`);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().sessions).toEqual([]);
    await t.app.ctx.queue.run(buildReportJob, { report_id: reportId, generation: 1 });
    const report: ReportOutput = (await alice.request('GET', `/api/cabinet/reports/${reportId}/`)).json();
    expect(report.snapshot?.people).toHaveLength(3);

    const res = await alice.request('GET', `/api/cabinet/reports/${reportId}/guidance/`);
    expect(res.statusCode, res.body).toBe(200);
    const bySession = new Map(
      (res.json().sessions as { session_id: string; problems: object }[]).map((s) => [s.session_id, s] as const),
    );
    expect(bySession.size).toBe(2);
    expect(bySession.get(guided)).toEqual({
      session_id: guided,
      guided_seconds: 60,
      problems: { too_dark: 0, no_face: 2.5, face_cut: 0, too_far: 12, too_near: 0, head_turned: 1 },
    });
    expect(bySession.get(quiet)).toMatchObject({ guided_seconds: 40, problems: { too_dark: 0 } });
    expect(Object.keys(bySession.get(quiet)?.problems ?? {}).sort()).toEqual([...GUIDANCE_PROBLEMS].sort());

    const stranger = await bob.request('GET', `/api/cabinet/reports/${reportId}/guidance/`);
    expect([403, 404]).toContain(stranger.statusCode);
    for (const bad of ['nope', '00000000-0000-0000-0000-000000000000']) {
      const r = await alice.request('GET', `/api/cabinet/reports/${bad}/guidance/`);
      expect(r.statusCode, bad).toBeGreaterThanOrEqual(400);
      expect(r.statusCode, bad).toBeLessThan(500);
    }
  });
});
