// npm run bench:respondent — the respondent API under load, on a real server in a child process
// (PostgreSQL when BENCH_DATABASE_URL is set, else the embedded database):
//  1. 200 concurrent respondent sessions on loopback: at the pace of a real recording (a chunk and an
//     event batch every 2 s each), then without pause (the ceiling): requests per second and latency
//     percentiles, per operation and overall;
//  2. 50 parallel recordings of 5 minutes each (150 chunks of 2 s) uploaded and completed: the
//     server's memory growth, throughput, and whether every chunk and every completion arrived.
// Sizes: BENCH_SESSIONS, BENCH_SECONDS, BENCH_RECORDINGS, BENCH_RECORDING_CHUNKS, BENCH_CHUNK_KB; BENCH_PG_ONLY=1
// skips the embedded database, BENCH_PACED_ONLY=1 the run without pause.
// Prints figures; asserts nothing.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  CONSENT_POLICY_VERSION,
  RESPONDENT_LIMITS,
  type RespondentEvent,
  type SessionState,
  type StartSessionOutput,
} from '@emolens/contracts';
import { announce, benchApp, envNumber, percentiles, type ServerChild, withServerChild } from './server-child.ts';

const SESSIONS = envNumber('BENCH_SESSIONS', 200);
const SECONDS = envNumber('BENCH_SECONDS', 20);
const RECORDINGS = envNumber('BENCH_RECORDINGS', 50);
const RECORDING_CHUNKS = envNumber('BENCH_RECORDING_CHUNKS', 150);
const CHUNK_KB = envNumber('BENCH_CHUNK_KB', 160);
const MiB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Server mode: `respondent.ts --server <dataDir> [databaseUrl]` runs the real app with a launched
// project (one contentless research, one quota link without a quota) and prints its port and token.
// ---------------------------------------------------------------------------------------------
async function runServer(dataDir: string, databaseUrl: string | undefined): Promise<void> {
  const { Client, markLaunched, seedUser } = await import('../apps/server/src/test/harness.ts');
  const { app } = await benchApp(dataDir, databaseUrl);
  await seedUser(app, 'bench');
  const analyst = new Client(app);
  await analyst.login('bench');
  const projectId = await analyst.draftProject('old');
  await analyst.readyToLaunch(projectId);
  const links = await analyst.request('GET', `/api/cabinet/projects/${projectId}/project-accessor-links/`);
  const token: string = links.json().items[0].token;
  await markLaunched(app, projectId);
  await announce(app, { token });
}

// ---------------------------------------------------------------------------------------------
// Client mode.
// ---------------------------------------------------------------------------------------------
type Server = ServerChild & { token: string };

async function rssOf(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(text)?.[1] ?? 0) * 1024;
}

const latencies = new Map<string, number[]>();
/** The server's own time per operation (its Server-Timing header): what remains is the client's and the kernel's queueing. */
const serverTimes = new Map<string, number[]>();
let failures = 0;

function record(into: Map<string, number[]>, op: string, ms: number): void {
  const list = into.get(op) ?? [];
  list.push(ms);
  into.set(op, list);
}

async function call<T>(op: string, url: string, init: RequestInit, secret?: string): Promise<T> {
  const headers = new Headers(init.headers);
  if (secret) headers.set('authorization', `Bearer ${secret}`);
  if (typeof init.body === 'string') headers.set('content-type', 'application/json');
  const start = performance.now();
  const response = await fetch(url, { ...init, headers });
  const body = await response.text();
  record(latencies, op, performance.now() - start);
  const server = /dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '');
  if (server) record(serverTimes, op, Number(server[1]));
  if (!response.ok) {
    failures++;
    throw new Error(`${op}: ${response.status} ${body.slice(0, 200)}`);
  }
  return (body ? JSON.parse(body) : null) as T;
}

/** A chunk as the recorder sends it: chunk 0 begins with the webm (EBML) header. */
function chunkBytes(index: number, size: number): Buffer {
  const bytes = randomBytes(size);
  if (index === 0) Buffer.from([0x1a, 0x45, 0xdf, 0xa3]).copy(bytes, 0);
  return bytes;
}

class Respondent {
  secret = '';
  state!: SessionState;
  segment = 0;
  chunks = 0;
  seq = 0;
  private readonly started = performance.now();

  constructor(
    private readonly server: Server,
    private readonly participant: string,
  ) {}

  private url(path: string) {
    return `${this.server.base}/r/sessions/${this.state.session_id}${path}`;
  }

