import { type Kysely, sql } from 'kysely';

/**
 * Issue 28, items 13 and 15.
 * - `respondent_sessions.completion_code`: the short code a respondent copies (14 symbols of an alphabet without
 *   0/O/1/I/L, from crypto randomness), given to a session when its end is first shown; unique, so the checker and
 *   the panels' acceptance find the session by it. Sessions ended before keep their signed codes only.
 * - `respondent_turn_aways`: a respondent the full quota turned away at the start page (no session, no consent, no
 *   personal data: the link and the time), so the fieldwork counts show them under "Quota full".
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('respondent_sessions').addColumn('completion_code', 'text').execute();
  await db.schema
    .createIndex('respondent_sessions_completion_code')
    .on('respondent_sessions')
    .column('completion_code')
    .unique()
    .execute();
  await db.schema
    .createTable('respondent_turn_aways')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('link_id', 'uuid', (c) => c.notNull().references('project_accessor_links.id').onDelete('cascade'))
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('scenario_id', 'uuid', (c) => c.notNull().references('scenarios.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('respondent_turn_aways_project')
    .on('respondent_turn_aways')
    .column('project_id')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('respondent_turn_aways').execute();
  await db.schema.dropIndex('respondent_sessions_completion_code').execute();
  await db.schema.alterTable('respondent_sessions').dropColumn('completion_code').execute();
}
