// npm run bench:report-build — a report built and opened at the size issue 13 names, on PostgreSQL
// (TEST_DATABASE_URL, default the machine's postgres://postgres@127.0.0.1:5432/test): 1000 processed respondents
// of a 60-second video, each with per-second series of every metric and 60 s of gaze at 10 Hz in its frames.
// Prints, each beside its goal (decision 026): the build job from stored results to the written snapshot (median
// < 300 ms), the API's event loop during the builds (longest delay < 50 ms: a request that comes during a build waits
// no longer than opening a report may take), the parts, the snapshot's size (< 1 MiB of JSON), and opening the built
// report — one GET through the whole app (p95 < 50 ms). And the machine's load, without which none of it can be read
// (2 cores shared with other work stretch every figure). Asserts nothing. Sizes: BENCH_RESPONDENTS, BENCH_SECONDS.
// A module (top-level await); everything it needs is imported below, after the database is chosen.
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { prng as random } from '../packages/engine/src/random.ts';

process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

const { createReportInput } = await import('@emolens/contracts');
const { sql } = await import('kysely');
const { createTestApp, insertMedia, loggedIn } = await import('../apps/server/src/test/harness.ts');
const { insertRespondentSession } = await import('../apps/server/src/test/respondent-rows.ts');
const { insertProcessedRespondent } = await import('../apps/server/src/test/report-rows.ts');
const { buildReportJob } = await import('../apps/server/src/modules/reports/jobs/build-report.job.ts');
const { buildSnapshot } = await import('../apps/server/src/modules/reports/build/build.ts');
const { itemsOf } = await import('../apps/server/src/modules/reports/build/items.ts');
const { readStoredDigests } = await import('../apps/server/src/modules/reports/build/stored-digests.ts');
const { readDigest } = await import('../apps/server/src/modules/processing/digest.ts');

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const RESPONDENTS = env('BENCH_RESPONDENTS', 1000);
const SECONDS = env('BENCH_SECONDS', 60);
const SIZE = { width: 1920, height: 1080 };

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

