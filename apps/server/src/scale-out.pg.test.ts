import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CSRF_COOKIE, CSRF_HEADER } from '@emolens/contracts';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './db/client.ts';
import { S3Storage } from './modules/media/storage.ts';
import { chunksOf, photoClip } from './test/clips.ts';
import { Client, TEST_PASSWORD } from './test/harness.ts';
import {
  createUserWithCli,
  type EmolensProcess,
  freePort,
  freshPostgres,
  healthy,
  installationEnv,
  logged,
  NO_RATE_LIMITS,
  startEmolens,
  stopEmolens,
  waitFor,
} from './test/installation.ts';
import { overHttp } from './test/over-http.ts';
import { launchedOverHttp, recordingJourney, respondentClient } from './test/respondent.ts';
import { objectKeys, startS3Server } from './test/s3-server.ts';

/**
 * Issue 16, item 2 (decision 025): the installation past one machine — two `emolens serve` and two `emolens
 * worker` processes on one PostgreSQL database and an S3 server — with respondents whose requests alternate
 * between the APIs, a worker killed mid-job, an API killed mid-upload, and the schedules. Runs on PostgreSQL
 * only (vitest.config.ts includes `*.pg.test.ts` when TEST_DATABASE_URL is set): the embedded database has one
 * owner process and cannot be shared.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const RESPONDENTS = 8;
const QUOTA = 5;
const CLIP_SECONDS = 6;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'emolens-scale-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function freshDatabase(): Promise<string> {
  if (!TEST_DATABASE_URL) throw new Error('this test needs TEST_DATABASE_URL (PostgreSQL)');
  const database = await freshPostgres(TEST_DATABASE_URL, 'emolens_scale');
  cleanups.push(database.drop);
  return database.url;
}

/** An installation's process, killed when the test ends whatever happens. */
function start(name: string, args: string[], env: Record<string, string>): EmolensProcess {
  const proc = startEmolens(name, args, env);
  cleanups.push(() => stopEmolens(proc, 'SIGKILL'));
  return proc;
}

