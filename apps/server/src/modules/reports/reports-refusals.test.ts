import { describe, expect, it } from 'vitest';
import { appPerFile } from '../../test/per-file.ts';
import { insertRespondentSession } from '../../test/respondent-rows.ts';
import { buildReportJob } from './jobs/build-report.job.ts';
import { type VideoResearch, videoResearchEachTest } from './reports.fixture.ts';

/**
 * Reports through the cabinet API (issue 13): every refusal of the spec (a name, ranges, dates, nobody to report on,
 * a build already running, a failed or cancelled build, another customer's report).
 */
const t = appPerFile({}, { queue: true });
let { alice, bob, researchId, linkId } = {} as VideoResearch;
const { built, create, threeRespondents } = videoResearchEachTest(t, (r) => ({ alice, bob, researchId, linkId } = r));

describe('refusals', () => {
  it('a name over 30 characters or with symbols, with the spec’s messages', async () => {
    await threeRespondents();
    const long = await create({ name: 'A'.repeat(31) });
    expect(long.statusCode).toBe(400);
    expect(long.json().field_keys.name.key).toBe('report.nameLength');
    const symbols = await create({ name: 'Q3 report!' });
    expect(symbols.json().field_keys.name.key).toBe('report.nameLetters');
    expect((await create({ name: 'Отчёт 2 волна' })).statusCode).toBe(201);
  });

  it('ranges outside their bounds', async () => {
    const res = await create({
      filters: { accuracy_max_px: 5000, happy: { min: 0, max: 2 } },
      fixations: { velocityThreshold: 400 },
    });
    expect(res.statusCode).toBe(400);
    const keys = res.json().field_keys;
    expect(keys['filters.accuracy_max_px']).toEqual({ key: 'validation.between', params: { first: 1, second: 2000 } });
    expect(keys['filters.happy.max'].key).toBe('validation.between');
    expect(keys['fixations.velocityThreshold']).toEqual({
      key: 'validation.between',
      params: { first: 2, second: 300 },
    });
  });

  it("'incorrect timing': a date range that ends before it starts", async () => {
    await threeRespondents();
    const res = await create({ filters: { date_from: '2026-11-20', date_to: '2026-11-01' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().key).toBe('report.incorrectTiming');
    expect(res.json().field_keys['filters.date_to'].key).toBe('report.incorrectTiming');
  });

  it('no responses for the parameters; no video processes for the filters', async () => {
    const nobody = await create({});
    expect(nobody.statusCode).toBe(409);
    expect(nobody.json().key).toBe('report.noResponses');
    // A respondent without a processed video.
    await insertRespondentSession(t.app, { linkId, status: 'completed' }).then((sessionId) =>
      t.app.ctx.database.db
        .insertInto('video_processes')
        .values({ session_id: sessionId, campaign_id: researchId, status: 'collected' })
        .execute(),
    );
    expect((await create({})).json().key).toBe('report.noProcesses');
    await threeRespondents();
    expect((await create({ filters: { respondents: { sex: 'woman', age_min: 30 } } })).json().key).toBe(
      'report.noResponses',
    );
  });

  it('a report is already being generated: one build per research at a time', async () => {
    await threeRespondents();
    const first = (await create({})).json();
    const second = await create({ name: 'Second' });
    expect(second.statusCode).toBe(409);
    expect(second.json().key).toBe('report.alreadyGenerating');
    const again = await alice.request('POST', `/api/cabinet/reports/${first.id}/rebuild/`);
    expect(again.json().key).toBe('report.alreadyGenerating');
    expect((await alice.request('DELETE', `/api/cabinet/reports/${first.id}/`)).statusCode).toBe(409);
    // Exports wait for the snapshot.
    const early = await alice.request('GET', `/api/cabinet/reports/${first.id}/export/?kind=curves&format=csv`);
    expect(early.statusCode).toBe(409);
    expect(early.json().key).toBe('report.notDone');
  });

  it('the last report failed: a build whose filters leave nobody never shows as done', async () => {
    await threeRespondents({ 0: { restingHappy: 0.9 }, 1: { restingHappy: 0.9 }, 2: { restingHappy: 0.9 } });
    const report = await built({ filters: { happy: { min: 0, max: 0.13 } } });
    expect(report).toMatchObject({
      status: 'canceled',
      failed: true,
      error_key: 'report.noProcesses',
      snapshot: null,
      can: { rebuild: true, open: false },
    });
    const exported = await alice.request('GET', `/api/cabinet/reports/${report.id}/export/?kind=curves&format=xlsx`);
    expect(exported.json().key).toBe('report.lastFailed');
  });

  it('a cancelled build cannot write; a rebuild makes a new generation', async () => {
    await threeRespondents();
    const report = (await create({})).json();
    const canceled = await alice.request('POST', `/api/cabinet/reports/${report.id}/cancel/`);
    expect(canceled.json()).toMatchObject({ status: 'canceled', failed: false, can: { rebuild: true } });
    await t.app.ctx.queue.run(buildReportJob, { report_id: report.id, generation: 1 });
    expect((await alice.request('GET', `/api/cabinet/reports/${report.id}/`)).json().snapshot).toBeNull();
    const rebuilt = await alice.request('POST', `/api/cabinet/reports/${report.id}/rebuild/`);
    expect(rebuilt.json()).toMatchObject({ status: 'in_progress' });
    await t.app.ctx.queue.run(buildReportJob, { report_id: report.id, generation: 3 });
    const opened = (await alice.request('GET', `/api/cabinet/reports/${report.id}/`)).json();
    expect(opened).toMatchObject({ status: 'done', video_count: 3 });
    expect(opened.last_accessed_at).not.toBeNull();
  });

  it("another customer's report and a deleted research's report are not found", async () => {
    await threeRespondents();
    const report = await built();
    const foreign = await bob.request('GET', `/api/cabinet/reports/${report.id}/`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().key).toBe('report.notFound');
    expect((await bob.request('GET', `/api/cabinet/campaigns/${researchId}/reports/`)).statusCode).toBe(404);
    await t.app.ctx.database.db.deleteFrom('campaigns').where('id', '=', researchId).execute();
    expect((await alice.request('GET', `/api/cabinet/reports/${report.id}/`)).statusCode).toBe(404);
  });
});
