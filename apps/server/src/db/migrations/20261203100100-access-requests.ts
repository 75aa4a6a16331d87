import { type Kysely, sql } from 'kysely';

/**
 * Requests for access (issue 28, item 16): what a visitor of the public pages asks for, kept until staff turn it into
 * a customer account (`user_id`, `handled_at`, `handled_by`). Staff are told of each new one by a notification of
 * the new kind `access_requested`.
 */
const KINDS_BEFORE = `'moderation_approved', 'moderation_returned', 'collection_finished', 'report_built',
  'report_failed', 'process_failed', 'balance_low', 'balance_exhausted'`;

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('access_requests')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('company', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('package', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('new').check(sql`status in ('new', 'done')`))
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('handled_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('handled_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index access_requests_list on access_requests (status, created_at desc)`.execute(db);
  await sql`alter table notifications drop constraint notifications_kind_check`.execute(db);
  await sql`alter table notifications add constraint notifications_kind_check
    check (kind in (${sql.raw(KINDS_BEFORE)}, 'access_requested'))`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from notifications where kind = 'access_requested'`.execute(db);
  await sql`alter table notifications drop constraint notifications_kind_check`.execute(db);
  await sql`alter table notifications add constraint notifications_kind_check check (kind in (${sql.raw(KINDS_BEFORE)}))`.execute(
    db,
  );
  await db.schema.dropTable('access_requests').execute();
}
