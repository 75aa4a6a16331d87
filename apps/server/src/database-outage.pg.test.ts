import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import { type Database, openDatabase } from './db/client.ts';
import { chunksOf, photoClip } from './test/clips.ts';
import { Client, TEST_PASSWORD } from './test/harness.ts';
import {
  createUserWithCli,
  freePort,
  freshPostgres,
  healthy,
  installationEnv,
  logged,
  startEmolens,
  stopEmolens,
  waitFor,
} from './test/installation.ts';
import { overHttp } from './test/over-http.ts';
import { launchedOverHttp, recordingJourney, respondentClient } from './test/respondent.ts';

/**
 * Issue 16, bad input (decision 025): the database goes away under a running installation (`emolens serve` and
 * `emolens worker` on PostgreSQL) and comes back. Its own database is closed to new connections and every open
 * one is cut, as a restart does to clients, without touching the other tests' databases. While it is away the
 * answers are clear 503s; afterwards everything works again in the same processes, sessions kept, jobs run.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

async function admin<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

describe('the database restarted under a running installation', () => {
  it('answers 503 while it is away, and the same processes carry on when it is back', {
    timeout: 300_000,
  }, async () => {
    if (!TEST_DATABASE_URL) throw new Error('this test needs TEST_DATABASE_URL (PostgreSQL)');
    const database = await freshPostgres(TEST_DATABASE_URL, 'emolens_outage');
    cleanups.push(database.drop);
    const url = new URL(database.url);
    const name = url.pathname.slice(1);
    const dataDir = await mkdtemp(join(tmpdir(), 'emolens-outage-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = installationEnv(dataDir, url.toString(), { PORT: String(port) });
    const api = startEmolens('api', ['serve'], env);
    cleanups.push(() => stopEmolens(api, 'SIGKILL'));
    await waitFor('the API', () => healthy(base), 120);
    const worker = startEmolens('worker', ['worker'], env);
    cleanups.push(() => stopEmolens(worker, 'SIGKILL'));
    await waitFor('the worker', () => logged(worker, 'worker started') === 1, 120);
    // A process that died says why in its own output (how the crash on a cut connection was found).
    onTestFailed(() => {
      for (const proc of [api, worker]) console.error(`${proc.name} said last:\n${proc.lines.slice(-40).join('\n')}`);
    });
    await createUserWithCli(env, 'alice', TEST_PASSWORD);
    const db: Database = await openDatabase({ kind: 'postgres', url: url.toString() });
    cleanups.push(() => db.close());

    const http = overHttp([base]);
    const alice = new Client(http);
    expect((await alice.login('alice')).statusCode).toBe(200);
    const { token, researchId } = await launchedOverHttp(alice, (id) =>
      db.db.updateTable('projects').set({ status: 'active', launched_at: new Date() }).where('id', '=', id).execute(),
    );

    // Away: no new connection is taken, and every open one is cut (the test's own pool too).
    await admin(async (c) => {
      await c.query(`alter database ${name} allow_connections false`);
      await c.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
    });
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'degraded', database: 'down' });
    const projects = await alice.request('GET', '/api/cabinet/projects/');
    expect(projects.statusCode).toBe(503);
    expect(projects.json()).toMatchObject({ code: 'service_unavailable', key: 'database.unavailable' });
    const early = respondentClient(http);
    const refused = await early.start(token);
    expect(refused.statusCode).toBe(503);
    expect(refused.json().key).toBe('database.unavailable');
    // A while later, both processes are still there.
    await new Promise((r) => setTimeout(r, 3_000));
    for (const proc of [api, worker]) expect(proc.child.exitCode).toBeNull();

    // Back: the same processes answer, the session is kept, and a respondent's recording is processed.
    await admin((c) => c.query(`alter database ${name} allow_connections true`));
    await waitFor('the API to see the database again', () => healthy(base), 60);
    expect((await alice.request('GET', '/api/cabinet/projects/')).statusCode).toBe(200);
    const respondent = respondentClient(http);
    expect((await respondent.start(token)).statusCode).toBe(201);
    expect((await respondent.segment()).statusCode).toBe(201);
    const chunks = chunksOf(photoClip('astronaut', 4, 320), 2);
    for (const [index, bytes] of chunks.entries()) {
      expect((await respondent.chunk(0, index, bytes)).statusCode).toBe(201);
    }
    const events = await respondent.events(0, recordingJourney(researchId, 4));
    expect(events.statusCode, events.body).toBe(201);
    const done = await respondent.complete([{ segment: 0, chunks: chunks.length }], 1);
    expect(done.statusCode, done.body).toBe(200);
    await waitFor(
      'the worker to process the recording',
      async () =>
        (
          await db.db
            .selectFrom('video_processes')
            .select('status')
            .where('session_id', '=', respondent.sessionId)
            .executeTakeFirst()
        )?.status === 'done',
      120,
      500,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; the worker said:\n${worker.lines.slice(-40).join('\n')}`);
    });
    expect(logged(worker, 'video processed')).toBe(1);
    for (const proc of [api, worker]) expect(await stopEmolens(proc)).toBe(0);
  });
});
