import { type Kysely, sql } from 'kysely';

/**
 * A research's Toloka pool (issue 14, item 4): the Toloka project and pool made from the research, the linked token
 * (and its environment) they were made with, what was asked of Toloka (title, reward, overlap, audience), and the
 * pool's state as Toloka last reported it. One pool per research.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('toloka_pools')
    .addColumn('campaign_id', 'uuid', (c) => c.primaryKey().references('campaigns.id').onDelete('cascade'))
    .addColumn('token_id', 'uuid')
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('production', 'sandbox')`))
    .addColumn('toloka_project_id', 'text', (c) => c.notNull())
    .addColumn('pool_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('reward', 'double precision', (c) => c.notNull())
    .addColumn('overlap', 'integer', (c) => c.notNull())
    .addColumn('audience', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('last_close_reason', 'text')
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('toloka_pools').execute();
}