  /** Milliseconds on the session clock, a little behind the server's own. */
  private now() {
    return Math.max(0, performance.now() - this.started - 500);
  }

  async start(): Promise<void> {
    const { base, token } = this.server;
    await call('link', `${base}/r/links/${token}`, {});
    const started = await call<StartSessionOutput>('start', `${base}/r/links/${token}/sessions`, {
      method: 'POST',
      body: JSON.stringify({
        consent: { accepted: true, policy_version: CONSENT_POLICY_VERSION, language: 'en', panel_consent: true },
        panel: { participant_id: this.participant },
        screen: { width: 1920, height: 1080, device_pixel_ratio: 1 },
      }),
    });
    this.secret = started.secret;
    this.state = started.session;
    const segment = await call<{ segment: number }>(
      'segment',
      this.url('/segments'),
      {
        method: 'POST',
        body: JSON.stringify({ mime_type: 'video/webm', screen: { width: 1920, height: 1080, device_pixel_ratio: 1 } }),
      },
      this.secret,
    );
    this.segment = segment.segment;
  }

  async chunk(size: number): Promise<void> {
    const body = chunkBytes(this.chunks, size);
    await call(
      'chunk',
      this.url(`/segments/${this.segment}/chunks/${this.chunks}`),
      {
        method: 'PUT',
        body: new Uint8Array(body),
        headers: {
          'content-type': 'application/octet-stream',
          'x-chunk-sha256': createHash('sha256').update(body).digest('hex'),
        },
      },
      this.secret,
    );
    this.chunks++;
  }

  async events(events: RespondentEvent[]): Promise<void> {
    await call(
      'events',
      this.url('/events'),
      { method: 'POST', body: JSON.stringify({ seq: this.seq, events }) },
      this.secret,
    );
    this.seq++;
  }

  /** A batch of ten calibration dots at the current time. */
  async dots(): Promise<void> {
    const t = this.now();
    await this.events(
      Array.from({ length: 10 }, (_, i) => ({ type: 'calibration_dot' as const, t, x: i * 100, y: i * 50 })),
    );
  }

  async read(): Promise<void> {
    this.state = await call<SessionState>('state', this.url(''), {}, this.secret);
  }

  /** The calibration and every research shown, then the completion. */
  async complete(): Promise<string> {
    const t = this.now();
    const events: RespondentEvent[] = [
      { type: 'calibration_start', t },
      { type: 'calibration_end', t },
      { type: 'validation_end', t },
    ];
    this.state.researches.forEach((research, index) => {
      events.push({ type: 'research_start', t, campaign_id: research.campaign_id, index });
      events.push({ type: 'research_end', t, campaign_id: research.campaign_id });
    });
    await this.events(events);
    const end = await call<{ outcome: string }>(
      'complete',
      this.url('/complete'),
      {
        method: 'POST',
        body: JSON.stringify({ segments: [{ segment: this.segment, chunks: this.chunks }], event_batches: this.seq }),
      },
      this.secret,
    );
    return end.outcome;
  }
}

/** Part 1: SESSIONS respondents at once: at the pace of a real recording, then without pause. */
async function concurrentSessions(server: Server): Promise<void> {
  const respondents = Array.from({ length: SESSIONS }, (_, i) => new Respondent(server, `load-${i}`));
  latencies.clear();
  serverTimes.clear();
  failures = 0;
  await Promise.all(respondents.map((r) => r.start()));
  console.log(`  ${SESSIONS} sessions started: ${percentiles([...(latencies.get('start') ?? [])])} (start)`);

  // (a) As respondents really send: every 2 s a recorder chunk and an event batch, each session on
  // its own phase, and now and then the state (a reload). Latency at the load a field brings.
  latencies.clear();
  serverTimes.clear();
  const slice = RESPONDENT_LIMITS.timesliceMs;
  const pacedUntil = performance.now() + SECONDS * 1000;
  let begin = performance.now();
  let requests = 0;
  await Promise.all(
    respondents.map(async (r, i) => {
      await sleep((i / respondents.length) * slice);
      for (let tick = 0; performance.now() < pacedUntil; tick++) {
        const next = performance.now() + slice;
        await r.chunk(CHUNK_KB * 1024);
        await r.dots();
        requests += 2;
        if (tick % 10 === 9) {
          await r.read();
          requests++;
        }
        await sleep(next - performance.now());
      }
    }),
  );
  let elapsed = (performance.now() - begin) / 1000;
  console.log(
    `  (a) ${SESSIONS} sessions recording at the real pace (a ${CHUNK_KB} KB chunk + an event batch every ${slice / 1000} s) for ${SECONDS} s: ${(requests / elapsed).toFixed(0)} requests/s, ${failures} failed`,
  );
  report(['events', 'chunk', 'state']);

  // (b) As fast as they can: each session sends the next request when the last is answered.
  if (process.env.BENCH_PACED_ONLY) return;
  latencies.clear();
  serverTimes.clear();
  const floodUntil = performance.now() + SECONDS * 1000;
  begin = performance.now();
  requests = 0;
  await Promise.all(
    respondents.map(async (r) => {
      while (performance.now() < floodUntil) {
        await r.dots();
        await r.chunk(16 * 1024);
        await r.read();
        requests += 3;
      }
    }),
  );
  elapsed = (performance.now() - begin) / 1000;
  console.log(
    `  (b) ${SESSIONS} sessions sending without pause for ${SECONDS} s: ${(requests / elapsed).toFixed(0)} requests/s (the ceiling), ${failures} failed`,
  );
  report(['events', 'chunk', 'state']);
}

