import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AppContext, createContext } from '../context.ts';
import type { EventPayload } from '../events/events.ts';
import { openTestDatabase, TEST_BACKEND, type TestDatabase, testConfig } from '../test/harness.ts';
import { defineSubscriber } from './define.ts';

/** What each test subscriber was given, in the order they ran. */
const received: { by: string; payload: EventPayload<'report.built'> }[] = [];

const subscriber = (name: string) =>
  defineSubscriber({
    name,
    event: 'report.built',
    retryLimit: 0,
    load: async () => ({
      handle: async (payload) => {
        received.push({ by: name, payload });
      },
    }),
  });

const first = subscriber('test-first-on-report-built');
const second = subscriber('test-second-on-report-built');

let database: TestDatabase;
let ctx: AppContext;
beforeAll(async () => {
  database = await openTestDatabase();
  ctx = await createContext(testConfig(), database, pino({ level: 'silent' }), [first, second]);
  await ctx.queue.start({ work: false });
});
afterAll(async () => {
  await ctx?.queue.stop();
  await database?.dispose();
});
beforeEach(() => {
  received.length = 0;
});

/** The jobs queued (not yet run) for a subscriber. */
async function queued(name: string): Promise<unknown[]> {
  const rows = await sql<{
    data: unknown;
  }>`select data from pgboss.job where name = ${name} and state = 'created'`.execute(database.db);
  return rows.rows.map((r) => r.data);
}

describe(`events on the job queue, ${TEST_BACKEND}`, () => {
  // First, on a queue just started: pg-boss looks a queue up outside the caller's transaction when its cache lacks
  // it, and PGlite's one connection is then held by that transaction (this hung before start() warmed the cache).
  it('right after start, publishing inside a transaction returns', async () => {
    const payload = { report_id: randomUUID(), generation: 1 };
    const published = database.db
      .transaction()
      .execute((trx) => ctx.queue.publish('report.built', payload, { transaction: trx }));
    const hung = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 10_000).unref());
    expect(await Promise.race([published, hung])).toBe(2);
    expect(await queued(first.name)).toEqual([payload]);
    await ctx.queue.runQueued();
  });

  it('queues one job per subscriber with the checked payload, and each subscriber runs once', async () => {
    const payload = { report_id: randomUUID(), generation: 2 };
    expect(await ctx.queue.publish('report.built', payload)).toBe(2);
    expect(await queued(first.name)).toEqual([payload]);
    expect(await queued(second.name)).toEqual([payload]);

    expect(await ctx.queue.runQueued()).toBe(2);
    expect(received.map((r) => r.by).sort()).toEqual([first.name, second.name].sort());
    expect(received.map((r) => r.payload)).toEqual([payload, payload]);
    expect(await ctx.queue.runQueued()).toBe(0);
  });

  it('refuses a payload that is not the event’s, and queues nothing', async () => {
    await expect(
      ctx.queue.publish('report.built', { report_id: 'not-a-uuid', generation: 1 } as EventPayload<'report.built'>),
    ).rejects.toThrow();
    expect(await queued(first.name)).toEqual([]);
  });

  it('an event nobody subscribes to is sent to nobody', async () => {
    expect(await ctx.queue.publish('report.failed', { report_id: randomUUID(), generation: 1 })).toBe(0);
  });

  it('in a transaction: the jobs exist if and only if it commits', async () => {
    const rolledBack = { report_id: randomUUID(), generation: 1 };
    await expect(
      database.db.transaction().execute(async (trx) => {
        expect(await ctx.queue.publish('report.built', rolledBack, { transaction: trx })).toBe(2);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await queued(first.name)).toEqual([]);

    const committed = { report_id: randomUUID(), generation: 1 };
    await database.db.transaction().execute(async (trx) => {
      await ctx.queue.publish('report.built', committed, { transaction: trx });
    });
    expect(await queued(first.name)).toEqual([committed]);
    expect(await queued(second.name)).toEqual([committed]);
    await ctx.queue.runQueued();
    expect(received).toHaveLength(2);
  });

  it('a stopped queue publishes nothing and says so', async () => {
    const other = await createContext(testConfig(), database, pino({ level: 'silent' }), [first]);
    await expect(other.queue.publish('report.built', { report_id: randomUUID(), generation: 1 })).rejects.toThrow(
      /not started/,
    );
  });
});
