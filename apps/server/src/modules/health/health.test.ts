import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TEST_BACKEND, type TestApp } from '../../test/harness.ts';
import { startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import { WORKER_STALE_SECONDS } from './health.routes.ts';

/** Issue 33, item 5 (decision 069): /healthz reports each part; /readyz says whether the process takes requests. */
let s3: TestS3Server;
let t: TestApp;

beforeAll(async () => {
  s3 = await startS3Server();
  t = await createTestApp({ storage: s3.storage });
});
afterAll(async () => {
  await t?.close();
  await s3?.stop();
});
beforeEach(async () => {
  await t.reset();
  await s3.start();
});

const get = (url: string) => t.app.inject({ method: 'GET', url });
const beat = (worker: string, secondsAgo: number) =>
  t.database.db
    .insertInto('worker_heartbeats')
    .values({ worker, host: 'w', pid: 1, beat_at: sql`now() - ${secondsAgo}::double precision * interval '1 second'` })
    .execute();

describe(`health checks on ${TEST_BACKEND} and S3`, () => {
  it('reports the database, the bucket, and no worker yet', async () => {
    const res = await get('/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'degraded',
      database: 'ok',
      storage: 'ok',
      queue: 'stopped',
      workers: { status: 'none', lastHeartbeatSeconds: null, alive: 0 },
    });
    expect((await get('/readyz')).json()).toEqual({ status: 'ready', database: 'ok', shuttingDown: false });
  });

  it('is ok with a worker beating, and reports the age of the newest heartbeat', async () => {
    await beat('a', 2);
    await beat('b', 600);
    const res = await get('/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', workers: { status: 'ok', alive: 1 } });
    expect(res.json().workers.lastHeartbeatSeconds).toBeGreaterThanOrEqual(2);
    expect(res.json().workers.lastHeartbeatSeconds).toBeLessThan(10);
  });

  it('says the workers are stale when the newest heartbeat is older than four beats', async () => {
    await beat('a', WORKER_STALE_SECONDS + 30);
    const res = await get('/healthz');
    // The API itself still serves: 200, with the part that is wrong named.
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'degraded',
      database: 'ok',
      storage: 'ok',
      workers: { status: 'stale', alive: 0 },
    });
    expect(res.json().workers.lastHeartbeatSeconds).toBeGreaterThanOrEqual(WORKER_STALE_SECONDS + 30);
    expect((await get('/readyz')).statusCode).toBe(200);
  });

  it('answers 503 when the bucket does not answer, while /readyz keeps the process in the balancer', async () => {
    await beat('a', 1);
    await s3.pause();
    const res = await get('/healthz');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      status: 'degraded',
      database: 'ok',
      storage: 'down',
      workers: { status: 'ok' },
    });
    expect(t.logs.some((l) => l.includes('health check: the storage is not usable'))).toBe(true);
    const ready = await get('/readyz');
    expect(ready.statusCode).toBe(200);
    await s3.start();
    expect((await get('/healthz')).json()).toMatchObject({ status: 'ok', storage: 'ok' });
  });

  it('is not ready once the process begins to shut down', async () => {
    const other = await createTestApp();
    const closing = other.app.close();
    const res = await other.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    await closing;
    await other.database.dispose();
  });
});
