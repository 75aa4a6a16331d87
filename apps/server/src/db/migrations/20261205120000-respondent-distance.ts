import { type Kysely, sql } from 'kysely';

/**
 * The respondent's estimated distance to the camera (issue 31 item 2, decision 043): the engine's estimate from the
 * iris's size, beside the calibration's accuracy, so lists, reports and exports show the accuracy in degrees without
 * reading each result's summary. Results made before it take the summary's figure when it has one (else null).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('process_results').addColumn('distance_cm', 'real').execute();
  await sql`update process_results set distance_cm = (summary->'distance'->>'cm')::real
    where jsonb_typeof(summary->'distance') = 'object'`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('process_results').dropColumn('distance_cm').execute();
}