describe('two API and two worker processes on one PostgreSQL database and S3', () => {
  it('spreads respondents over both APIs, processes every recording once on both workers, keeps quotas exact, loses no job or upload', {
    timeout: 600_000,
  }, async () => {
    const s3 = await startS3Server();
    cleanups.push(() => s3.stop());
    const databaseUrl = await freshDatabase();
    const dataDir = await tempDir();
    // Each API has its own DATA_DIR: unfinished uploads are in the bucket (decision 069), nothing is shared on disk.
    const apiDataDirs = [await tempDir(), await tempDir()];
    const env = installationEnv(dataDir, databaseUrl, {
      ...s3.env,
      ...NO_RATE_LIMITS,
      // The demo account (not its project): both APIs start at once on the empty database, one of them makes it.
      SEED_DEMO: 'true',
      SEED_DEMO_DATA: 'false',
    });
    const ports = [await freePort(), await freePort()];
    const bases = ports.map((port) => `http://127.0.0.1:${port}`);
    const apiEnv = (i: number) => ({ ...env, PORT: String(ports[i]), DATA_DIR: apiDataDirs[i] as string });

    // Both APIs start at once on the empty database: one applies the migrations while the other waits.
    const apis = [0, 1].map((i) => start(`api${i}`, ['serve'], apiEnv(i)));
    await waitFor('both APIs to answer', async () => (await Promise.all(bases.map(healthy))).every(Boolean), 120);
    const demoMade = apis.map((api) => api.lines.filter((l) => l.includes('Demo account created')).length);
    expect(demoMade.sort()).toEqual([0, 1]);
    const workers = [0, 1].map((i) => start(`worker${i}`, ['worker'], env));
    await waitFor('both workers', () => workers.every((w) => logged(w, 'worker started') === 1), 120);
    await createUserWithCli(env, 'alice', TEST_PASSWORD);
    const db: Database = await openDatabase({ kind: 'postgres', url: databaseUrl });
    cleanups.push(() => db.close());

    const http = overHttp(bases);
    const alice = new Client(http);
    expect((await alice.login('alice')).statusCode).toBe(200);

    // A launched project whose scenario takes QUOTA usable respondents.
    const { projectId, token, researchId } = await launchedOverHttp(
      alice,
      (id) =>
        db.db.updateTable('projects').set({ status: 'active', launched_at: new Date() }).where('id', '=', id).execute(),
      QUOTA,
    );

    // RESPONDENTS respondents at once, every request of each going to the other API than the one before.
    const chunks = chunksOf(photoClip('astronaut', CLIP_SECONDS, 320), 3);
    const ends = await Promise.all(
      Array.from({ length: RESPONDENTS }, async () => {
        const r = respondentClient(http);
        expect((await r.start(token)).statusCode).toBe(201);
        expect((await r.segment()).statusCode).toBe(201);
        for (const [index, bytes] of chunks.entries()) expect((await r.chunk(0, index, bytes)).statusCode).toBe(201);
        expect((await r.events(0, recordingJourney(researchId, CLIP_SECONDS))).statusCode).toBe(201);
        const done = await r.complete([{ segment: 0, chunks: chunks.length }], 1);
        expect(done.statusCode, done.body).toBe(200);
        // A repeated completion, at the other API, answers the same end.
        const again = await r.complete([{ segment: 0, chunks: chunks.length }], 1);
        expect(again.json()).toEqual(done.json());
        return { sessionId: r.sessionId, outcome: done.json().outcome as string };
      }),
    );
    for (const base of bases) expect(http.served.get(base)).toBeGreaterThan(RESPONDENTS * 4);
    // The quota is exact though the completions raced on two processes.
    expect(ends.filter((e) => e.outcome === 'complete')).toHaveLength(QUOTA);
    expect(ends.filter((e) => e.outcome === 'quota_full')).toHaveLength(RESPONDENTS - QUOTA);
    // Every chunk is in S3 once.
    const keys = await objectKeys(s3);
    for (const { sessionId } of ends) {
      expect(keys.filter((k) => k.includes(sessionId))).toHaveLength(chunks.length);
    }

    // A worker is killed in the middle of its second recording (after it finished one); the other takes it over.
    await waitFor(
      'a worker to start its second recording',
      () => workers.some((w) => logged(w, 'video processed') === 1 && logged(w, 'video process started') === 2),
      240,
    );
    const victim = workers.find((w) => logged(w, 'video process started') === 2) as EmolensProcess;
    const survivor = workers.find((w) => w !== victim) as EmolensProcess;
    await stopEmolens(victim, 'SIGKILL');
    const processes = () =>
      db.db.selectFrom('video_processes').selectAll().where('campaign_id', '=', researchId).execute();
    await waitFor(
      'every recording to be processed',
      async () => (await processes()).every((p) => p.status === 'done'),
      300,
    );

    const done = await processes();
    expect(done).toHaveLength(QUOTA);
    const results = await db.db.selectFrom('process_results').selectAll().execute();
    expect(results).toHaveLength(QUOTA);
    for (const p of done) {
      expect(results.filter((r) => r.process_id === p.id)).toHaveLength(1);
      expect(p.result_id).toBe(results.find((r) => r.process_id === p.id)?.id);
    }
    // One recording was attempted twice (the killed one); each finished once, on both workers. A worker logs
    // "video processed" just after its row is done, and its output reaches us through a pipe: wait for the line.
    expect(done.map((p) => p.attempts).sort()).toEqual([...Array(QUOTA - 1).fill(1), 2]);
    await waitFor('the survivor to log its last recording', () => logged(survivor, 'video processed') >= QUOTA - 1, 30);
    expect(logged(victim, 'video processed')).toBe(1);
    expect(logged(survivor, 'video processed')).toBe(QUOTA - 1);
    const sessions = await db.db
      .selectFrom('respondent_sessions')
      .select(['quota_state', 'outcome'])
      .where('project_id', '=', projectId)
      .execute();
    expect(sessions.filter((s) => s.quota_state === 'counted')).toHaveLength(QUOTA);

    // An upload resumes at the other API after the one it started at is killed, and the file lands in S3.
    const video = photoClip('astronaut', 2, 320);
    const added = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
      body: {
        project_id: await alice.draftProject(),
        campaigns_data: [{ title: 'Video ad', content_type: 'video' }],
      },
    });
    const videoResearch: string = added.json().campaigns[0].id;
    const tusHeaders = {
      'tus-resumable': '1.0.0',
      cookie: [...alice.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      [CSRF_HEADER]: alice.cookies.get(CSRF_COOKIE) ?? '',
    };
    const metadata = Object.entries({ filename: 'ad.webm', filetype: 'video/webm', campaign_id: videoResearch })
      .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
      .join(',');
    const half = Math.floor(video.length / 2);
    const [first, second] = bases as [string, string];
    const created = await fetch(`${first}/mediaserver`, {
      method: 'POST',
      headers: { ...tusHeaders, 'upload-length': String(video.length), 'upload-metadata': metadata },
    });
    expect(created.status).toBe(201);
    const path = new URL(created.headers.get('location') as string, first).pathname;
    const sent = await fetch(`${first}${path}`, {
      method: 'PATCH',
      headers: { ...tusHeaders, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(video.subarray(0, half)),
    });
    expect(sent.status).toBe(204);
    await stopEmolens(apis[0] as EmolensProcess, 'SIGKILL');
    const head = await fetch(`${second}${path}`, { method: 'HEAD', headers: tusHeaders });
    expect(head.headers.get('upload-offset')).toBe(String(half));
    const rest = await fetch(`${second}${path}`, {
      method: 'PATCH',
      headers: { ...tusHeaders, 'upload-offset': String(half), 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(video.subarray(half)),
    });
    expect(rest.status).toBe(204);
    // The killed API comes back and serves the file from S3 once a worker has probed it.
    apis[0] = start('api0-again', ['serve'], apiEnv(0));
    await waitFor('the first API to answer again', () => healthy(first), 120);
    const media = () => db.db.selectFrom('media').selectAll().where('campaign_id', '=', videoResearch).execute();
    await waitFor('the upload to be probed', async () => (await media())[0]?.status !== 'processing', 120);
    const [row] = await media();
    expect(row, survivor.lines.filter((l) => l.includes('probe')).join('\n')).toMatchObject({ status: 'ready' });
    expect(await objectKeys(s3)).toEqual(expect.arrayContaining([row?.storage_key, row?.poster_key]));
    const served = await fetch(`${first}/api/cabinet/media/${row?.id}/file/`, {
      headers: { cookie: tusHeaders.cookie },
    });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(video);

    // The schedules run once per schedule, not once per worker: pg-boss files each occurrence under its minute (its
    // "slot") and sends one job per slot, at least two minutes of them. Not counted by the jobs' creation minute: a
    // slot's job is made when a worker next takes the send-it job, which can be in the next minute beside that
    // minute's own (CI saw two dispatches created in one minute, for two slots).
    const perSlot = async () =>
      (
        await sql<{ slot: string; n: number }>`
            select data->>'slot' as slot, count(*)::int as n from pgboss.job
            where name = '__pgboss__send-it' and data->>'name' = 'dispatch-processes' group by 1 order by 1`.execute(
          db.db,
        )
      ).rows;
    // Read in one statement (one snapshot): a dispatch job exists only once its slot's send-it job does.
    const counts = async () =>
      (
        await sql<{ dispatches: number; slots: number }>`
            select (select count(*)::int from pgboss.job where name = 'dispatch-processes') as dispatches,
              (select count(distinct data->>'slot')::int from pgboss.job
                where name = '__pgboss__send-it' and data->>'name' = 'dispatch-processes') as slots`.execute(db.db)
      ).rows[0];
    await waitFor('two scheduled minutes dispatched', async () => ((await counts())?.dispatches ?? 0) >= 2, 150);
    for (const slot of await perSlot()) expect(slot.n, slot.slot).toBe(1);
    const { dispatches, slots } = (await counts()) ?? { dispatches: 0, slots: 0 };
    expect(dispatches).toBeLessThanOrEqual(slots);

    // Every process stops cleanly on SIGTERM.
    for (const proc of [...apis, survivor]) expect(await stopEmolens(proc)).toBe(0);
  });
});

/** A tus request's headers for the logged-in client (cookies, CSRF header). */
function tusHeaders(client: Client): Record<string, string> {
  return {
    'tus-resumable': '1.0.0',
    cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    [CSRF_HEADER]: client.cookies.get(CSRF_COOKIE) ?? '',
  };
}

describe('two API processes that share nothing local (issue 33, item 5; decision 069)', () => {
  it('check the bucket at start, count each rate limit once across both, and finish at one an upload started at the other', {
    timeout: 300_000,
  }, async () => {
    const s3 = await startS3Server();
    cleanups.push(() => s3.stop());
    const databaseUrl = await freshDatabase();
    const LIMIT = 12;
    const env = installationEnv(await tempDir(), databaseUrl, {
      ...s3.env,
      ...NO_RATE_LIMITS,
      // The cabinet API's per-client limit, low; the client's address comes from X-Forwarded-For.
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      TRUST_PROXY: 'true',
    });

    // A bucket that does not exist: the process says so and stops before it listens.
    const wrong = start('api-wrong-bucket', ['serve'], {
      ...env,
      S3_BUCKET: 'no-such-bucket',
      PORT: String(await freePort()),
    });
    const code = await new Promise<number | null>((r) => wrong.child.once('exit', r));
    expect(code).toBe(1);
    expect(wrong.lines.join('\n')).toContain('storage check failed: S3_BUCKET no-such-bucket does not exist');

    const ports = [await freePort(), await freePort()];
    const bases = ports.map((port) => `http://127.0.0.1:${port}`);
    const dirs = [await tempDir(), await tempDir()];
    const apis = [0, 1].map((i) =>
      start(`api${i}`, ['serve'], { ...env, PORT: String(ports[i]), DATA_DIR: dirs[i] as string }),
    );
    await waitFor('both APIs to answer', async () => (await Promise.all(bases.map(healthy))).every(Boolean), 120);
    for (const api of apis) expect(logged(api, 'storage checked')).toBe(1);
    for (const base of bases) {
      const health = await fetch(`${base}/healthz`);
      expect(health.status).toBe(200);
      // No worker runs in this installation.
      expect(await health.json()).toMatchObject({
        status: 'degraded',
        database: 'ok',
        storage: 'ok',
        workers: { status: 'none', lastHeartbeatSeconds: null },
      });
      expect(await (await fetch(`${base}/readyz`)).json()).toEqual({
        status: 'ready',
        database: 'ok',
        shuttingDown: false,
      });
    }

    // One client, its requests alternating between the APIs: LIMIT pass in all, then both refuse it.
    const address = '203.0.113.7';
    const answers: { status: number; retryAfter: string | null; body: unknown }[] = [];
    for (let i = 0; i < LIMIT + 4; i++) {
      const res = await fetch(`${bases[i % 2]}/api/users/user-data/`, { headers: { 'x-forwarded-for': address } });
      answers.push({ status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() });
    }
    expect(answers.slice(0, LIMIT).map((a) => a.status)).toEqual(Array(LIMIT).fill(401));
    for (const refused of answers.slice(LIMIT)) {
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
      expect(refused.body).toMatchObject({ code: 'too_many_requests' });
    }
    // Another client is not affected.
    const other = await fetch(`${bases[1]}/api/users/user-data/`, { headers: { 'x-forwarded-for': '203.0.113.8' } });
    expect(other.status).toBe(401);

    // An upload created and half sent at one API, resumed and finished at the other.
    await createUserWithCli(env, 'alice', TEST_PASSWORD);
    const db: Database = await openDatabase({ kind: 'postgres', url: databaseUrl });
    cleanups.push(() => db.close());
    const alice = new Client(overHttp(bases));
    expect((await alice.login('alice')).statusCode).toBe(200);
    const added = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
      body: { project_id: await alice.draftProject(), campaigns_data: [{ title: 'Video ad', content_type: 'video' }] },
    });
    const research: string = added.json().campaigns[0].id;
    const video = photoClip('astronaut', 2, 320);
    const half = Math.floor(video.length / 2);
    const metadata = Object.entries({ filename: 'ad.webm', filetype: 'video/webm', campaign_id: research })
      .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
      .join(',');
    const [first, second] = bases as [string, string];
    const headers = tusHeaders(alice);
    const created = await fetch(`${first}/mediaserver`, {
      method: 'POST',
      headers: { ...headers, 'upload-length': String(video.length), 'upload-metadata': metadata },
    });
    expect(created.status).toBe(201);
    const path = new URL(created.headers.get('location') as string, first).pathname;
    const patch = (base: string, offset: number, bytes: Buffer) =>
      fetch(`${base}${path}`, {
        method: 'PATCH',
        headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: new Uint8Array(bytes),
      });
    expect((await patch(first, 0, video.subarray(0, half))).status).toBe(204);
    // The unfinished upload is in the bucket, not on either API's disk.
    const uploadId = path.split('/').pop() as string;
    expect(await objectKeys(s3)).toEqual(expect.arrayContaining([`${uploadId}.info`]));
    const head = await fetch(`${second}${path}`, { method: 'HEAD', headers });
    expect(head.headers.get('upload-offset')).toBe(String(half));
    const rest = await patch(second, half, video.subarray(half));
    expect(rest.status).toBe(204);
    const mediaId = rest.headers.get('x-media-id');
    expect(mediaId).toBeTruthy();
    // Finished once: the same last PATCH again, at the first API, finds nothing to finish.
    expect((await patch(first, half, video.subarray(half))).status).toBe(404);
    const [row] = await db.db.selectFrom('media').selectAll().where('campaign_id', '=', research).execute();
    expect(row?.id).toBe(mediaId);
    const keys = await objectKeys(s3);
    expect(keys).toContain(row?.storage_key);
    // The upload's own objects and claim are gone; nothing was kept in either API's upload directory.
    expect(keys.filter((k) => k.startsWith(uploadId))).toEqual([]);
    expect(await db.db.selectFrom('upload_finishes').selectAll().execute()).toEqual([]);
    for (const dir of dirs) {
      expect(await readdir(join(dir, 'uploads'))).toEqual(['.finishing']);
      expect(await readdir(join(dir, 'uploads', '.finishing'))).toEqual([]);
    }
    // The stored file is the whole video (served once a worker has probed it; none runs here).
    const stored: Buffer[] = [];
    for await (const piece of await new S3Storage(s3.storage).stream(row?.storage_key as string)) stored.push(piece);
    expect(Buffer.concat(stored).equals(video)).toBe(true);

    for (const api of apis) expect(await stopEmolens(api)).toBe(0);
  });
});
