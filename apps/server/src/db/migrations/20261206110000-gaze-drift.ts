import type { Kysely } from 'kysely';

/**
 * Drift per respondent (issue 31 item 4, decision 053): what the drift checkpoints during the content measured, from
 * the result's `summary.drift` when it is stored: the mean and largest offset of the gaze on the checkpoint dots of
 * the checkpoints used (screen CSS px), the mean as % of the screen's diagonal, how many checkpoints were used and
 * whether the gaze was corrected by them. Null: the session had no checkpoint (or its result was stored before drift
 * was measured); a checkpoint count of 0 with null offsets: checkpoints shown, none measured on the gaze.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('process_results')
    .addColumn('drift_mean_px', 'real')
    .addColumn('drift_max_px', 'real')
    .addColumn('drift_mean_percent', 'real')
    .addColumn('drift_checkpoints', 'integer')
    .addColumn('drift_corrected', 'boolean')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('process_results')
    .dropColumn('drift_mean_px')
    .dropColumn('drift_max_px')
    .dropColumn('drift_mean_percent')
    .dropColumn('drift_checkpoints')
    .dropColumn('drift_corrected')
    .execute();
}