const t = await createTestApp();
try {
  await t.reset();
  await t.app.ctx.queue.start({ work: false });
  const { alice } = await loggedIn(t.app, 'alice');
  const project = await alice.draftProject();
  await alice.readyToLaunch(project);
  const [research] = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${project}`)).json().items;
  const [link] = (await alice.request('GET', `/api/cabinet/projects/${project}/project-accessor-links/`)).json().items;
  const db = t.app.ctx.database.db;
  await db.updateTable('campaigns').set({ content_type: 'video' }).where('id', '=', research.id).execute();
  const video = await insertMedia(t.app, {
    researchId: research.id,
    owner: 'alice',
    kind: 'video',
    status: 'ready',
    duration_seconds: SECONDS,
  });
  await db.updateTable('media').set(SIZE).where('id', '=', video).execute();

  const rnd = random(7);
  const seeding = performance.now();
  for (let r = 0; r < RESPONDENTS; r++) {
    const sessionId = await insertRespondentSession(t.app, { linkId: link.id, status: 'completed' });
    let x = rnd() * SIZE.width;
    let y = rnd() * SIZE.height;
    const gaze = Array.from({ length: SECONDS * 10 }, () => {
      if (rnd() < 0.15) {
        x = rnd() * SIZE.width;
        y = rnd() * SIZE.height;
      }
      return { x: x + (rnd() - 0.5) * 20, y: y + (rnd() - 0.5) * 20 };
    });
    await insertProcessedRespondent(
      t.app,
      { sessionId, researchId: research.id },
      {
        engagement: Array.from({ length: SECONDS }, (_, s) =>
          rnd() < 0.05 ? null : Math.min(1, Math.max(0, 0.5 + 0.3 * Math.sin(s / 7) + (rnd() - 0.5) * 0.4)),
        ),
        happy: Array.from({ length: SECONDS }, () => rnd() * 0.6),
        restingHappy: rnd() * 0.2,
        baselineEngagement: 0.4,
        gaze,
        accuracyPercent: 2 + rnd() * 6,
      },
    );
  }
  const load = () =>
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} on ${cpus().length} cores`;
  console.log(
    `Report build on ${t.database.kind}: ${RESPONDENTS} respondents × ${SECONDS} s ` +
      `(seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s; ${load()})`,
  );

  // The parts, measured on their own.
  const filters = createReportInput.parse({ name: 'Bench' }).filters;
  let start = performance.now();
  const rows = await t.app.ctx.deps.reports.sessions([research.id], filters);
  const queryMs = performance.now() - start;
  start = performance.now();
  // The digests as the build's thread reads them: one binary COPY (the thread runs it on a connection of its own).
  const query = t.app.ctx.deps.reports.digestsQuery(rows.map((r) => r.result_id));
  const stored = await readStoredDigests({ copy: await t.database.copyOut(query) });
  const copyMs = performance.now() - start;
  start = performance.now();
  const sessions = rows.map((row) => ({ ...row, digest: readDigest(stored.get(row.result_id) as Uint8Array) }));
  const digestMs = performance.now() - start;
  const claimDef = await db.selectFrom('campaigns').selectAll().where('id', '=', research.id).executeTakeFirstOrThrow();
  const { timeline, items } = itemsOf(claimDef, await t.app.ctx.deps.reports.media([research.id]));
  start = performance.now();
  await buildSnapshot({
    type: 'shift',
    step: 1,
    filters,
    fixations: createReportInput.parse({ name: 'Bench' }).fixations,
    timeline,
    items,
    sessions,
    segmentOf: (s) => (s.sex ? { key: s.sex, labels: null } : null),
    tasks: { tasks: [], runs: [], media: [] },
    researches: [{ id: research.id, title: research.title }],
    benchmark: null,
  });
  const buildMs = performance.now() - start;
  console.log(
    `  read the sessions and their report digests: sessions ${queryMs.toFixed(0)} ms (${rows.length} rows), ` +
      `digests (binary COPY) ${copyMs.toFixed(0)} ms, unpacked ${digestMs.toFixed(0)} ms`,
  );
  console.log(
    `  snapshot arithmetic (10 curves, segments, heatmap + ${SECONDS} video grids, fixations): ${buildMs.toFixed(0)} ms`,
  );

  // The whole job, as the worker runs it: claim, read, build, write. Seven builds: the first ones include the JIT's
  // warm-up, which a running worker pays once; the median is what a build costs.
  const jobs: number[] = [];
  let reportId = '';
  // The API's event loop while the jobs run: the arithmetic runs in a worker thread, so it stays free.
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  for (let run = 0; run < 7; run++) {
    const created = await alice.request('POST', `/api/cabinet/campaigns/${research.id}/reports/`, {
      body: { name: `Bench ${run + 1}`, segment: { by: 'sex' } },
    });
    if (created.statusCode !== 201) throw new Error(created.body);
    reportId = created.json().id;
    start = performance.now();
    await t.app.ctx.queue.run(buildReportJob, { report_id: reportId, generation: 1 });
    jobs.push(performance.now() - start);
  }
  console.log(
    `  build-report job, stored results → snapshot written: ${jobs.map((ms) => ms.toFixed(0)).join(', ')} ms; median ${[...jobs].sort((a, b) => a - b)[3]?.toFixed(0)} ms (goal < 300 ms)`,
  );
  loop.disable();
  console.log(
    `  event loop during the builds: p99 delay ${(loop.percentile(99) / 1e6).toFixed(0)} ms, ` +
      `longest ${(loop.max / 1e6).toFixed(0)} ms (goal < 50 ms)`,
  );
  const written = await db
    .selectFrom('reports')
    .select(sql<number>`octet_length(snapshot_text)`.as('bytes'))
    .where('id', '=', reportId)
    .executeTakeFirstOrThrow();
  console.log(`  snapshot: ${(written.bytes / 1024).toFixed(0)} KiB of JSON as stored and sent (goal < 1024 KiB)`);

  // Opening the built report: one GET through the app (routing, access check, the row, serialisation).
  const opens: number[] = [];
  for (let i = 0; i < 30; i++) {
    start = performance.now();
    const res = await alice.request('GET', `/api/cabinet/reports/${reportId}/`);
    opens.push(performance.now() - start);
    if (res.statusCode !== 200) throw new Error(res.body);
  }
  console.log(
    `  open the report (GET /api/cabinet/reports/{id}/, 30 times): p50 ${quantile(opens, 0.5).toFixed(1)} ms, ` +
      `p95 ${quantile(opens, 0.95).toFixed(1)} ms (goal < 50 ms)`,
  );
  console.log(`  (${load()})`);
} finally {
  await t.reset();
  await t.close();
}
