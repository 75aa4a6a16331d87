import type { KeyMetrics, NormFile } from '@emolens/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { Client, loggedIn, seedUser } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { insertProcessedRespondent } from '../../test/report-rows.ts';
import { insertRespondentSession } from '../../test/respondent-rows.ts';
import { buildReportJob } from '../reports/jobs/build-report.job.ts';

/**
 * The categories directory and benchmarks (issue 13, item 7): who maintains the directory, what a research's
 * categories may be, a research's key metrics and percentiles against hand-computed figures, norm bases exported
 * and imported.
 */
const t = appPerFile({}, { queue: true });
let alice: Client;
let carol: Client;
let researchId: string;
let projectId: string;
beforeEach(async () => {
  ({ alice } = await loggedIn(t.app, 'alice'));
  await seedUser(t.app, 'carol', { role: 'categorizer_admin' });
  carol = new Client(t.app);
  expect((await carol.login('carol')).statusCode).toBe(200);
  projectId = await alice.draftProject();
  await alice.readyToLaunch(projectId);
  [{ id: researchId }] = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${projectId}`)).json().items;
});

const addCategory = (body: Record<string, unknown>, client = carol) =>
  client.request('POST', '/api/cabinet/categories/', { body });

async function research(id = researchId) {
  return (await alice.request('GET', `/api/cabinet/campaigns/${id}/`)).json();
}

const editCategories = async (categories: Record<string, string>, id = researchId) =>
  alice.request('PATCH', `/api/cabinet/campaigns/${id}/update-campaign-data/`, {
    body: { categories, updated_at: (await research(id)).updated_at },
  });

describe('categories directory', () => {
  it('is read by every cabinet user and kept by categorizer admins only', async () => {
    const refused = await addCategory({ kind: 'brand', name: 'Acme' }, alice);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().key).toBe('category.forbidden');
    expect((await addCategory({ kind: 'brand', name: 'Acme' })).statusCode).toBe(201);
    // A subtype needs its content type; the name is unique per kind, case aside.
    const noType = await addCategory({ kind: 'subtype', name: 'TV ads' });
    expect(noType.json().field_keys).toEqual({ content_type: { key: 'category.contentTypeRequired' } });
    expect((await addCategory({ kind: 'subtype', name: 'TV ads', content_type: 'video' })).statusCode).toBe(201);
    const twice = await addCategory({ kind: 'brand', name: 'ACME' });
    expect([twice.statusCode, twice.json().key]).toEqual([409, 'category.exists']);
    expect((await addCategory({ kind: 'company', name: 'Acme' })).statusCode).toBe(201);

    const list = (await alice.request('GET', '/api/cabinet/categories/')).json();
    expect(list.can).toEqual({ manage: false });
    expect(list.entries.map((e: { kind: string; name: string }) => `${e.kind}:${e.name}`)).toEqual([
      'brand:Acme',
      'company:Acme',
      'subtype:TV ads',
    ]);
    expect((await carol.request('GET', '/api/cabinet/categories/')).json().can).toEqual({ manage: true });
  });

  it("checks a research's categories against it and renames them with it", async () => {
    await addCategory({ kind: 'brand', name: 'Acme' });
    await addCategory({ kind: 'subtype', name: 'Banners', content_type: 'pictures' });
    await addCategory({ kind: 'subtype', name: 'Interviews', content_type: 'contentless' });
    const unknown = await editCategories({ brand: 'Umbrella', subtype: 'Banners' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().field_keys).toEqual({
      'categories.brand': { key: 'category.unknown' },
      'categories.subtype': { key: 'category.subtypeContentType' },
    });
    // Stored as the directory spells it; the fields not sent keep their value.
    expect((await editCategories({ brand: 'acme' })).statusCode).toBe(200);
    expect((await editCategories({ subtype: 'interviews' })).statusCode).toBe(200);
    expect((await research()).categories).toMatchObject({ brand: 'Acme', subtype: 'Interviews' });

    const [acme] = (await carol.request('GET', '/api/cabinet/categories/')).json().entries;
    expect(acme).toMatchObject({ name: 'Acme', used_by: 1 });
    const inUse = await carol.request('DELETE', `/api/cabinet/categories/${acme.id}/`);
    expect([inUse.statusCode, inUse.json().key]).toEqual([409, 'category.inUse']);
    const renamed = await carol.request('PATCH', `/api/cabinet/categories/${acme.id}/`, {
      body: { name: 'Acme Corp' },
    });
    expect(renamed.statusCode).toBe(204);
    expect((await research()).categories.brand).toBe('Acme Corp');
    expect((await editCategories({ brand: '' })).statusCode).toBe(200);
    expect((await carol.request('DELETE', `/api/cabinet/categories/${acme.id}/`)).statusCode).toBe(204);
    expect((await carol.request('DELETE', `/api/cabinet/categories/${acme.id}/`)).statusCode).toBe(404);
    expect((await carol.request('DELETE', '/api/cabinet/categories/not-an-id/')).statusCode).toBe(404);
  });
});

describe('benchmarks', () => {
  const db = () => t.app.ctx.database.db;

  /** A research of its own project with a subtype, content type and stored key metrics. */
  async function otherResearch(
    score: number,
    { subtype = 'TV ads', content = 'video', completed = true } = {},
  ): Promise<string> {
    const project = await alice.draftProject();
    const added = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
      body: { project_id: project, campaigns_data: [{ title: 'Other', content_type: 'contentless' }] },
    });
    const id = added.json().campaigns[0].id;
    await db()
      .updateTable('campaigns')
      .set({ content_type: content as 'video', categories: JSON.stringify({ subtype }) })
      .where('id', '=', id)
      .execute();
    if (completed) await db().updateTable('projects').set({ status: 'completed' }).where('id', '=', project).execute();
    const metrics: KeyMetrics = {
      mean_engagement: score / 100,
      peak_engagement: score / 100,
      mean_valence: 0,
      mean_attention: 1,
      score,
    };
    await t.app.ctx.deps.benchmarks.saveResearchNorm(id, null, 10, metrics);
    return id;
  }

  async function videoResearch() {
    await addCategory({ kind: 'subtype', name: 'TV ads', content_type: 'video' });
    await db().updateTable('campaigns').set({ content_type: 'video' }).where('id', '=', researchId).execute();
    const [{ id: linkId }] = (
      await alice.request('GET', `/api/cabinet/projects/${projectId}/project-accessor-links/`)
    ).json().items;
    // Engagement per second as in the reports' hand-computed curves; valence is half of it, attention 1.
    for (const engagement of [
      [0.2, 0.4, 0.6, 0.8],
      [0.4, 0.4, 0.4, 0.4],
      [0.6, null, 0.2, 0.0],
    ]) {
      const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
      await insertProcessedRespondent(t.app, { sessionId, researchId }, { engagement });
    }
  }

  async function build(body: Record<string, unknown>) {
    const res = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, {
      body: { name: 'Benchmark', ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    await t.app.ctx.queue.run(buildReportJob, { report_id: res.json().id, generation: 1 });
    return (await alice.request('GET', `/api/cabinet/reports/${res.json().id}/`)).json();
  }

  it('refuses a benchmark on a research with no subtype, and on a calibration-subtraction report', async () => {
    await videoResearch();
    const none = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, {
      body: { name: 'B', benchmark: true },
    });
    expect([none.statusCode, none.json().key]).toEqual([409, 'report.noSubtype']);
    const corrected = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, {
      body: { name: 'B', benchmark: true, type: 'calibration_subtraction' },
    });
    expect(corrected.json().field_keys).toEqual({ benchmark: { key: 'report.benchmarkShift' } });
  });

  it("places the research's key metrics among completed researches of its subtype and content type", async () => {
    await videoResearch();
    await editCategories({ subtype: 'TV ads' });
    // The base: three completed video researches of the subtype (case aside); not an unfinished one, another
    // subtype or another content type.
    await otherResearch(40);
    await otherResearch(60, { subtype: 'tv ADS' });
    await otherResearch(56);
    await otherResearch(10, { completed: false });
    await otherResearch(10, { subtype: 'Radio' });
    await otherResearch(10, { content: 'pictures' });

    const report = await build({ benchmark: true });
    expect(report.benchmark).toBe(true);
    // By hand: engagement per second [0.4, 0.4, 0.4, 0.4] with N [3, 2, 3, 3] → mean 0.4, peak 0.4 (every point has
    // at least half the 3 respondents); valence 0.2; attention 1. Score = 100 × (0.4·0.4 + 0.2·0.4 + 0.2·1 +
    // 0.2·(0.2 + 1)/2) = 56.
    const b = report.snapshot.benchmark;
    expect(b).toMatchObject({
      subtype: 'TV ads',
      content_type: 'video',
      researches: 3,
      imported: 0,
      whole_sample: true,
    });
    const byMetric = Object.fromEntries(
      b.metrics.map((m: { metric: string; value: number; percentile: number }) => [m.metric, m]),
    );
    expect(byMetric.mean_engagement.value).toBeCloseTo(0.4, 6);
    expect(byMetric.peak_engagement.value).toBeCloseTo(0.4, 6);
    expect(byMetric.mean_valence.value).toBeCloseTo(0.2, 6);
    expect(byMetric.mean_attention.value).toBeCloseTo(1, 6);
    expect(byMetric.score.value).toBeCloseTo(56, 6);
    // Scores 40, 60, 56 → one below, one equal: (1 + ½) / 3 = 50%. Engagement 0.4, 0.6, 0.56 → 0.4 ties: 1/6.
    expect(byMetric.score.percentile).toBeCloseTo(50, 6);
    expect(byMetric.mean_engagement.percentile).toBeCloseTo(100 / 6, 6);
    // Attention 1 everywhere: the middle.
    expect(byMetric.mean_attention.percentile).toBeCloseTo(50, 6);

    // The whole-sample shift build stored the research's own norm; a filtered one does not replace it.
    const stored = await db().selectFrom('research_norms').selectAll().where('campaign_id', '=', researchId).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.respondents).toBe(3);
    expect(stored[0]?.metrics.score).toBeCloseTo(56, 6);
    const filtered = await build({ benchmark: true, filters: { accuracy_max_px: 500 } });
    expect(filtered.snapshot.benchmark.whole_sample).toBe(false);
    const after = await db()
      .selectFrom('research_norms')
      .select('report_id')
      .where('campaign_id', '=', researchId)
      .executeTakeFirst();
    expect(after?.report_id).toBe(report.id);
  });

  it('exports the completed researches as a norm base and imports one into the base', async () => {
    await videoResearch();
    await editCategories({ subtype: 'TV ads' });
    await otherResearch(40);
    await otherResearch(10, { completed: false });
    expect((await alice.request('GET', '/api/cabinet/benchmarks/export/')).statusCode).toBe(403);
    const exported = await carol.request('GET', '/api/cabinet/benchmarks/export/');
    expect(exported.headers['content-disposition']).toMatch(/emolens-norms-\d{4}-\d{2}-\d{2}\.json/);
    const file: NormFile = exported.json();
    expect(file).toMatchObject({ format: 'emolens-norms', version: 1 });
    expect(file.entries).toEqual([
      {
        content_type: 'video',
        subtype: 'TV ads',
        respondents: 10,
        metrics: { mean_engagement: 0.4, peak_engagement: 0.4, mean_valence: 0, mean_attention: 1, score: 40 },
      },
    ]);

    const bad = await carol.request('POST', '/api/cabinet/benchmarks/imports/', {
      body: { name: 'Team', file: { ...file, format: 'other' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field_keys['file.format']).toEqual({ key: 'benchmark.badFile' });
    const second = { ...file.entries[0], metrics: { ...file.entries[0]?.metrics, score: 70 } };
    const imported = await carol.request('POST', '/api/cabinet/benchmarks/imports/', {
      body: { name: 'Agency norms', file: { ...file, entries: [...file.entries, second] } },
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const summary = (await alice.request('GET', '/api/cabinet/benchmarks/')).json();
    expect(summary.bases).toEqual([{ content_type: 'video', subtype: 'TV ads', researches: 1, imported: 2 }]);
    expect(summary.imports).toMatchObject([{ name: 'Agency norms', entries: 2 }]);

    // Base: own 40, imported 40 and 70 → the research's 56 is above two of three.
    const report = await build({ benchmark: true });
    const score = report.snapshot.benchmark.metrics.find((m: { metric: string }) => m.metric === 'score');
    expect(report.snapshot.benchmark).toMatchObject({ researches: 1, imported: 2 });
    expect(score.percentile).toBeCloseTo(200 / 3, 6);

    const { id } = imported.json();
    expect((await alice.request('DELETE', `/api/cabinet/benchmarks/imports/${id}/`)).statusCode).toBe(403);
    expect((await carol.request('DELETE', `/api/cabinet/benchmarks/imports/${id}/`)).statusCode).toBe(204);
    expect((await carol.request('DELETE', `/api/cabinet/benchmarks/imports/${id}/`)).statusCode).toBe(404);
  });
});
