import type { Kysely } from 'kysely';

/**
 * A result's report digest (decision 015): its resting expressions and content gaze samples, written with the
 * result, so a report build never decodes frames. Results stored before it get theirs at their first report.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('process_results').addColumn('report_digest', 'bytea').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('process_results').dropColumn('report_digest').execute();
}
