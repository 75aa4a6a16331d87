import { type Kysely, sql } from 'kysely';

/**
 * In-cabinet notifications (issue 15, item 6): what happened that the user should know (a moderation decision, a
 * finished collection, a report built or failed, a failed process, a low balance), with the parameters its text
 * is filled with and the cabinet page it leads to; unread until read. The dedupe key makes an event notify its user
 * once, however many times it is reported.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(
        sql`kind in ('moderation_approved', 'moderation_returned', 'collection_finished', 'report_built',
          'report_failed', 'process_failed', 'balance_low', 'balance_exhausted')`,
      ),
    )
    .addColumn('params', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    /** An in-app path (`/cabinet/…`), or none. */
    .addColumn('link', 'text')
    .addColumn('dedupe_key', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('read_at', 'timestamptz')
    .execute();
  await sql`create index notifications_user on notifications (user_id, created_at desc, id desc)`.execute(db);
  await sql`create index notifications_unread on notifications (user_id) where read_at is null`.execute(db);
  await sql`create unique index notifications_dedupe on notifications (user_id, dedupe_key)
    where dedupe_key is not null`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notifications').execute();
}
