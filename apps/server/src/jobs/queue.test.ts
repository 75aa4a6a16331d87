import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanExpiredSessionsJob } from '../modules/auth/jobs/clean-expired-sessions.job.ts';
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

  it('refuses a job it does not know', async () => {
    await expect(t.app.ctx.queue.send('no-such-job', {})).rejects.toThrow(/Unknown job/);
  });
});
