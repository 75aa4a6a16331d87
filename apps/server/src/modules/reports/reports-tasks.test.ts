import type { ReportOutput } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { insertMedia } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { insertEventLog } from '../../test/respondent-rows.ts';
import { buildReportJob } from './jobs/build-report.job.ts';
import { close, rect, type VideoResearch, videoResearchEachTest } from './reports.fixture.ts';

/**
 * Reports through the cabinet API (issue 13) on a website prototype: the tasks' statistics from the event logs, the
 * marks that must be set before a report, and the curves by a task's progress.
 */
const t = appPerFile({}, { queue: true });
let { alice, bob, researchId } = {} as VideoResearch;
const { built, create, respondent } = videoResearchEachTest(t, (r) => ({ alice, bob, researchId } = r));

describe('website-prototype tasks', () => {
  it('results, times, clicks on the screenshot and paths from the event logs; marks; unmarked tasks stop a report', async () => {
    const db = t.app.ctx.database.db;
    const image = await insertMedia(t.app, { researchId, owner: 'alice', kind: 'image', status: 'ready' });
    await db.updateTable('media').set({ width: 1000, height: 2000 }).where('id', '=', image).execute();
    const research = await db
      .selectFrom('campaigns')
      .select('settings')
      .where('id', '=', researchId)
      .executeTakeFirstOrThrow();
    const task = { id: 't1', description: 'Find the price', steps: [], anyIsFinal: false, image };
    const settings = (use: boolean) =>
      JSON.stringify({ ...research.settings, webResourceScenario: [task], useTasksStatsInReport: use });
    await db
      .updateTable('campaigns')
      .set({ content_type: 'site', settings: settings(false) })
      .where('id', '=', researchId)
      .execute();
    const [done, lost] = [await respondent({ engagement: [0.5] }), await respondent({ engagement: [0.4] })];
    await db.updateTable('respondent_sessions').set({ screen_width: 1280, screen_height: 800 }).execute();
    const start = { type: 'research_start', t: 1000, campaign_id: researchId, index: 0 };
    await insertEventLog(t.app, done?.sessionId as string, [
      start,
      { type: 'task_shown', t: 2000, task: 0 },
      { type: 'click', t: 3000, x: 100, y: 400 },
      { type: 'click', t: 4500, x: 640, y: 400, target: 'final' },
      { type: 'task_result', t: 4500, task: 0, result: 'success' },
    ]);
    await insertEventLog(t.app, lost?.sessionId as string, [
      start,
      { type: 'task_shown', t: 2000, task: 0 },
      { type: 'click', t: 3000, x: 700, y: 100 },
      { type: 'task_result', t: 62000, task: 0, result: 'fail' },
    ]);
    const url = `/api/cabinet/campaigns/${researchId}/task-statistics/`;
    const stats = (await alice.request('GET', url)).json();
    expect(stats).toMatchObject({ unmarked: 2, used_in_reports: false });
    expect(stats.tasks[0]).toMatchObject({
      description: 'Find the price',
      shown: 2,
      success: 1,
      fail: 1,
      success_share: 0.5,
      time_to_success: { mean: 2.5, median: 2.5 },
      clicks_to_success: 2,
      misclicks: 1,
    });
    // The 1000 × 2000 screenshot fills the 800 px high screen from x = 440: (640, 400) is its middle; (100, 400) is off it.
    expect(stats.tasks[0].clicks).toEqual([
      { x: 500, y: 1000, hit: true },
      { x: 650, y: 250, hit: false },
    ]);

    // The research uses task statistics in reports: no report until every run is marked.
    await db
      .updateTable('campaigns')
      .set({ settings: settings(true) })
      .where('id', '=', researchId)
      .execute();
    const refused = await create({});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().key).toBe('report.unmarkedTasks');
    const marks = `/api/cabinet/campaigns/${researchId}/task-marks/`;
    const unknown = await alice.request('PUT', marks, {
      body: { marks: [{ session_id: '3f2b6c1e-8a4d-4e7f-9b2a-1c5d6e7f8a9b', task: 0, mark: 'accepted' }] },
    });
    expect(unknown.json().field_keys['marks.0.task'].key).toBe('validation.choice');
    const foreign = await bob.request('PUT', marks, {
      body: { marks: [{ session_id: done?.sessionId, task: 0, mark: 'accepted' }] },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await bob.request('GET', url)).statusCode).toBe(404);
    const marked = await alice.request('PUT', marks, {
      body: {
        marks: [
          { session_id: done?.sessionId, task: 0, mark: 'rejected' },
          { session_id: lost?.sessionId, task: 0, mark: 'accepted' },
        ],
      },
    });
    expect(marked.json()).toMatchObject({ unmarked: 0, tasks: [{ success: 1, fail: 1 }] });
    expect(
      marked
        .json()
        .runs.map((r: { mark: string }) => r.mark)
        .sort(),
    ).toEqual(['accepted', 'rejected']);
    const report = await built();
    expect(report.snapshot?.tasks[0]).toMatchObject({ shown: 2, success: 1, fail: 1, time_to_success: { mean: 60 } });
    // Clicks per area: an area drawn around the screenshot's middle holds the hit, not the misclick.
    const area = { item: 0, name: 'Price', shape: rect(0.4, 0.4, 0.2, 0.2) };
    expect(
      (await alice.request('PUT', `/api/cabinet/reports/${report.id}/areas/`, { body: { areas: [area] } })).statusCode,
    ).toBe(200);
    await t.app.ctx.queue.run(buildReportJob, { report_id: report.id, generation: 2 });
    const withArea: ReportOutput = (await alice.request('GET', `/api/cabinet/reports/${report.id}/`)).json();
    expect(withArea.snapshot?.items[0]?.areas[0]).toMatchObject({ name: 'Price', clicks: 1 });
    // Unmarking one stops the next report again.
    await alice.request('PUT', marks, {
      body: { marks: [{ session_id: done?.sessionId, task: 0, mark: 'not_marked' }] },
    });
    expect((await create({ name: 'Again' })).json().key).toBe('report.unmarkedTasks');
  });
  it('a task’s curves by its progress: each respondent’s seconds before and after each step reached', async () => {
    const db = t.app.ctx.database.db;
    const task = { id: 't1', description: 'Buy the ticket', steps: [], anyIsFinal: true, image: null };
    const research = await db
      .selectFrom('campaigns')
      .select('settings')
      .where('id', '=', researchId)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('campaigns')
      .set({ content_type: 'site', settings: JSON.stringify({ ...research.settings, webResourceScenario: [task] }) })
      .where('id', '=', researchId)
      .execute();
    // One reached a step after 2 s and the second after 3 s; the other reached one step after 1 s.
    await respondent({ engagement: [0.2, 0.4, 0.6, 0.8], steps: [0, 0, 1, 2] });
    await respondent({ engagement: [0.5, 0.3, 0.3, 0.3], steps: [0, 1, 1, 1] });
    const report = await built();
    const s = report.snapshot;
    expect(s?.timeline).toBe('site');
    const e = s?.items[0]?.step_curves?.engagement;
    // Before any step: 0.3 (0.2, 0.4) and 0.5. After one: 0.6 and 0.3. After two: 0.8 alone.
    expect(e?.n).toEqual([2, 2, 1]);
    close(e?.mean[0], 0.4);
    close(e?.mean[1], 0.45);
    close(e?.mean[2], 0.8);
    // t(0.975, 1) = 12.706; the spread of 0.3 and 0.5 is 0.1414: half-width 12.706 · 0.1414 / √2 = 1.2706, so
    // −0.8706 … 1.6706, clamped to engagement's 0..1.
    expect([e?.low[0], e?.high[0]]).toEqual([0, 1]);
    expect(e?.low[2]).toBeNull();
    // The curves export: the time points, then the task's points by progress.
    const csv = await alice.request('GET', `/api/cabinet/reports/${report.id}/export/?kind=curves&format=csv`);
    const lines = csv.body.replaceAll('"', '').trim().split(/\r?\n/);
    expect(lines[0]).toContain('second,steps_reached,engagement_n');
    expect(lines.slice(-3).map((l) => l.split(',').slice(2, 5))).toEqual([
      ['', '0', '2'],
      ['', '1', '2'],
      ['', '2', '1'],
    ]);
  });
});
