import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  // What a pictures or shelf research shows (spec section 3); tasks of site researches live in settings.
  await db.schema
    .alterTable('campaigns')
    .addColumn('picture_gallery', 'jsonb', (c) => c.notNull().defaultTo(sql`'{"items":[]}'::jsonb`))
    .addColumn('shelf_content_scenario', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('shelf_setting', 'jsonb', (c) => c.notNull().defaultTo(sql`'{"isRandomOrder":false}'::jsonb`))
    .execute();

  // Stored files whose row is gone, however it went (a file deleted, or its research or project with
  // it by cascade): the trigger records them in the same transaction, a job removes the bytes.
  await db.schema
    .createTable('storage_trash')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`
    create function media_to_storage_trash() returns trigger language plpgsql as $$
    begin
      insert into storage_trash (key) values (old.storage_key) on conflict do nothing;
      if old.poster_key is not null then
        insert into storage_trash (key) values (old.poster_key) on conflict do nothing;
      end if;
      return old;
    end
    $$`.execute(db);
  await sql`
    create trigger media_deleted after delete on media
    for each row execute function media_to_storage_trash()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists media_deleted on media`.execute(db);
  await sql`drop function if exists media_to_storage_trash()`.execute(db);
  await db.schema.dropTable('storage_trash').execute();
  await db.schema
    .alterTable('campaigns')
    .dropColumn('picture_gallery')
    .dropColumn('shelf_content_scenario')
    .dropColumn('shelf_setting')
    .execute();
}
