import type { DotTestResult, ProcessErrorCode } from '@emolens/contracts';
import { type Insertable, type Kysely, sql } from 'kysely';
import { isUuid } from '../../db/sql.ts';
import type { DB, DotTestRow, DotTestsTable } from '../../db/types.ts';

export interface StoredDotTestBatch {
  seq: number;
  digest: string;
  last_t: number;
}

export interface DotTestBatchWrite {
  events: unknown[];
  last_t: number;
  digest: string;
}

/** The only Kysely user of the setup check's tables. */
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

    /** Chunks stored so far (they arrive in order, so the count is the next index) and the one at `index`. */
    async chunkState(id: string, index: number) {
      const rows = await db
        .selectFrom('dot_test_chunks')
        .select(['index', 'sha256', 'storage_key'])
        .where('dot_test_id', '=', id)
        .orderBy('index')
        .execute();
      return { count: rows.length, at: rows.find((r) => r.index === index) };
    },

    /**
     * Stores a chunk row while the test records (its row locked, so a completion waits); a row already
     * under the index is left as it is and returned.
     */
    async insertChunk(row: { dot_test_id: string; index: number; size: number; sha256: string; storage_key: string }) {
      const result = await sql<{ recording: boolean; inserted: boolean }>`
        with live as (
          select id from dot_tests where id = ${row.dot_test_id} and status = 'recording' for update
        ), added as (
          insert into dot_test_chunks (dot_test_id, index, size, sha256, storage_key)
          select ${row.dot_test_id}, ${row.index}, ${row.size}, ${row.sha256}, ${row.storage_key}
          from live
          on conflict (dot_test_id, index) do nothing
          returning index
        )
        select exists (select 1 from live) as recording, exists (select 1 from added) as inserted
      `.execute(db);
      const { recording, inserted } = result.rows[0] ?? { recording: false, inserted: false };
      const existing = inserted
        ? undefined
        : await db
            .selectFrom('dot_test_chunks')
            .select(['sha256', 'storage_key'])
            .where('dot_test_id', '=', row.dot_test_id)
            .where('index', '=', row.index)
            .executeTakeFirst();
      return { recording, inserted, existing };
    },

    /** The recording's chunks in order (what the analysis concatenates). */
    chunks(id: string) {
      return db
        .selectFrom('dot_test_chunks')
        .select(['index', 'storage_key', 'size'])
        .where('dot_test_id', '=', id)
        .orderBy('index')
        .execute();
    },

    /** One batch of the event log decided under the test's row lock: two batches never interleave. */
    withEventLog<T>(
      id: string,
      seq: number,
      decide: (state: {
        test: DotTestRow;
        clockMs: number;
        next: number;
        previous: StoredDotTestBatch | undefined;
        atSeq: StoredDotTestBatch | undefined;
      }) => { result: T; write?: DotTestBatchWrite },
    ): Promise<T> {
      return db.transaction().execute(async (trx) => {
        const locked = await trx
          .selectFrom('dot_tests')
          .selectAll()
          .select(sql<number>`extract(epoch from (now() - created_at)) * 1000`.as('clock_ms'))
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const { clock_ms, ...test } = locked;
        const last = await trx
          .selectFrom('dot_test_event_batches')
          .select(['seq', 'digest', 'last_t'])
          .where('dot_test_id', '=', id)
          .orderBy('seq', 'desc')
          .limit(1)
          .executeTakeFirst();
        const next = last ? last.seq + 1 : 0;
        const atSeq =
          seq < next
            ? await trx
                .selectFrom('dot_test_event_batches')
                .select(['seq', 'digest', 'last_t'])
                .where('dot_test_id', '=', id)
                .where('seq', '=', seq)
                .executeTakeFirst()
            : undefined;
        const { result, write } = decide({ test, clockMs: Number(clock_ms), next, previous: last, atSeq });
        if (write) {
          await trx
            .insertInto('dot_test_event_batches')
            .values({
              dot_test_id: id,
              seq,
              events: JSON.stringify(write.events),
              last_t: write.last_t,
              digest: write.digest,
            })
            .execute();
        }
        return result;
      });
    },

    async batchCount(id: string): Promise<number> {
      const { n } = await db
        .selectFrom('dot_test_event_batches')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('dot_test_id', '=', id)
        .executeTakeFirstOrThrow();
      return n;
    },

    /** The whole event log in order. */
    async events(id: string): Promise<unknown[]> {
      const rows = await db
        .selectFrom('dot_test_event_batches')
        .select('events')
        .where('dot_test_id', '=', id)
        .orderBy('seq')
        .execute();
      return rows.flatMap((r) => r.events);
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
