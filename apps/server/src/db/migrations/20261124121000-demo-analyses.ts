import { type Kysely, sql } from 'kysely';

/**
 * Demo mode and interview analysis: a user's own video (webcam recording or upload) through the
 * engine, private to that user. The source file lives in storage; deleting a row (or its user)
 * records the file in storage_trash in the same transaction, as media rows do.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('demo_analyses')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('owner_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('demo', 'interview')`))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('duration_seconds', 'real')
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('queued').check(sql`status in ('queued', 'processing', 'done', 'error')`),
    )
    .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_code', 'text')
    .addColumn('engine_version', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    // The result (null until done): encodeFrames bytes, per-second series, tracked people, summary.
    .addColumn('sampling', 'jsonb')
    .addColumn('frames', 'bytea')
    .addColumn('frame_count', 'integer')
    .addColumn('series', 'jsonb')
    .addColumn('people', 'jsonb')
    .addColumn('summary', 'jsonb')
    .addColumn('recording_seconds', 'real')
    // Interviews: 5-minute sessions counted (spec section 9).
    .addColumn('sessions_counted', 'integer')
    .execute();
  await db.schema.createIndex('demo_analyses_owner_idx').on('demo_analyses').columns(['owner_id', 'kind']).execute();
  await sql`
    create function demo_to_storage_trash() returns trigger language plpgsql as $$
    begin
      insert into storage_trash (key) values (old.storage_key) on conflict do nothing;
      return old;
    end
    $$`.execute(db);
  await sql`
    create trigger demo_analysis_deleted after delete on demo_analyses
    for each row execute function demo_to_storage_trash()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists demo_analysis_deleted on demo_analyses`.execute(db);
  await sql`drop function if exists demo_to_storage_trash()`.execute(db);
  await db.schema.dropTable('demo_analyses').execute();
}
