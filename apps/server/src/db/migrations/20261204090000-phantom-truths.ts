import { type Kysely, sql } from 'kysely';

/**
 * Phantom respondents' truth (issue 30, item 5; decision 035): a phantom recording taken through the respondent API
 * carries, beside its session, what the generator put into every frame, so the research statistic page can score the
 * engine's measurement against it. One truth per session (a new upload replaces it); it goes with its session.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('phantom_truths')
    .addColumn('session_id', 'uuid', (c) => c.primaryKey().references('respondent_sessions.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('frames', 'integer', (c) => c.notNull())
    /** jsonb: the truth as the contract (`phantomTruthInput`) accepted it. */
    .addColumn('truth', 'jsonb', (c) => c.notNull())
    .addColumn('uploaded_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('phantom_truths').execute();
}
