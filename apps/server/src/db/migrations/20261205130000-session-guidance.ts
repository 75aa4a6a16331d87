import { type Kysely, sql } from 'kysely';

/**
 * Live guidance (issue 31, item 7; decision 045): how long the respondent's notice named each face problem during
 * calibration and content, counted from the session's event log when its recording is processed. One row per session
 * (a new processing replaces it); it goes with its session.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('session_guidance')
    .addColumn('session_id', 'uuid', (c) => c.primaryKey().references('respondent_sessions.id').onDelete('cascade'))
    .addColumn('guided_seconds', 'double precision', (c) => c.notNull())
    /** jsonb: seconds per problem (`guidanceSummarySchema`'s `problems`). */
    .addColumn('problems', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('session_guidance').execute();
}
