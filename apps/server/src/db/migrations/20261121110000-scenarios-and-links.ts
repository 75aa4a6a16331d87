import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('scenarios')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('order_number', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_random_order', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_use_face_checker', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('screener_survey_id', 'text')
    .addColumn('embedded_survey_id', 'text')
    .addColumn('redirect_links', 'jsonb', (c) => c.notNull())
    .addColumn('quota', 'integer', (c) => c.check(sql`quota >= 0`))
    .addColumn('is_paid', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`date_trunc('milliseconds', now())`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`date_trunc('milliseconds', now())`))
    .execute();
  await db.schema
    .createIndex('scenarios_project_idx')
    .on('scenarios')
    .columns(['project_id', 'order_number'])
    .execute();

  await db.schema
    .createTable('scenario_campaigns')
    .addColumn('scenario_id', 'uuid', (c) => c.notNull().references('scenarios.id').onDelete('cascade'))
    .addColumn('campaign_id', 'uuid', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('scenario_campaigns_pkey', ['scenario_id', 'campaign_id'])
    .execute();

  await db.schema
    .createTable('project_accessor_links')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('scenario_id', 'uuid', (c) => c.notNull().references('scenarios.id').onDelete('cascade'))
    // The respondent's link carries this random token, never an id that can be guessed.
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('quota_size', 'integer', (c) => c.check(sql`quota_size > 0`))
    .addColumn('is_use_face_checker', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('is_request_payment_data', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_screener_first', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('accessor_links_project_idx').on('project_accessor_links').column('project_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('project_accessor_links').execute();
  await db.schema.dropTable('scenario_campaigns').execute();
  await db.schema.dropTable('scenarios').execute();
}