function report(ops: string[]): void {
  for (const [label, times] of [
    ['as the client saw it', latencies],
    ['inside the server (Server-Timing)', serverTimes],
  ] as const) {
    console.log(`    ${label}:`);
    const all: number[] = [];
    for (const op of ops) {
      const samples = times.get(op) ?? [];
      console.log(`      ${op.padEnd(9)} ${percentiles(samples)}`);
      all.push(...samples);
    }
    console.log(`      ${'all'.padEnd(9)} ${percentiles(all)}`);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Part 2: RECORDINGS respondents upload RECORDING_CHUNKS chunks each in parallel, then complete. */
async function parallelRecordings(server: Server): Promise<void> {
  latencies.clear();
  serverTimes.clear();
  failures = 0;
  const pid = server.child.pid ?? 0;
  const before = await rssOf(pid);
  let peak = before;
  const poll = setInterval(async () => {
    peak = Math.max(peak, await rssOf(pid));
  }, 100);
  const size = CHUNK_KB * 1024;
  const begin = performance.now();
  const respondents = Array.from({ length: RECORDINGS }, (_, i) => new Respondent(server, `rec-${i}`));
  const outcomes = await Promise.all(
    respondents.map(async (r) => {
      await r.start();
      for (let i = 0; i < RECORDING_CHUNKS; i++) {
        await r.chunk(size);
        if (i % 5 === 4) await r.dots();
      }
      const outcome = await r.complete();
      await r.read();
      return { outcome, stored: r.state.segments.reduce((sum, s) => sum + s.chunks, 0) };
    }),
  );
  clearInterval(poll);
  const elapsed = (performance.now() - begin) / 1000;
  const bytes = RECORDINGS * RECORDING_CHUNKS * size;
  const complete = outcomes.filter((o) => o.outcome === 'complete').length;
  const stored = outcomes.reduce((sum, o) => sum + o.stored, 0);
  console.log(
    `  ${RECORDINGS} recordings × ${RECORDING_CHUNKS} chunks of ${CHUNK_KB} KB (${((RECORDING_CHUNKS * 2) / 60).toFixed(0)} min each at 2 s a chunk): ${(bytes / MiB).toFixed(0)} MiB in ${elapsed.toFixed(1)} s (${(bytes / MiB / elapsed).toFixed(0)} MiB/s)`,
  );
  console.log(
    `    server RSS ${(before / MiB).toFixed(0)} MiB before, peak ${(peak / MiB).toFixed(0)} MiB: growth ${((peak - before) / MiB).toFixed(0)} MiB`,
  );
  console.log(
    `    completed ${complete}/${RECORDINGS}; chunks stored ${stored}/${RECORDINGS * RECORDING_CHUNKS}; ${failures} failed requests`,
  );
  console.log(`    ${'chunk'.padEnd(9)} ${percentiles(latencies.get('chunk') ?? [])}`);
}

async function benchBackend(label: string, databaseUrl?: string): Promise<void> {
  await withServerChild<{ token: string }>(import.meta.filename, 'respondent', databaseUrl, async (server) => {
    console.log(`\nRespondent API on ${label}`);
    await concurrentSessions(server);
    await parallelRecordings(server);
  });
}

if (process.argv[2] === '--server') {
  await runServer(process.argv[3] ?? '', process.argv[4]);
} else {
  const url = process.env.BENCH_DATABASE_URL;
  if (url) await benchBackend('PostgreSQL', url);
  if (!process.env.BENCH_PG_ONLY) await benchBackend('the embedded database (PGlite)');
}
