import { type Kysely, sql } from 'kysely';

const list = (values: string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('platform', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`platform in (${list(['toloka', 'cint', 'amazon', 'own_audience', 'millward_brown', 'armi_marketing', 'tiburon', 'omi', 'onin', 'anketolog', 'yandex_tasks'])})`,
        ),
    )
    .addColumn('respondent_language', 'text', (c) =>
      c.notNull().check(sql`respondent_language in (${list(['ru', 'en', 'id', 'ko'])})`),
    )
    .addColumn('audience_type', 'text', (c) =>
      c.notNull().check(sql`audience_type in (${list(['without_recruiting', 'simple', 'hard'])})`),
    )
    .addColumn('flow_type', 'text', (c) => c.notNull().check(sql`flow_type in ('new', 'old')`))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('new')
        .check(sql`status in (${list(['new', 'active', 'completed', 'archived'])})`),
    )
    .addColumn('required_respondents', 'integer', (c) => c.check(sql`required_respondents >= 0`))
    .addColumn('owner_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('created_by', 'uuid', (c) => c.notNull().references('users.id'))
    // Millisecond precision: the value travels through JSON and comes back as the edit's version.
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`date_trunc('milliseconds', now())`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`date_trunc('milliseconds', now())`))
    .addColumn('launched_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('archived_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('projects_owner_status_idx').on('projects').columns(['owner_id', 'status']).execute();
  await db.schema.createIndex('projects_created_by_idx').on('projects').column('created_by').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('projects').execute();
}
