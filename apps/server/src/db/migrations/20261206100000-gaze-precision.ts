import type { Kysely } from 'kysely';

/**
 * The gaze's precision on the validation dots (issue 31 item 2, decision 052): RMS of the sample-to-sample distances
 * of the stored gaze, px and % of the screen's diagonal, measured when the result is stored, beside the calibration's
 * accuracy, so lists, reports and exports show it in degrees at `distance_cm` as well. Results stored before it have
 * none (null): a result's precision needs its frames and event log, which reprocessing reads.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('process_results')
    .addColumn('calibration_precision_px', 'real')
    .addColumn('calibration_precision_percent', 'real')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('process_results')
    .dropColumn('calibration_precision_px')
    .dropColumn('calibration_precision_percent')
    .execute();
}
