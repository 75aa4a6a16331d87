import { type Kysely, sql } from 'kysely';

/**
 * A report's files (issue 13, item 8): its presentation (PPTX made by a job, or the analyst's own PDF or PPTX)
 * and its video export (MP4 made by a job), one row per report and kind. The file lives in storage; replacing
 * or deleting a row (or its report) records the old file in storage_trash in the same transaction.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('report_files')
    .addColumn('report_id', 'uuid', (c) => c.notNull().references('reports.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('presentation', 'video')`))
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('generated', 'uploaded')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('in_progress', 'done', 'failed')`))
    /** Bumped by each request: a job of an older attempt may not write. */
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
    /** The report's generation the file was made from (a rebuild makes a generated file outdated). */
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_key', 'text')
    .addColumn('storage_key', 'text', (c) => c.unique())
    .addColumn('filename', 'text')
    .addColumn('mime', 'text')
    .addColumn('size', 'bigint')
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('report_files_pk', ['report_id', 'kind'])
    .execute();
  await sql`
    create function report_file_to_storage_trash() returns trigger language plpgsql as $$
    begin
      if old.storage_key is not null and (tg_op = 'DELETE' or new.storage_key is distinct from old.storage_key) then
        insert into storage_trash (key) values (old.storage_key) on conflict do nothing;
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger report_file_changed after update or delete on report_files
    for each row execute function report_file_to_storage_trash()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists report_file_changed on report_files`.execute(db);
  await sql`drop function if exists report_file_to_storage_trash()`.execute(db);
  await db.schema.dropTable('report_files').execute();
}
