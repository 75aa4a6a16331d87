import { type Kysely, sql } from 'kysely';

/**
 * The analyst's marking of respondents' website-prototype task results (issue 13 item 4; spec: not marked,
 * accepted, rejected, failed). "Not marked" is no row.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('task_marks')
    .addColumn('session_id', 'uuid', (c) => c.notNull().references('respondent_sessions.id').onDelete('cascade'))
    .addColumn('campaign_id', 'uuid', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('task', 'integer', (c) => c.notNull())
    .addColumn('mark', 'text', (c) => c.notNull().check(sql`mark in ('accepted', 'rejected', 'failed')`))
    .addColumn('marked_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('marked_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('task_marks_pkey', ['campaign_id', 'session_id', 'task'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('task_marks').execute();
}
