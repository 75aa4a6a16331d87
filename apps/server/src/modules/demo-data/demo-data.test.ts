import { ENGINE_VERSION } from '@emolens/engine';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoAccount } from '../../seed.ts';
import { Client, createTestAppWithFiles, TEST_BACKEND, type TestApp } from '../../test/harness.ts';
import { probeMediaJob } from '../media/jobs/probe-media.job.ts';
import { processRecordingJob } from '../processing/jobs/process-recording.job.ts';
import { buildReportJob } from '../reports/jobs/build-report.job.ts';
import { demoPersonas } from './demo-data.service.ts';
import { type DemoPersona, SLIDE_SECONDS, SLIDES } from './demo-script.ts';
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

/** The index of the largest value (nulls never). */
const argmax = (values: readonly (number | null)[]) =>
  values.reduce<number>((best, v, i) => (v !== null && v > (values[best] ?? -Infinity) ? i : best), 0);

/**
 * The video second (whole seconds, as the report's points) in which the scripted smiles of `personas` add up to the
 * most: each smile rising from its onset to its apex, held to its offset, fading to its end (sampled every 50 ms).
 */
function scriptedSmilePeak(personas: readonly DemoPersona[]): number {
  const at = (t: number) =>
    personas.reduce((sum, p) => {
      const smiles = p.behaviour.reactions.filter((r) => r.kind === 'smile');
      return (
        sum +
        Math.max(
          0,
          ...smiles.map((r) => {
            const start = SLIDES.indexOf(r.slide) * SLIDE_SECONDS;
            const x = t - start;
            if (x <= r.onset || x >= r.end) return 0;
            if (x < r.apex) return (r.intensity * (x - r.onset)) / (r.apex - r.onset);
            if (x <= r.offset) return r.intensity;
            return (r.intensity * (r.end - x)) / (r.end - r.offset);
          }),
        )
      );
    }, 0);
  const seconds = SLIDES.length * SLIDE_SECONDS;
  const perSecond = Array.from({ length: seconds }, (_, s) =>
    Array.from({ length: 20 }, (_, k) => at(s + k / 20)).reduce((a, b) => a + b, 0),
  );
  return argmax(perSecond);
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

// The phantoms' webcam clips are drawn and encoded and the journeys run in real time (~50 s; minutes on a loaded
// machine), then the engine analyses each respondent's recording on the machine's cores.
describe(`the demo project on ${TEST_BACKEND}`, { timeout: 900_000 }, () => {
  it('is seeded once, from phantom recordings through the engine, and opens with a report that moves with the script', async () => {
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

    // Launched; every respondent takes part in real time as soon as their recording is drawn, and each completion
    // queues its recording, which the engine processes at once (the test is the worker: as many at once as the pool
    // has processes).
    const personas = demoPersonas();
    expect(personas.length).toBeGreaterThanOrEqual(6);
    const processing = new Map<string, Promise<unknown>>();
    const cabinet = new Client(t.app);
    expect((await cabinet.login('demo', demo?.password)).statusCode).toBe(200);
    const processes = await eventually(async () => {
      const rows = await db()
        .selectFrom('video_processes')
        .select(['id', 'generation'])
        .where('campaign_id', '=', content.campaign_id)
        .execute();
      if (rows.length > 0 && processing.size === 0) {
        // Until the recordings are processed, the research shows the ordinary processing state.
        const research = await cabinet.request('GET', `/api/cabinet/campaigns/${content.campaign_id}/`);
        expect(research.json().status).toBe('processing');
      }
      for (const p of rows)
        if (!processing.has(p.id))
          processing.set(
            p.id,
            t.app.ctx.queue.run(processRecordingJob, { process_id: p.id, generation: p.generation }).then(
              () => null,
              (err: unknown) => err,
            ),
          );
      return rows.length === personas.length ? rows : undefined;
    }, 540_000);
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

    // Each processing job ran to its end (an error would be its value here).
    expect(await Promise.all(processing.values())).toEqual(processes.map(() => null));
    const results = await db()
      .selectFrom('video_processes as v')
      .innerJoin('process_results as r', 'r.id', 'v.result_id')
      .select(['v.status', 'r.face_found', 'r.usable', 'r.engine_version', 'r.frame_count'])
      .innerJoin('respondent_sessions as s', 's.id', 'v.session_id')
      .select(['r.calibration_status', 'r.calibration_accuracy_px', 'r.calibration_accuracy_percent'])
      .select('s.participant_id')
      .where('v.campaign_id', '=', content.campaign_id)
      .execute();
    expect(results).toHaveLength(personas.length);
    for (const r of results) {
      expect(r).toMatchObject({ status: 'done', face_found: true, usable: true, engine_version: ENGINE_VERSION });
      // Calibration (12 s), validation and the 12-second video at 10 frames a second.
      expect(r.frame_count).toBeGreaterThan(250);
    }
    // The phantoms' eyes follow the page's dots (demo-phantoms.ts): the engine fits most respondents' gaze on their
    // own eye movements, about as well as webcam gaze goes (a tenth of the screen's diagonal or so). The one who
    // looks at their phone while the dot moves fails calibration, as they would on a real webcam.
    const calibrated = results.filter((r) => r.calibration_status === 'calibrated');
    expect(calibrated.length).toBeGreaterThan(results.length / 2);
    const phoneDuringDot = personas.filter((p) => !p.behaviour.followsDot).map((p) => p.participant);
    expect(phoneDuringDot).toHaveLength(1);
    expect(results.filter((r) => r.calibration_status !== 'calibrated').map((r) => r.participant_id)).toContain(
      phoneDuringDot[0],
    );
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
    // The curves move where the script says (issue 30 item 4): the smile curve (the engine's smile index, each
    // respondent's from their own rest) peaks during the cat, within a second of the second at which the scripted
    // smiles of the report's respondents peak together.
    expect(Math.max(...item.curves.smile.n)).toBe(usable);
    const measuredPeak = item.seconds[argmax(item.curves.smile.mean)];
    const included = opened.snapshot.people
      .filter((r: { included: boolean }) => r.included)
      .map((r: { participant_id: string }) => r.participant_id);
    expect(included).toHaveLength(usable);
    const scriptedPeak = scriptedSmilePeak(personas.filter((p) => included.includes(p.participant)));
    expect(scriptedPeak).toBeLessThan(SLIDE_SECONDS);
    expect(measuredPeak).toBeGreaterThanOrEqual(0);
    expect(measuredPeak).toBeLessThan(SLIDE_SECONDS);
    expect(Math.abs(measuredPeak - scriptedPeak)).toBeLessThanOrEqual(1);
    expect(item.segments.map((s: { key: string }) => s.key).sort()).toEqual(['no', 'somewhat', 'yes']);
    // Gaze on the video from every calibrated respondent: its heatmap, one per point, and fixations.
    expect(item.gaze_respondents).toBeGreaterThan(0);
    expect(item.gaze_respondents).toBeLessThanOrEqual(calibrated.length);
    expect(item.heatmap?.samples).toBeGreaterThan(0);
    expect(item.heatmap_frames?.length).toBeGreaterThan(0);
    expect(item.fixations).toBeGreaterThan(0);

    // Each demo respondent's phantom truth is kept with their session (decision 035): the research statistic page
    // lists the engine's measurement against it, respondent by respondent — the smiles the script put in among it.
    const truths = (
      await cabinet.request('GET', `/api/cabinet/campaigns/${content.campaign_id}/phantom-truths/`)
    ).json();
    expect(truths.items.map((i: { participant_id: string }) => i.participant_id).sort()).toEqual(
      personas.map((p) => p.participant).sort(),
    );
    for (const truth of truths.items) {
      const persona = personas.find((p) => p.participant === truth.participant_id);
      expect(truth).toMatchObject({ measured: true, phantom: { name: truth.participant_id, source: persona?.source } });
      const smiles = persona?.behaviour.reactions.filter((r) => r.kind === 'smile').length ?? 0;
      expect(truth.expressions.find((e: { kind: string }) => e.kind === 'smile')?.injected ?? 0).toBe(smiles);
    }

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
