// npm run bench:processing-api — does the API stay fast while recordings are processed? (issue 10,
// design section 7: the engine never runs on the API's event loop.) A real all-in-one server in a
// child process (jobs and engine pool in it, like `npm start`; PostgreSQL when BENCH_DATABASE_URL is
// set, else the embedded database) holds BENCH_PROCESSES collected recordings of BENCH_CLIP_SECONDS
// each (a real face). /healthz and a cabinet call are timed every 25 ms: first idle, then while every
// engine process is busy with the recordings. Prints latency percentiles and processing figures.
import { announce, benchApp, envNumber, percentiles, type ServerChild, withServerChild } from './server-child.ts';

const PROCESSES = envNumber('BENCH_PROCESSES', 4);
const CLIP_SECONDS = envNumber('BENCH_CLIP_SECONDS', 30);
const IDLE_SECONDS = envNumber('BENCH_IDLE_SECONDS', 10);
const INTERVAL_MS = 25;

// ---------------------------------------------------------------------------------------------
// Server mode: `processing-api.ts --server <dataDir> [databaseUrl]`.
// ---------------------------------------------------------------------------------------------
async function runServer(dataDir: string, databaseUrl: string | undefined): Promise<void> {
  const { loggedIn } = await import('../apps/server/src/test/harness.ts');
  const { chunksOf, photoClip } = await import('../apps/server/src/test/clips.ts');
  const { launchedLink } = await import('../apps/server/src/test/respondent.ts');
  const rows = await import('../apps/server/src/test/respondent-rows.ts');
  const { queueWaiting } = await import('../apps/server/src/modules/processing/processing.service.ts');
  const { app, config } = await benchApp(dataDir, databaseUrl);
  const { alice } = await loggedIn(app, 'alice');
  const link = await launchedLink(app, alice);
  const researchId = link.researchIds[0] as string;
  const clip = chunksOf(photoClip('astronaut', CLIP_SECONDS, 640), 15);
  for (let i = 0; i < PROCESSES; i++) {
    const sessionId = await rows.insertRespondentSession(app, {
      linkId: link.linkId,
      status: 'completed',
      outcome: 'complete',
      quotaState: 'pending',
    });
    await rows.insertRecording(app, sessionId, 0, clip);
    await rows.insertEventLog(app, sessionId, [
      { type: 'screen', t: 0, width: 1280, height: 800, device_pixel_ratio: 1 },
      { type: 'research_start', t: 0, campaign_id: researchId, index: 0 },
      { type: 'research_end', t: CLIP_SECONDS * 1000 - 500, campaign_id: researchId },
    ]);
    await rows.insertVideoProcess(app, { sessionId, researchId, status: 'collected' });
  }
  await app.ctx.queue.start({ work: true });
  const cookie = [...alice.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  await announce(app, { cookie, researchId, engineWorkers: config.engineWorkers });
  // The parent says when the idle measurement is over.
  process.stdin.once('data', () => {
    void queueWaiting(app.ctx.deps);
  });
}

// ---------------------------------------------------------------------------------------------
// Client mode.
// ---------------------------------------------------------------------------------------------
type Server = ServerChild & { cookie: string; researchId: string; engineWorkers: number };

async function timed(url: string, headers: Record<string, string>): Promise<number> {
  const start = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return performance.now() - start;
}

interface Sampled {
  healthz: number[];
  cabinet: number[];
}

/** Both calls every INTERVAL_MS until `until` says stop. */
async function sample(server: Server, until: () => Promise<boolean> | boolean): Promise<Sampled> {
  const result: Sampled = { healthz: [], cabinet: [] };
  const cabinet = `${server.base}/api/cabinet/campaigns/${server.researchId}/`;
  while (!(await until())) {
    const next = performance.now() + INTERVAL_MS;
    result.healthz.push(await timed(`${server.base}/healthz`, {}));
    result.cabinet.push(await timed(cabinet, { cookie: server.cookie }));
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  return result;
}

async function processes(
  server: Server,
): Promise<{ status: string; started_at: string | null; finished_at: string | null }[]> {
  const response = await fetch(
    `${server.base}/api/videoprocessor/campaigns-processes-list/?campaign=${server.researchId}`,
    {
      headers: { cookie: server.cookie },
    },
  );
  return (await response.json()).items;
}

async function benchBackend(label: string, databaseUrl?: string): Promise<void> {
  await withServerChild<Omit<Server, keyof ServerChild>>(
    import.meta.filename,
    'processing-api',
    databaseUrl,
    async (server) => {
      console.log(
        `\nThe API while ${PROCESSES} recordings of ${CLIP_SECONDS} s are processed (${server.engineWorkers} engine processes), on ${label}`,
      );
      const idleUntil = performance.now() + IDLE_SECONDS * 1000;
      const idle = await sample(server, () => performance.now() > idleUntil);
      server.child.stdin?.write('go\n');
      const started = performance.now();
      let lastCheck = 0;
      let done = false;
      const busy = await sample(server, async () => {
        if (performance.now() - lastCheck < 1000) return false;
        lastCheck = performance.now();
        const list = await processes(server);
        done = list.every((p) => p.status === 'done' || p.status === 'error' || p.status === 'detection_error');
        return done;
      });
      const seconds = (performance.now() - started) / 1000;
      console.log(`  idle        /healthz  ${percentiles(idle.healthz)}`);
      console.log(`  idle        cabinet   ${percentiles(idle.cabinet)}`);
      console.log(`  processing  /healthz  ${percentiles(busy.healthz)}`);
      console.log(`  processing  cabinet   ${percentiles(busy.cabinet)}`);
      const list = await processes(server);
      console.log(
        `  ${list.filter((p) => p.status === 'done').length}/${list.length} done in ${seconds.toFixed(1)} s: ${((PROCESSES * CLIP_SECONDS) / seconds).toFixed(2)} recording-seconds per second`,
      );
    },
  );
}

if (process.argv[2] === '--server') {
  await runServer(process.argv[3] ?? '', process.argv[4]);
} else {
  const url = process.env.BENCH_DATABASE_URL;
  if (url) await benchBackend('PostgreSQL', url);
  await benchBackend('the embedded database (PGlite)');
}
