import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { RUNNING_PROCESS_STATUSES } from '@emolens/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { chunksOf, photoClip } from '../apps/server/src/test/clips.ts';
import { type EmolensProcess, waitFor } from '../apps/server/src/test/installation.ts';
import { type Injector, overHttp } from '../apps/server/src/test/over-http.ts';
import { recordingJourney, respondentClient, sha256Hex } from '../apps/server/src/test/respondent.ts';
import { machineBusy, machineCpu, ownCpu, treeCpu } from './scale-out-cpu.ts';
import {
  cleanUp,
  expectStatus,
  type Installation,
  install,
  launchedProject,
  processes,
  start,
  stop,
} from './scale-out-installation.ts';
import { percentiles } from './server-child.ts';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const RESPONDENTS = env('BENCH_RESPONDENTS', 12);
const CLIENTS = env('BENCH_CLIENTS', 32);
const SECONDS = env('BENCH_SECONDS', 20);
const WARMUP_SECONDS = env('BENCH_WARMUP_SECONDS', 5);
/** The respondents' recordings, in turn: webcam-like (640 px wide), 6 to 10 s. */
const CLIP_SECONDS = [6, 7, 8, 9, 10];
const CLIP_WIDTH = 640;
/** Part 2's chunks: a real webm (30 s, 640 px) cut in this many slices of recorder size (~180 KB). */
const LOAD_CHUNKS = 5;

