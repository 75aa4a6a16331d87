import { ENGINE_VERSION } from '@emolens/engine';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoAccount } from '../../seed.ts';
import { Client, createTestAppWithFiles, TEST_BACKEND, type TestApp } from '../../test/harness.ts';
import { probeMediaJob } from '../media/jobs/probe-media.job.ts';
import { processRecordingJob } from '../processing/jobs/process-recording.job.ts';
import { buildReportJob } from '../reports/jobs/build-report.job.ts';
import { demoPersonas } from './demo-data.service.ts';
import { seedDemoDataJob } from './jobs/seed-demo-data.job.ts';

/**
 * The demo project of an empty installation (decision 017), end to end on a real database with the real engine:
 * the demo account's seeding job sets the project up through the services, its respondents take part through the
 * respondent services in real time, the engine processes their recordings (in its child processes), and the
 * report is built. The queue takes the jobs; the test is the worker, running each of them here as it appears.
 */
let t: TestApp & { dir: string };
beforeAll(async () => {
  t = await createTestAppWithFiles('demo-data');
  await t.app.ctx.queue.start({ work: false });
});
afterAll(() => t?.close());

const db = () => t.app.ctx.database.db;
const queued = async (name: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = ${name}`.execute(db())).rows[0]?.n ??
  0;
const demoProjects = () => db().selectFrom('projects').selectAll().where('is_demo', '=', true).execute();

/** `read` every 200 ms until it gives a value (or the time is up). */
async function eventually<T>(read: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The demo research's content file once it is stored (the seeding job waits for its probe then). */
const storedContent = () =>
  db()
    .selectFrom('media')
    .innerJoin('campaigns', 'campaigns.id', 'media.campaign_id')
    .innerJoin('projects', 'projects.id', 'campaigns.project_id')
    .select(['media.id', 'media.status', 'campaigns.id as campaign_id'])
    .where('projects.is_demo', '=', true)
    .executeTakeFirst();

// The webcam clips are encoded and the journeys run in real time (~50 s; minutes on a loaded machine), then the engine
// analyses ~320 frames per respondent on the machine's cores.
describe(`the demo project on ${TEST_BACKEND}`, { timeout: 600_000 }, () => {
  it('is seeded once, from recordings of real faces through the engine, and opens with a built report', async () => {
    const demo = await seedDemoAccount(t.app.ctx);
    expect(demo).toMatchObject({ username: 'demo', demoProject: true });
    expect(await queued(seedDemoDataJob.name)).toBe(1);
    const user = await db().selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
    const seeding = t.app.ctx.queue.run(seedDemoDataJob, { user_id: user.id });

    // The draft, marked demo and owned by the demo account, waits for its video's probe.
    const content = await eventually(storedContent);
    expect(content.status).toBe('processing');
    expect(await demoProjects()).toMatchObject([{ status: 'new', owner_id: user.id, is_demo: true }]);
    await t.app.ctx.queue.run(probeMediaJob, { media_id: content.id });

    // Launched; every respondent takes part in real time, and each completion queues its recording.
    const personas = demoPersonas();
    expect(personas.length).toBeGreaterThanOrEqual(6);
    const processes = await eventually(async () => {
      const rows = await db()
        .selectFrom('video_processes')
        .select(['id', 'generation'])
        .where('campaign_id', '=', content.campaign_id)
        .execute();
      return rows.length === personas.length ? rows : undefined;
    }, 300_000);
    const [project] = await demoProjects();
    expect(project?.status).toBe('active');
    const sessions = await db()
      .selectFrom('respondent_sessions')
      .select(['participant_id', 'status', 'age'])
      .where('project_id', '=', project?.id as string)
      .execute();
    expect(sessions.map((s) => s.status)).toEqual(personas.map(() => 'completed'));
    expect(new Set(sessions.map((s) => s.participant_id))).toEqual(new Set(personas.map((p) => p.participant)));
    expect(new Set(sessions.map((s) => s.age)).size).toBeGreaterThan(3);
    // Until the recordings are processed, the research shows the ordinary processing state.
    const cabinet = new Client(t.app);
    expect((await cabinet.login('demo', demo?.password)).statusCode).toBe(200);
    const research = await cabinet.request('GET', `/api/cabinet/campaigns/${content.campaign_id}/`);
    expect(research.json().status).toBe('processing');

    // The engine processes each recording (the test is the worker: as many at once as the pool has processes).
    await Promise.all(
      processes.map((p) => t.app.ctx.queue.run(processRecordingJob, { process_id: p.id, generation: p.generation })),
    );
    const results = await db()
      .selectFrom('video_processes as v')
      .innerJoin('process_results as r', 'r.id', 'v.result_id')
      .select(['v.status', 'r.face_found', 'r.usable', 'r.engine_version', 'r.frame_count'])
      .select(['r.calibration_status', 'r.calibration_accuracy_px', 'r.calibration_accuracy_percent'])
      .where('v.campaign_id', '=', content.campaign_id)
      .execute();
    expect(results).toHaveLength(personas.length);
    for (const r of results) {
      expect(r).toMatchObject({ status: 'done', face_found: true, usable: true, engine_version: ENGINE_VERSION });
      // Calibration (12 s), validation and the 12-second video at 10 frames a second.
      expect(r.frame_count).toBeGreaterThan(250);
    }
    // The irises follow the page's dots (demo-eyes.ts): the engine fits most respondents' gaze on their own eye
    // movements, about as well as webcam gaze goes (a tenth of the screen's diagonal or so). Eyes nearly shut in
    // their photo do not calibrate, as they would not on a real webcam.
    const calibrated = results.filter((r) => r.calibration_status === 'calibrated');
    expect(calibrated.length).toBeGreaterThan(results.length / 2);
    for (const r of calibrated) {
      expect(Number.isFinite(r.calibration_accuracy_px)).toBe(true);
      expect(r.calibration_accuracy_px).toBeGreaterThan(10);
      expect(r.calibration_accuracy_percent).toBeGreaterThan(0.5);
      expect(r.calibration_accuracy_percent).toBeLessThan(20);
    }

    // Every recording processed: the report, then the project completed; the job ends.
    await seeding;
    const [completed] = await demoProjects();
    expect(completed?.status).toBe('completed');
    const report = await db()
      .selectFrom('reports')
      .select(['id', 'generation', 'status'])
      .where('campaign_id', '=', content.campaign_id)
      .executeTakeFirstOrThrow();
    expect(report.status).toBe('in_progress');
    await t.app.ctx.queue.run(buildReportJob, { report_id: report.id, generation: report.generation });

    // What the demo account sees: the project marked demo, the report built on every usable respondent.
    const list = (await cabinet.request('GET', '/api/cabinet/projects/?tab=completed')).json();
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ id: completed?.id, is_demo: true, status: 'completed' });
    const opened = (await cabinet.request('GET', `/api/cabinet/reports/${report.id}/`)).json();
    expect(opened).toMatchObject({ status: 'done', failed: false });
    const usable = results.filter((r) => r.usable).length;
    expect(opened.snapshot.respondents).toBe(usable);
    const [item] = opened.snapshot.items;
    expect(item.seconds.length).toBeGreaterThanOrEqual(11);
    expect(Math.max(...item.curves.engagement.n)).toBe(usable);
    expect(item.curves.happy.mean.some((v: number | null) => v !== null && v > 0.2)).toBe(true);
    expect(item.segments.map((s: { key: string }) => s.key).sort()).toEqual(['no', 'somewhat', 'yes']);
    // Gaze on the video from every calibrated respondent: its heatmap, one per point, and fixations.
    expect(item.gaze_respondents).toBeGreaterThan(0);
    expect(item.gaze_respondents).toBeLessThanOrEqual(calibrated.length);
    expect(item.heatmap?.samples).toBeGreaterThan(0);
    expect(item.heatmap_frames?.length).toBeGreaterThan(0);
    expect(item.fixations).toBeGreaterThan(0);

    // Never in benchmarks: its norm is not saved, and one written anyway is not read.
    expect(await db().selectFrom('research_norms').selectAll().execute()).toHaveLength(0);
    await db()
      .updateTable('campaigns')
      .set({ categories: JSON.stringify({ subtype: 'Demo subtype' }) })
      .where('id', '=', content.campaign_id)
      .execute();
    const benchmarks = t.app.ctx.deps.benchmarks;
    const metrics = { mean_engagement: 0.5, peak_engagement: 0.8, mean_valence: 0.2, mean_attention: 0.9, score: 60 };
    await benchmarks.saveResearchNorm(content.campaign_id, report.id, usable, metrics);
    expect(await db().selectFrom('research_norms').selectAll().execute()).toHaveLength(0);
    await db()
      .insertInto('research_norms')
      .values({
        campaign_id: content.campaign_id,
        report_id: report.id,
        respondents: usable,
        metrics: JSON.stringify(metrics),
      })
      .execute();
    expect(await benchmarks.ownNorms()).toHaveLength(0);
    expect(
      (await benchmarks.base('video', 'Demo subtype', ['00000000-0000-0000-0000-000000000000'])).researches,
    ).toEqual([]);
    expect((await benchmarks.bases()).own).toEqual([]);

    // A second start: the installation has a user, nothing is queued again; a retried job changes nothing.
    expect(await seedDemoAccount(t.app.ctx)).toBeUndefined();
    expect(await queued(seedDemoDataJob.name)).toBe(1);
    await t.app.ctx.queue.run(seedDemoDataJob, { user_id: user.id });
    expect(await demoProjects()).toHaveLength(1);
    expect(await db().selectFrom('respondent_sessions').selectAll().execute()).toHaveLength(personas.length);
    expect(await db().selectFrom('reports').selectAll().execute()).toHaveLength(1);
  });
});
