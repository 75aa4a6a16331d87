import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanExpiredSessionsJob } from '../modules/auth/jobs/clean-expired-sessions.job.ts';
import { cleanSharedStateJob } from '../modules/health/jobs/clean-shared-state.job.ts';
import { Client, createTestApp, seedUser, TEST_BACKEND, type TestApp } from '../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.ctx.queue.start({ work: true });
});
afterAll(() => t.close());

async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('condition not met in time');
}

describe(`job queue on ${TEST_BACKEND}`, () => {
  it('runs the expired-session clean-up end to end: sent, taken by the worker, done', async () => {
    await seedUser(t.app);
    const alive = new Client(t.app);
    await alive.login();
    const stale = new Client(t.app);
    await stale.login();
    await t.database.db
      .updateTable('auth_sessions')
      .set({ expires_at: sql`now() - interval '1 hour'` })
      .where('id', '=', (await t.database.db.selectFrom('auth_sessions').select('id').executeTakeFirstOrThrow()).id)
      .execute();

    const jobId = await t.app.ctx.queue.send(cleanExpiredSessionsJob.name, {});
    expect(jobId).toBeTruthy();
    await until(async () => (await t.database.db.selectFrom('auth_sessions').selectAll().execute()).length === 1);
    const left = await t.database.db
      .selectFrom('auth_sessions')
      .select(sql<boolean>`expires_at > now()`.as('live'))
      .execute();
    expect(left).toEqual([{ live: true }]);
  });

  it('keeps the clean-up on a schedule', async () => {
    const rows = await sql<{ name: string; cron: string }>`select name, cron from pgboss.schedule`.execute(
      t.database.db,
    );
    expect(rows.rows).toContainEqual(
      expect.objectContaining({ name: cleanExpiredSessionsJob.name, cron: '*/15 * * * *' }),
    );
  });

  it('beats a heartbeat while it works, which /healthz reports as a worker alive', async () => {
    const beats = await t.database.db.selectFrom('worker_heartbeats').select(['pid', 'host']).execute();
    expect(beats).toEqual([expect.objectContaining({ pid: process.pid })]);
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.json()).toMatchObject({ status: 'ok', queue: 'running', workers: { status: 'ok', alive: 1 } });
    expect(health.json().workers.lastHeartbeatSeconds).toBeLessThan(15);
  });

  it('removes expired rate-limit counters and workers silent for a day, keeping the newest', async () => {
    const db = t.database.db;
    await db
      .insertInto('rate_limit_counters')
      .values([
        { key: 'old', hits: 3, expires_at: sql`now() - interval '1 second'` },
        { key: 'live', hits: 1, expires_at: sql`now() + interval '1 minute'` },
      ])
      .execute();
    await db
      .insertInto('worker_heartbeats')
      .values({ worker: 'gone', host: 'elsewhere', pid: 1, beat_at: sql`now() - interval '2 days'` })
      .execute();
    const jobId = await t.app.ctx.queue.send(cleanSharedStateJob.name, {});
    expect(jobId).toBeTruthy();
    // On PostgreSQL the test's own requests are counted there too (decision 069): their windows are alive.
    const keys = async () => (await db.selectFrom('rate_limit_counters').select('key').execute()).map((r) => r.key);
    await until(async () => !(await keys()).includes('old'));
    expect(await keys()).toContain('live');
    await until(async () => (await db.selectFrom('worker_heartbeats').select('worker').execute()).length === 1);
    expect(await db.selectFrom('worker_heartbeats').select('pid').execute()).toEqual([{ pid: process.pid }]);
  });

  it('refuses a job it does not know', async () => {
    await expect(t.app.ctx.queue.send('no-such-job', {})).rejects.toThrow(/Unknown job/);
  });
});