// ---------------------------------------------------------------------------------------------
// S3 mode: `scale-out.ts --s3` runs the S3 server apart from the load generator's event loop, prints its S3_*
// environment as one JSON line, and stops (removing its objects) on SIGTERM or when the parent goes away.
// ---------------------------------------------------------------------------------------------
async function runS3(): Promise<void> {
  const { startS3Server } = await import('../apps/server/src/test/s3-server.ts');
  const s3 = await startS3Server();
  process.stdout.write(`${JSON.stringify(s3.env)}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    s3.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
}

// ---------------------------------------------------------------------------------------------
// CPU accounting from /proc (Linux): where the machine's cores went during a measurement.
// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Part 1: processing throughput with 1 and 2 workers.
// ---------------------------------------------------------------------------------------------
interface LogEntry {
  time: number;
  msg: string;
  process?: string;
}

function entries(proc: EmolensProcess, msg: string): LogEntry[] {
  return proc.lines
    .filter((l) => l.includes(`"msg":"${msg}"`))
    .map((l) => JSON.parse(l) as LogEntry)
    .filter((e) => e.msg === msg);
}

async function processing(installation: Installation, workers: number): Promise<number> {
  const { db, bases, env: vars } = installation;
  const { token, researchId } = await launchedProject(installation, RESPONDENTS);
  const http = overHttp(bases);
  // Every respondent at once, through both APIs, while no worker runs.
  const outcomes = await Promise.all(
    Array.from({ length: RESPONDENTS }, async (_, i) => {
      const seconds = CLIP_SECONDS[i % CLIP_SECONDS.length] as number;
      const chunks = chunksOf(photoClip('astronaut', seconds, CLIP_WIDTH), Math.ceil(seconds / 2));
      const r = respondentClient(http);
      expectStatus('start', await r.start(token), 201);
      expectStatus('segment', await r.segment(), 201);
      for (const [index, bytes] of chunks.entries()) expectStatus('chunk', await r.chunk(0, index, bytes), 201);
      expectStatus('events', await r.events(0, recordingJourney(researchId, seconds)), 201);
      const done = await r.complete([{ segment: 0, chunks: chunks.length }], 1);
      expectStatus('complete', done, 200);
      return done.json().outcome as string;
    }),
  );
  const complete = outcomes.filter((o) => o === 'complete').length;
  const states = async () =>
    (
      await db.query<{ status: string; n: number }>(
        'select status, count(*)::int as n from video_processes where campaign_id = $1 group by status',
        [researchId],
      )
    ).rows;
  const count = async (running: boolean) =>
    (await states())
      .filter((s) => (RUNNING_PROCESS_STATUSES as readonly string[]).includes(s.status) === running)
      .reduce((sum, s) => sum + s.n, 0);
  await waitFor('a video process per completed respondent', async () => (await count(true)) === complete, 60);

  const spawned = Date.now();
  const procs = Array.from({ length: workers }, (_, i) =>
    start(`worker${i}`, ['worker'], { ...vars, LOG_LEVEL: 'info' }),
  );
  // Machine CPU from the first job on (the start-up is not timed), sampled when the first start is seen.
  let busyAtFirst: number | undefined;
  let workersAtFirst: number[] = [];
  let firstSeenAt = 0;
  await waitFor(
    'every video process to end',
    async () => {
      if (busyAtFirst === undefined && procs.some((p) => entries(p, 'video process started').length)) {
        busyAtFirst = machineBusy();
        workersAtFirst = procs.map((p) => treeCpu(p.child.pid));
        firstSeenAt = performance.now();
      }
      return (await count(false)) === complete;
    },
    600,
    200,
  );
  const busy = machineBusy() - (busyAtFirst ?? machineBusy());
  const workersCpu = procs.reduce((sum, p, i) => sum + treeCpu(p.child.pid) - (workersAtFirst[i] ?? 0), 0);
  const busySpan = (performance.now() - firstSeenAt) / 1000;
  const started = procs.flatMap((p) => entries(p, 'video process started'));
  const processed = procs.flatMap((p) => entries(p, 'video processed'));
  const first = Math.min(...started.map((e) => e.time));
  const last = Math.max(...processed.map((e) => e.time));
  const wall = (last - first) / 1000;
  const { rows } = await db.query<{ seconds: number; done: number }>(
    `select coalesce(sum(r.recording_seconds), 0)::float8 as seconds, count(*) filter (where p.status = 'done')::int as done
       from video_processes p left join process_results r on r.id = p.result_id where p.campaign_id = $1`,
    [researchId],
  );
  const seconds = rows[0]?.seconds ?? 0;
  const rate = seconds / wall;
  const label = `${workers} worker${workers > 1 ? 's' : ' '}`;
  console.log(
    `  ${label}: ${seconds.toFixed(1)} recording-s in ${wall.toFixed(1)} wall-s = ${rate.toFixed(2)} recording-s per wall-s  ` +
      `(${rows[0]?.done}/${complete} done; start-up to the first job ${((first - spawned) / 1000).toFixed(1)} s, not timed; ` +
      `machine CPU ${((100 * busy) / busySpan / availableParallelism()).toFixed(0)}% busy meanwhile, ` +
      `${((100 * workersCpu) / busySpan / availableParallelism()).toFixed(0)}% in the workers and their engine processes)`,
  );
  for (const proc of procs) {
    const begun = new Map(entries(proc, 'video process started').map((e) => [e.process, e.time]));
    const jobs = entries(proc, 'video processed').map((e) => ({
      begin: begun.get(e.process) ?? e.time,
      seconds: (e.time - (begun.get(e.process) ?? e.time)) / 1000,
    }));
    jobs.sort((a, b) => a.begin - b.begin);
    const [head, ...rest] = jobs;
    const others = rest.map((j) => j.seconds).sort((a, b) => a - b);
    console.log(
      `    ${proc.name}: ${jobs.length} recordings, its first began ${(((head?.begin ?? first) - first) / 1000).toFixed(1)} s in ` +
        `and took ${head?.seconds.toFixed(1) ?? '-'} s (the engine process is forked and loads its models then), ` +
        `the others ${others.length ? `p50 ${others[Math.floor(others.length / 2)]?.toFixed(1)} s` : '-'}`,
    );
  }
  await Promise.all(procs.map((p) => stop(p.child)));
  return rate;
}

// ---------------------------------------------------------------------------------------------
// Part 2: the respondent API's requests per second with 1 and 2 API processes.
// ---------------------------------------------------------------------------------------------
interface Sample {
  op: string;
  end: number;
  ms: number;
}

interface Load {
  token: string;
  researchId: string;
  chunks: Buffer[];
}

type Timed = (op: string, status: number, call: () => Promise<LightMyRequestResponse>) => Promise<void>;

/** CLIENTS virtual respondents, each looping start → segment → chunk PUTs → events, until `to`. */
async function drive(http: Injector, load: Load, to: number, timed: Timed): Promise<void> {
  const shas = load.chunks.map(sha256Hex);
  const events = recordingJourney(load.researchId, 10);
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < to) {
        const r = respondentClient(http);
        try {
          await timed('start', 201, () => r.start(load.token));
          await timed('segment', 201, () => r.segment());
          for (const [index, bytes] of load.chunks.entries()) {
            if (performance.now() >= to) break;
            await timed('chunk', 201, () => r.chunk(0, index, bytes, shas[index]));
          }
          await timed('events', 201, () => r.events(0, events));
        } catch {
          // Counted by `timed`; the next session begins.
        }
      }
    }),
  );
}

/** The same load over every API process, unmeasured: each process's code is compiled and optimised before either run. */
async function warmUp(installation: Installation, load: Load): Promise<void> {
  await drive(
    overHttp(installation.bases),
    load,
    performance.now() + WARMUP_SECONDS * 1000,
    async (op, status, call) => {
      const res = await call();
      if (res.statusCode !== status) throw new Error(`${op}: ${res.statusCode} ${res.body.slice(0, 160)}`);
    },
  );
}

async function apiLoad(installation: Installation, apis: number, load: Load): Promise<number> {
  const bases = installation.bases.slice(0, apis);
  const http = overHttp(bases);
  const samples: Sample[] = [];
  let failed = 0;
  let firstFailure = '';
  const timed: Timed = async (op, status, call) => {
    const begin = performance.now();
    const res = await call();
    const end = performance.now();
    if (res.statusCode !== status) {
      failed++;
      firstFailure ||= `${op}: ${res.statusCode} ${res.body.slice(0, 160)}`;
      throw new Error(firstFailure);
    }
    samples.push({ op, end, ms: end - begin });
  };
  const begin = performance.now();
  const from = begin + WARMUP_SECONDS * 1000;
  const to = from + SECONDS * 1000;
  const pids = [...installation.apis.slice(0, apis).map((a) => a.child.pid), installation.s3.pid];
  const snapshot = () => ({ machine: machineCpu(), own: ownCpu(), tree: pids.map(treeCpu) });
  let atFrom = snapshot();
  let atTo = atFrom;
  // The database's CPU: the PostgreSQL backends serving this database (the processes' connections), and the
  // server's background processes (WAL writer, checkpointer, …: shared with any other database on the server).
  const backends = async () => {
    const { rows } = await installation.db.query<{ pid: number; ours: boolean }>(
      'select pid, datname is not null as ours from pg_stat_activity where datname = current_database() or datname is null',
    );
    return new Map(rows.map((r) => [r.pid, { ours: r.ours, cpu: treeCpu(r.pid) }]));
  };
  let pgFrom = Promise.resolve(new Map<number, { ours: boolean; cpu: number }>());
  let pgTo = pgFrom;
  const timers = [
    setTimeout(() => {
      atFrom = snapshot();
      pgFrom = backends();
    }, from - begin),
    setTimeout(() => {
      atTo = snapshot();
      pgTo = backends();
    }, to - begin),
  ];
  await drive(http, load, to, timed);
  for (const timer of timers) clearTimeout(timer);
  const [pgAtFrom, pgAtTo] = await Promise.all([pgFrom, pgTo]);
  const pgCpu = (ours: boolean) =>
    [...pgAtTo]
      .filter(([, b]) => b.ours === ours)
      .reduce((sum, [pid, b]) => sum + b.cpu - (pgAtFrom.get(pid)?.cpu ?? 0), 0);
  const window = samples.filter((s) => s.end >= from && s.end < to);
  const rate = window.length / SECONDS;
  const chunkBytes = load.chunks.reduce((sum, c) => sum + c.length, 0) / load.chunks.length;
  const chunkCount = window.filter((s) => s.op === 'chunk').length;
  const label = `${apis} API process${apis > 1 ? 'es' : '  '}`;
  console.log(
    `  ${label}: ${rate.toFixed(0)} requests/s, p50 ${percentile(window, 0.5)} ms, p95 ${percentile(window, 0.95)} ms ` +
      `(${window.length} requests; ${((chunkCount * chunkBytes) / SECONDS / 1024 / 1024).toFixed(1)} MiB/s of chunks; ${failed} failed${firstFailure ? `, first: ${firstFailure}` : ''})`,
  );
  for (const op of ['start', 'segment', 'chunk', 'events']) {
    console.log(`    ${op.padEnd(8)} ${percentiles(window.filter((s) => s.op === op).map((s) => s.ms))}`);
  }
  const served = bases.map((b) => http.served.get(b) ?? 0);
  const cpu = (i: number) => (atTo.tree[i] ?? 0) - (atFrom.tree[i] ?? 0);
  const apiCpu = bases.map((_, i) => cpu(i).toFixed(1)).join(' + ');
  const machine = atTo.machine.busy - atFrom.machine.busy;
  const interrupts = atTo.machine.interrupts - atFrom.machine.interrupts;
  const apiTotal = bases.reduce((sum, _, i) => sum + cpu(i), 0);
  const own = atTo.own - atFrom.own;
  const known = apiTotal + cpu(bases.length) + own + pgCpu(true) + pgCpu(false) + interrupts;
  console.log(
    `    requests per API process (warm-up included): ${served.join(' / ')}; API CPU per request ${((1000 * apiTotal) / window.length).toFixed(2)} ms`,
  );
  console.log(
    `    CPU-s in the measured ${SECONDS} s (of ${availableParallelism() * SECONDS} core-s): machine ${machine.toFixed(1)} = ` +
      `API ${apiCpu}, PostgreSQL ${pgCpu(true).toFixed(1)} (+ ${pgCpu(false).toFixed(1)} background, shared), ` +
      `S3 server ${cpu(bases.length).toFixed(1)}, load generator ${own.toFixed(1)}, kernel interrupts ${interrupts.toFixed(1)}, ` +
      `other work on the machine ${(machine - known).toFixed(1)}`,
  );
  return rate;
}

function percentile(samples: Sample[], q: number): string {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  return (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
}

// ---------------------------------------------------------------------------------------------
// The run.
// ---------------------------------------------------------------------------------------------
async function main(): Promise<void> {
  const [load1, load5, load15] = loadavg().map((l) => l.toFixed(2));
  console.log(
    `Scale-out on ${availableParallelism()} cores (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ` +
      `Node ${process.version}; load average ${load1} / ${load5} / ${load15} before the run`,
  );
  console.log(
    '  Every process (APIs, workers and their engine processes, PostgreSQL, the S3 server, and this load generator)\n' +
      '  shares these cores: the figures are a lower bound of what separate machines would give.',
  );
  const idle = machineBusy();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  console.log(
    `  Before the run, other work kept the machine ${((100 * (machineBusy() - idle)) / 2 / availableParallelism()).toFixed(0)}% busy (2 s sample).`,
  );
  const started = performance.now();
  // Made (and cached) before anything is timed.
  for (const seconds of CLIP_SECONDS) photoClip('astronaut', seconds, CLIP_WIDTH);
  const loadClip = photoClip('astronaut', 30, CLIP_WIDTH);
  const installation = await install();
  console.log(`  (2 API processes, PostgreSQL and S3 ready in ${((performance.now() - started) / 1000).toFixed(0)} s)`);

  const clipTotal = Array.from({ length: RESPONDENTS }, (_, i) => CLIP_SECONDS[i % CLIP_SECONDS.length] as number);
  console.log(
    `\n1. Processing: ${RESPONDENTS} respondents' recordings (${Math.min(...CLIP_SECONDS)}–${Math.max(...CLIP_SECONDS)} s, ` +
      `${CLIP_WIDTH} px wide, ${clipTotal.reduce((a, b) => a + b, 0)} s in all) completed through the API while no worker runs,\n` +
      `   then \`emolens worker\` processes started (ENGINE_WORKERS=1 each). Timed from the first 'video process started'\n` +
      `   log line to the last 'video processed' (the workers' start-up is excluded; the engine process's fork and model\n` +
      '   load, on each worker\'s first recording, is not: see "its first ... took")',
  );
  const one = await processing(installation, 1);
  const two = await processing(installation, 2);
  console.log(`  speed-up of 2 workers over 1: ${(two / one).toFixed(2)}x`);

  const chunks = chunksOf(loadClip, LOAD_CHUNKS);
  const load = { ...(await launchedProject(installation)), chunks };
  console.log(
    `\n2. Respondent API: ${CLIENTS} concurrent virtual respondents, each looping start → segment → ${chunks.length} chunk PUTs of ` +
      `${((chunks[0]?.length ?? 0) / 1024).toFixed(0)} KB\n` +
      `   (slices of a real webm) → events, round-robin over the API processes; ${WARMUP_SECONDS} s warm-up, then ${SECONDS} s measured\n` +
      `   (before both, ${WARMUP_SECONDS} s of it over both processes, unmeasured). No worker runs. Latency as the load generator saw it:`,
  );
  await warmUp(installation, load);
  const single = await apiLoad(installation, 1, load);
  const double = await apiLoad(installation, 2, load);
  console.log(`  speed-up of 2 API processes over 1: ${(double / single).toFixed(2)}x`);
  console.log(`\n(whole bench ${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

if (process.argv[2] === '--s3') {
  await runS3();
} else {
  process.once('SIGINT', () => {
    void cleanUp().finally(() => process.exit(130));
  });
  try {
    await main();
  } catch (err) {
    // What the installation's processes said last, for the reason of the failure.
    for (const proc of processes) console.error(`--- ${proc.name}\n${proc.lines.slice(-15).join('\n')}`);
    throw err;
  } finally {
    await cleanUp();
  }
}
