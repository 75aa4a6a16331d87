import { type Kysely, sql } from 'kysely';

/**
 * API processes that share nothing local (issue 33, item 5; decision 069): rate-limit counters every API process
 * counts in, each worker's heartbeat for /healthz, and the claim of an unfinished upload being finished (one process
 * finishes it, when its parts are in the bucket rather than on one disk).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('rate_limit_counters')
    /** The limit's name and the client it counts, e.g. `api-client:session:<hash>`. */
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limit_counters_expiry').on('rate_limit_counters').column('expires_at').execute();

  await db.schema
    .createTable('worker_heartbeats')
    /** `<host>_<pid>_<token>`: one row per worker process while it runs. */
    .addColumn('worker', 'text', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('beat_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('upload_finishes')
    .addColumn('upload_id', 'text', (c) => c.primaryKey())
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upload_finishes').execute();
  await db.schema.dropTable('worker_heartbeats').execute();
  await db.schema.dropTable('rate_limit_counters').execute();
}
