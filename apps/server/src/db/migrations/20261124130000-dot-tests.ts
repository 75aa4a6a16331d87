import { type Kysely, sql } from 'kysely';

/**
 * The stand-alone setup check (/dot-test): anonymous tests known by a hashed secret, their recording
 * (one segment of chunks), their event log and their result. Everything goes 7 days after the start
 * (the clean-up job); chunk files go through the storage trash, like a respondent's recording.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dot_tests')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('recording', 'queued', 'processing', 'done', 'failed')`),
    )
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('retention_days', 'integer', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('screen_width', 'integer', (c) => c.notNull())
    .addColumn('screen_height', 'integer', (c) => c.notNull())
    .addColumn('device_pixel_ratio', 'real', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_code', 'text')
    .addColumn('engine_version', 'text')
    // The result as the page shows it (the validation points, the accuracy, the verdict).
    .addColumn('result', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dot_tests_expires_idx').on('dot_tests').column('expires_at').execute();
  await db.schema.createIndex('dot_tests_status_idx').on('dot_tests').columns(['status', 'updated_at']).execute();

  await db.schema
    .createTable('dot_test_chunks')
    .addColumn('dot_test_id', 'uuid', (c) => c.notNull().references('dot_tests.id').onDelete('cascade'))
    .addColumn('index', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('dot_test_chunks_pkey', ['dot_test_id', 'index'])
    .execute();
  // The same trash function as respondent chunks: a deleted test's files are removed by the trash job.
  await sql`
    create trigger dot_test_chunk_deleted after delete on dot_test_chunks
    for each row execute function recording_chunk_to_storage_trash()`.execute(db);

  await db.schema
    .createTable('dot_test_event_batches')
    .addColumn('dot_test_id', 'uuid', (c) => c.notNull().references('dot_tests.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('events', 'jsonb', (c) => c.notNull())
    .addColumn('last_t', 'double precision', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('dot_test_event_batches_pkey', ['dot_test_id', 'seq'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dot_test_event_batches').execute();
  await sql`drop trigger if exists dot_test_chunk_deleted on dot_test_chunks`.execute(db);
  await db.schema.dropTable('dot_test_chunks').execute();
  await db.schema.dropTable('dot_tests').execute();
}
