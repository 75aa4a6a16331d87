import { type Kysely, sql } from 'kysely';

/**
 * The categories directory and benchmarks (issue 13, item 7; decision 016).
 *  - `category_entries`: the values a research's categories are chosen from, one name per kind (case aside); a
 *    subtype belongs to one content type.
 *  - `research_norms`: a research's key metrics, written by each whole-sample shift report's build (the latest
 *    wins). The base of a benchmark reads them for completed researches only.
 *  - `norm_imports` / `norm_entries`: norm bases imported from files, kept apart so an import can be removed whole.
 *  - `reports.benchmark`: the report places its research among the base.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('category_entries')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('brand', 'sub_brand', 'company', 'industry', 'sector', 'category', 'subtype')`),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.check(sql`content_type is null or kind = 'subtype'`))
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('category_subtype_content_type', sql`kind <> 'subtype' or content_type is not null`)
    .execute();
  await sql`create unique index category_entries_name_idx on category_entries (kind, lower(name))`.execute(db);

  await db.schema
    .createTable('research_norms')
    .addColumn('campaign_id', 'uuid', (c) => c.primaryKey().references('campaigns.id').onDelete('cascade'))
    .addColumn('report_id', 'uuid', (c) => c.references('reports.id').onDelete('set null'))
    .addColumn('respondents', 'integer', (c) => c.notNull())
    .addColumn('metrics', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('norm_imports')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('imported_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('imported_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('norm_entries')
    .addColumn('import_id', 'uuid', (c) => c.notNull().references('norm_imports.id').onDelete('cascade'))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('subtype', 'text', (c) => c.notNull())
    .addColumn('respondents', 'integer', (c) => c.notNull())
    .addColumn('metrics', 'jsonb', (c) => c.notNull())
    .execute();
  await sql`create index norm_entries_base_idx on norm_entries (content_type, lower(subtype))`.execute(db);
  await db.schema.createIndex('norm_entries_import_idx').on('norm_entries').column('import_id').execute();

  await db.schema
    .alterTable('reports')
    .addColumn('benchmark', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reports').dropColumn('benchmark').execute();
  await db.schema.dropTable('norm_entries').execute();
  await db.schema.dropTable('norm_imports').execute();
  await db.schema.dropTable('research_norms').execute();
  await db.schema.dropTable('category_entries').execute();
}
