// npm run bench:processing-api — does the API stay fast while recordings are processed? (issue 10,
// design section 7: the engine never runs on the API's event loop.) A real all-in-one server in a
// child process (jobs and engine pool in it, like `npm start`; PostgreSQL when BENCH_DATABASE_URL is
// set, else the embedded database) holds BENCH_PROCESSES collected recordings of BENCH_CLIP_SECONDS
// each (a real face). /healthz and a cabinet call are timed every 25 ms: first idle, then while every
// engine process is busy with the recordings. Prints latency percentiles and processing figures.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const PROCESSES = env('BENCH_PROCESSES', 4);
const CLIP_SECONDS = env('BENCH_CLIP_SECONDS', 30);
const IDLE_SECONDS = env('BENCH_IDLE_SECONDS', 10);
const INTERVAL_MS = 25;

// ---------------------------------------------------------------------------------------------
// Server mode: `processing-api.ts --server <dataDir> [databaseUrl]`.
// ---------------------------------------------------------------------------------------------
async function runServer(dataDir: string, databaseUrl: string | undefined): Promise<void> {
  const { buildApp, databaseTarget } = await import('../apps/server/src/app.ts');
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { openDatabase } = await import('../apps/server/src/db/client.ts');
  const { migrateToLatest } = await import('../apps/server/src/db/migrate.ts');
  const { loggedIn } = await import('../apps/server/src/test/harness.ts');
  const { chunksOf, photoClip } = await import('../apps/server/src/test/clips.ts');
  const { launchedLink } = await import('../apps/server/src/test/respondent.ts');
  const rows = await import('../apps/server/src/test/respondent-rows.ts');
  const { queueWaiting } = await import('../apps/server/src/modules/processing/processing.service.ts');
  const unlimited = '100000000';
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    HOST: '127.0.0.1',
    PORT: '0',
    WEB_DIST: join(dataDir, 'no-web'),
    RATE_LIMIT_PER_MINUTE: unlimited,
    ADDRESS_RATE_LIMIT_PER_MINUTE: unlimited,
    PUBLIC_RATE_LIMIT_PER_MINUTE: unlimited,
  });
  const database = await openDatabase(databaseTarget(config));
  await migrateToLatest(database.db);
  const app = await buildApp(config, { database });
  const { alice } = await loggedIn(app, 'alice');
  const link = await launchedLink(app, alice);
  const campaignId = link.campaignIds[0] as string;
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
      { type: 'research_start', t: 0, campaign_id: campaignId, index: 0 },
      { type: 'research_end', t: CLIP_SECONDS * 1000 - 500, campaign_id: campaignId },
    ]);
    await rows.insertVideoProcess(app, { sessionId, campaignId, status: 'collected' });
  }
  await app.ctx.queue.start({ work: true });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const cookie = [...alice.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  process.stdout.write(`${JSON.stringify({ port, cookie, campaignId, engineWorkers: config.engineWorkers })}\n`);
  // The parent says when the idle measurement is over.
  process.stdin.once('data', () => {
    void queueWaiting(app.ctx.deps);
  });
  process.on('SIGTERM', () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Client mode.
// ---------------------------------------------------------------------------------------------
interface Server {
  child: ChildProcess;
  base: string;
  cookie: string;
  campaignId: string;
  engineWorkers: number;
}

function startServer(dataDir: string, databaseUrl?: string): Promise<Server> {
  const args = ['--import', 'tsx', import.meta.filename, '--server', dataDir, ...(databaseUrl ? [databaseUrl] : [])];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let ready = false;
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line && !ready) {
        ready = true;
        const facts = JSON.parse(line);
        resolve({ child, base: `http://127.0.0.1:${facts.port}`, ...facts });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

function percentiles(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `n ${String(sorted.length).padStart(5)}  p50 ${at(0.5).toFixed(1).padStart(6)} ms  p95 ${at(0.95).toFixed(1).padStart(6)}  p99 ${at(0.99).toFixed(1).padStart(6)}  max ${at(1).toFixed(1).padStart(6)}`;
}

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
  const cabinet = `${server.base}/api/cabinet/campaigns/${server.campaignId}/`;
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
    `${server.base}/api/videoprocessor/campaigns-processes-list/?campaign=${server.campaignId}`,
    {
      headers: { cookie: server.cookie },
    },
  );
  return (await response.json()).items;
}

async function benchBackend(label: string, databaseUrl?: string): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'emolens-bench-processing-api-'));
  let database: { url: string; drop(): Promise<void> } | undefined;
  if (databaseUrl) {
    const name = `emolens_bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    database = {
      url: url.toString(),
      drop: async () => {
        const c = new pg.Client({ connectionString: databaseUrl });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const server = await startServer(dataDir, database?.url);
  try {
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
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--server') {
  await runServer(process.argv[3] ?? '', process.argv[4]);
} else {
  const url = process.env.BENCH_DATABASE_URL;
  if (url) await benchBackend('PostgreSQL', url);
  await benchBackend('the embedded database (PGlite)');
}
