import type { ReportOutput } from '@emolens/contracts';
import { beforeEach, expect } from 'vitest';
import { type Client, loggedIn, type TestApp } from '../../test/harness.ts';
import { insertProcessedRespondent, type SyntheticRespondent, videoResearch } from '../../test/report-rows.ts';
import { insertRespondentSession } from '../../test/respondent-rows.ts';
import { buildReportJob } from './jobs/build-report.job.ts';

/** What each report test starts from: Alice and Bob logged in, and Alice's video research with its link. */
export interface VideoResearch {
  alice: Client;
  bob: Client;
  researchId: string;
  linkId: string;
}

/**
 * The setup of the test files of reports through the cabinet API (`reports-*.test.ts`), called at a file's top level
 * with its app (`appPerFile` with its queue): before each test, after the tables are emptied, Alice and Bob logged in
 * and Alice's video research (1000 × 500, 4 seconds), handed to `keep` for the file's own names. What it gives back
 * writes respondents (processed results with chosen values, `report-rows.ts`) and reports of the current test's
 * research.
 */
export function videoResearchEachTest(t: TestApp, keep: (research: VideoResearch) => void) {
  let alice: Client;
  let researchId: string;
  let linkId: string;
  beforeEach(async () => {
    ({ alice } = await loggedIn(t.app, 'alice'));
    const { bob } = await loggedIn(t.app, 'bob');
    ({ researchId, linkId } = await videoResearch(t.app, alice, 'alice', { width: 1000, height: 500, seconds: 4 }));
    keep({ alice, bob, researchId, linkId });
  });

  async function respondent(r: SyntheticRespondent & { sex?: 'man' | 'woman'; age?: number }) {
    const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
    await t.app.ctx.database.db
      .updateTable('respondent_sessions')
      .set({ sex: r.sex ?? null, age: r.age ?? null })
      .where('id', '=', sessionId)
      .execute();
    const processId = await insertProcessedRespondent(t.app, { sessionId, researchId }, r);
    return { sessionId, processId };
  }

  /** The three respondents of the hand-computed figures. */
  async function threeRespondents(extra: Partial<Record<0 | 1 | 2, Partial<SyntheticRespondent>>> = {}) {
    return [
      await respondent({ engagement: [0.2, 0.4, 0.6, 0.8], sex: 'man', ...extra[0] }),
      await respondent({ engagement: [0.4, 0.4, 0.4, 0.4], sex: 'woman', ...extra[1] }),
      await respondent({ engagement: [0.6, null, 0.2, 0.0], sex: 'man', ...extra[2] }),
    ];
  }

  const create = (body: Record<string, unknown>, client = alice) =>
    client.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, { body: { name: 'Launch test', ...body } });

  /** Creates a report and runs its build job; the opened report. */
  async function built(body: Record<string, unknown> = {}): Promise<ReportOutput> {
    const res = await create(body);
    expect(res.statusCode, res.body).toBe(201);
    const report = res.json();
    await t.app.ctx.queue.run(buildReportJob, { report_id: report.id, generation: 1 });
    return (await alice.request('GET', `/api/cabinet/reports/${report.id}/`)).json();
  }

  return { respondent, threeRespondents, create, built };
}

export const close = (value: number | null | undefined, expected: number) => {
  expect(value).not.toBeNull();
  expect(value as number).toBeCloseTo(expected, 4);
};

/** A drawn area's shapes, in fractions of the item. */
export const rect = (x: number, y: number, width: number, height: number) => ({
  kind: 'rectangle',
  x,
  y,
  width,
  height,
});
export const pt = (x: number, y: number) => ({ x, y });
