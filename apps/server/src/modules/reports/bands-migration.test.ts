import type { ReportOutput } from '@emolens/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up } from '../../db/migrations/20261203160000-report-bands.ts';
import { type Client, createTestApp, loggedIn, type TestApp } from '../../test/harness.ts';
import { insertProcessedRespondent, videoResearch } from '../../test/report-rows.ts';
import { insertRespondentSession } from '../../test/respondent-rows.ts';
import { buildReportJob } from './jobs/build-report.job.ts';

/**
 * Migration 20261203160000 (issue 28, item 2): a snapshot stored before the intervals were kept within their
 * metric's range — a band past 0..1, no Wilson interval of the share — reads afterwards as a rebuild would write
 * it, whichever column holds it.
 */
let t: TestApp;
let alice: Client;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.ctx.queue.start({ work: false });
  ({ alice } = await loggedIn(t.app, 'alice'));
});
afterAll(() => t?.close());

describe('report bands migration', () => {
  it('clamps a stored band and adds the share’s Wilson interval, in either snapshot column', async () => {
    const { researchId, linkId } = await videoResearch(t.app, alice, 'alice', { width: 100, height: 100, seconds: 2 });
    for (const engagement of [
      [0.1, 0.2],
      [0.9, 0.8],
    ]) {
      const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
      await insertProcessedRespondent(t.app, { sessionId, researchId }, { engagement });
    }
    const created = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, {
      body: { name: 'Old one' },
    });
    const id = created.json().id as string;
    await t.app.ctx.queue.run(buildReportJob, { report_id: id, generation: 1 });
    const read = async () =>
      ((await alice.request('GET', `/api/cabinet/reports/${id}/`)).json() as ReportOutput).snapshot;
    const built = await read();
    const fresh = built?.items[0]?.curves.engagement;
    // Two respondents 0.8 and 0.6 apart: t(0.975, 1) = 12.7 makes the band far wider than 0..1; clamped.
    expect([fresh?.low[0], fresh?.high[0]]).toEqual([0, 1]);

    // The snapshot as it was stored before: the raw t-band, no interval of the share.
    const old = structuredClone(built);
    for (const curve of Object.values(old?.items[0]?.curves ?? {})) {
      const c = curve as Record<string, unknown>;
      delete c.share_low;
      delete c.share_high;
    }
    const oldCurve = old?.items[0]?.curves.engagement as { low: (number | null)[]; high: (number | null)[] };
    oldCurve.low[0] = -4.5821;
    oldCurve.high[0] = 5.5821;
    const columns = await sql<{ column_name: string }>`
      select column_name from information_schema.columns where table_name = 'reports' and column_name like 'snapshot%'`.execute(
      t.app.ctx.database.db,
    );
    for (const { column_name: column } of columns.rows) {
      const others = columns.rows.map((r) => r.column_name).filter((c) => c !== column);
      await t.app.ctx.database.db
        .updateTable('reports')
        .set({ [column]: JSON.stringify(old), ...Object.fromEntries(others.map((c) => [c, null])) })
        .where('id', '=', id)
        .execute();
      expect((await read())?.items[0]?.curves.engagement.share_low, column).toBeUndefined();
      await up(t.app.ctx.database.db);
      expect(await read(), column).toEqual(built);
    }
  });
});
