import { type Kysely, sql } from 'kysely';

/**
 * The demo project (issue 13, item 9; decision 017): `projects.is_demo` marks the project the installation seeds
 * for a newcomer on its first start. The cabinet shows it with a badge, and benchmarks never count it. One per
 * installation: the index makes a second seeding (a retried or duplicated job) fail instead of adding another.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('is_demo', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`create unique index projects_one_demo_idx on projects (is_demo) where is_demo`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists projects_one_demo_idx`.execute(db);
  await db.schema.alterTable('projects').dropColumn('is_demo').execute();
}
