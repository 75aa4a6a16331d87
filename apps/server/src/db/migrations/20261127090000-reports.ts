import { type Kysely, sql } from 'kysely';

/**
 * Reports (issue 13, decision 015): a saved definition on one research, built by the `build-report` job into a
 * stored snapshot. One build per research at a time (the spec's "a report is already being generated") is the
 * partial unique index, so two requests cannot both start one. A build bumps `generation`, so a stale or
 * cancelled job can never write its snapshot.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reports')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('campaign_id', 'uuid', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('shift', 'calibration_subtraction')`))
    .addColumn('step', 'smallint', (c) => c.notNull())
    // The contracts' reportFiltersSchema, segment and fixation settings, checked before they are stored.
    .addColumn('filters', 'jsonb', (c) => c.notNull())
    .addColumn('segment', 'jsonb', (c) => c.notNull())
    .addColumn('fixations', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('in_progress', 'done', 'canceled')`))
    // A canceled build that failed, and the message key of why.
    .addColumn('failed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('error_key', 'text')
    .addColumn('progress', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('video_count', 'integer')
    .addColumn('snapshot', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('built_at', 'timestamptz')
    .addColumn('last_accessed_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('reports_campaign_idx').on('reports').columns(['campaign_id', 'created_at']).execute();
  await sql`create unique index reports_one_build_idx on reports (campaign_id) where status = 'in_progress'`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reports').execute();
}
