import { FIXATION_DEFAULTS, type ReportOutput } from '@emolens/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up } from '../../db/migrations/20261205150000-fixation-filter.ts';
import { type Client, createTestApp, loggedIn, type TestApp } from '../../test/harness.ts';
import { insertProcessedRespondent, videoResearch } from '../../test/report-rows.ts';
import { insertRespondentSession } from '../../test/respondent-rows.ts';
import { buildReportJob } from './jobs/build-report.job.ts';

/**
 * Decision 042: a report saved with the earlier fixation settings (content diagonals) keeps working — the API still
 * reads them, migration 20261205150000 rewrites stored ones in degrees — and a built report records the filter and
 * settings that made its fixations.
 */
let t: TestApp;
let alice: Client;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.ctx.queue.start({ work: false });
  ({ alice } = await loggedIn(t.app, 'alice'));
});
afterAll(() => t?.close());

const OLD = { velocity: 1, minDurationMs: 200, mergeGapMs: 150, mergeDistance: 0.05 };
const OLD_IN_DEGREES = {
  ...FIXATION_DEFAULTS,
  velocityThreshold: 37.8,
  mergeAngle: 1.9,
  minDurationMs: 200,
  mergeGapMs: 150,
};

describe('fixation settings saved before decision 042', () => {
  it('are read in degrees by the API and by the migration; the snapshot names the filter; bad values are a 400', async () => {
    const { researchId, linkId } = await videoResearch(t.app, alice, 'alice', { width: 100, height: 100, seconds: 2 });
    const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
    const still = Array.from({ length: 20 }, () => ({ x: 50, y: 50 }));
    await insertProcessedRespondent(t.app, { sessionId, researchId }, { engagement: [0.5, 0.5], gaze: still });
    const create = (fixations: object) =>
      alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, { body: { name: 'Old one', fixations } });

    // Out of the old bounds (9 diagonals/s, 340°/s), or old and new keys mixed: refused with the field named.
    const fast = await create({ ...OLD, velocity: 9 });
    expect(fast.statusCode).toBe(400);
    expect(fast.json().field_keys['fixations.velocityThreshold']).toEqual({
      key: 'validation.between',
      params: { first: 2, second: 300 },
    });
    expect((await create({ velocity: 1, velocityThreshold: 30 })).statusCode).toBe(400);

    const created = await create(OLD);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().fixations).toEqual(OLD_IN_DEGREES);
    const id = created.json().id as string;

    // As a definition stored before: the migration reads it the same way, and leaves today's alone.
    const db = t.app.ctx.database.db;
    await db
      .updateTable('reports')
      .set({ fixations: JSON.stringify(OLD) })
      .where('id', '=', id)
      .execute();
    await up(db);
    const read = async () => (await alice.request('GET', `/api/cabinet/reports/${id}/`)).json() as ReportOutput;
    expect((await read()).fixations).toEqual(OLD_IN_DEGREES);
    await up(db);
    expect((await read()).fixations).toEqual(OLD_IN_DEGREES);

    // Built: the snapshot says which filter, with which settings, at which assumed distance.
    await t.app.ctx.queue.run(buildReportJob, { report_id: id, generation: 1 });
    const report = await read();
    expect(report.status).toBe('done');
    expect(report.snapshot?.fixation_filter).toEqual({
      name: 'I-VT (Olsen 2012)',
      settings: OLD_IN_DEGREES,
      distance_cm: 60,
    });
    expect(report.snapshot?.items[0]?.fixations).toBe(1);
  });
});
