import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgres } from '../test/installation.ts';
import { type Database, openDatabase } from './client.ts';

/**
 * A connection the server cuts while a request holds it (a restart, a terminated backend, in the middle of a
 * transaction): the request fails, the process does not. pg emits the lost socket as an 'error' on the client, and a
 * checked-out client has no pool listener; unheard, that error ended `emolens serve` (found by the outage test, in
 * two runs of twelve).
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

describe('a connection cut while it is checked out', () => {
  it('fails the transaction that held it, and the next query runs on a new connection', async () => {
    if (!TEST_DATABASE_URL) throw new Error('this test needs TEST_DATABASE_URL (PostgreSQL)');
    const scratch = await freshPostgres(TEST_DATABASE_URL, 'emolens_cut');
    cleanups.push(scratch.drop);
    const lost: Error[] = [];
    const database: Database = await openDatabase(
      { kind: 'postgres', url: scratch.url },
      { onConnectionError: (err) => lost.push(err) },
    );
    cleanups.push(() => database.close());

    const before = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
    const cut = database.db.transaction().execute(async (trx) => {
      await sql`select pg_terminate_backend(pg_backend_pid())`.execute(trx).catch(() => undefined);
      // The socket's end arrives while the transaction still holds the connection.
      await new Promise((r) => setTimeout(r, 300));
      await sql`select 1`.execute(trx);
    });
    await expect(cut).rejects.toThrow(/terminat|not queryable/i);

    const after = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db);
    expect(after.rows).toHaveLength(1);
    expect(after.rows[0]?.pid).not.toBe(before.rows[0]?.pid);
    expect(lost).toEqual([]);
  });
});
