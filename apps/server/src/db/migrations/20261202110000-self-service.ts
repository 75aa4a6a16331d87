import { type Kysely, sql } from 'kysely';

/**
 * Self-service video-ad tests (issue 15, items 1 and 2). A test is made with its project and video research
 * underneath (hidden from the projects list; its owner edits them only through the test, and only while it is a
 * draft) and its survey from the video-ad template; starting it makes the scenario and quota link and launches the
 * project. `self_service_events` is its state history, with who moved it and the moderators' comments.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('self_service_tests')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('owner_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'uuid', (c) => c.notNull().unique().references('projects.id').onDelete('cascade'))
    .addColumn('campaign_id', 'uuid', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('survey_id', 'uuid', (c) => c.references('surveys.id').onDelete('set null'))
    .addColumn('link_id', 'uuid', (c) => c.references('project_accessor_links.id').onDelete('set null'))
    .addColumn('report_id', 'uuid', (c) => c.references('reports.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('draft')
        .check(
          sql`state in ('draft', 'moderation', 'moderation_ok', 'collection', 'report_processing', 'report_completed', 'completed', 'archived')`,
        ),
    )
    .addColumn('respondents', 'integer', (c) => c.notNull().defaultTo(100).check(sql`respondents >= 100`))
    .addColumn('audience', 'jsonb', (c) => c.notNull())
    .addColumn('sessions_per_interview', 'integer')
    .addColumn('session_count', 'integer')
    .addColumn('moderation_comment', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('submitted_at', 'timestamptz')
    .addColumn('started_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('self_service_tests_owner')
    .on('self_service_tests')
    .columns(['owner_id', 'created_at'])
    .execute();
  await db.schema.createIndex('self_service_tests_state').on('self_service_tests').column('state').execute();
  await db.schema
    .createTable('self_service_events')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('test_id', 'uuid', (c) => c.notNull().references('self_service_tests.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('comment', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`clock_timestamp()`))
    .execute();
  await db.schema
    .createIndex('self_service_events_test')
    .on('self_service_events')
    .columns(['test_id', 'created_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('self_service_events').execute();
  await db.schema.dropTable('self_service_tests').execute();
}
