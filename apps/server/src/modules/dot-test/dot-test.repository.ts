import type { DotTestResult, ProcessErrorCode } from '@emolens/contracts';
import { type Insertable, type Kysely, sql } from 'kysely';
import { isUuid } from '../../db/sql.ts';
import type { DB, DotTestRow, DotTestsTable } from '../../db/types.ts';

/** The only Kysely user of the setup check's own table (its chunks and events: the recording repository). */
export function createDotTestsRepository(db: Kysely<DB>) {
  return {
    async insert(row: Insertable<DotTestsTable>): Promise<DotTestRow> {
      return db.insertInto('dot_tests').values(row).returningAll().executeTakeFirstOrThrow();
    },

    find(id: string, secretHash: string): Promise<DotTestRow | undefined> {
      if (!isUuid(id)) return Promise.resolve(undefined);
      return db
        .selectFrom('dot_tests')
        .selectAll()
        .where('id', '=', id)
        .where('secret_hash', '=', secretHash)
        .executeTakeFirst();
    },

    findById(id: string): Promise<DotTestRow | undefined> {
      if (!isUuid(id)) return Promise.resolve(undefined);
      return db.selectFrom('dot_tests').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Everything is sent: the analysis may start. Only a recording test moves. */
    async markQueued(id: string): Promise<boolean> {
      const row = await db
        .updateTable('dot_tests')
        .set({ status: 'queued', updated_at: sql`now()` })
        .where('id', '=', id)
        .where('status', '=', 'recording')
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** A run takes the test (queued, or processing again after a crashed worker). */
    async claim(id: string): Promise<DotTestRow | undefined> {
      if (!isUuid(id)) return undefined;
      return db
        .updateTable('dot_tests')
        .set({ status: 'processing', progress: 0, attempts: sql`attempts + 1`, updated_at: sql`now()` })
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'processing'])
        .returningAll()
        .executeTakeFirst();
    },

    /** Progress of a running analysis; false when the test is gone (deleted meanwhile). */
    async progress(id: string, percent: number): Promise<boolean> {
      const row = await db
        .updateTable('dot_tests')
        .set({ progress: Math.max(0, Math.min(100, percent)), updated_at: sql`now()` })
        .where('id', '=', id)
        .where('status', '=', 'processing')
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    async finish(id: string, result: DotTestResult, engineVersion: string): Promise<boolean> {
      const row = await db
        .updateTable('dot_tests')
        .set({
          status: 'done',
          progress: 100,
          result: JSON.stringify(result),
          engine_version: engineVersion,
          error_code: null,
          updated_at: sql`now()`,
        })
        .where('id', '=', id)
        .where('status', '=', 'processing')
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    async fail(id: string, code: ProcessErrorCode): Promise<void> {
      await db
        .updateTable('dot_tests')
        .set({ status: 'failed', error_code: code, updated_at: sql`now()` })
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'processing'])
        .execute();
    },

    /** The person's own deletion: the chunk files go through the storage trash (a trigger). */
    async delete(id: string): Promise<void> {
      await db.deleteFrom('dot_tests').where('id', '=', id).execute();
    },

    /** Tests past their retention, deleted in batches; returns how many. */
    async deleteExpired(limit = 500): Promise<number> {
      const rows = await db
        .deleteFrom('dot_tests')
        .where(
          'id',
          'in',
          db.selectFrom('dot_tests').select('id').where('expires_at', '<=', sql<Date>`now()`).limit(limit),
        )
        .returning('id')
        .execute();
      return rows.length;
    },

    /**
     * Analyses that stopped moving for longer than a job may run (its last retry died with its worker):
     * failed, so the page stops waiting. Returns how many.
     */
    async failStalledRuns(olderThanSeconds: number): Promise<number> {
      const rows = await db
        .updateTable('dot_tests')
        .set({ status: 'failed', error_code: 'engine_crashed', updated_at: sql`now()` })
        .where('status', '=', 'processing')
        .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`)
        .returning('id')
        .execute();
      return rows.length;
    },

    /** Tests waiting for an analysis whose job got lost (sent before a crash, or never sent). */
    async stalled(olderThanSeconds: number, limit = 100): Promise<string[]> {
      const rows = await db
        .selectFrom('dot_tests')
        .select('id')
        .where('status', '=', 'queued')
        .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`)
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },
  };
}

export type DotTestsRepository = ReturnType<typeof createDotTestsRepository>;
