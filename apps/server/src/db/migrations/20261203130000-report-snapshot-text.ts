import type { Kysely } from 'kysely';

/**
 * Issue 28, item 6 (decision 026): a report's snapshot is written as the JSON text the build made
 * (`reports.snapshot_text`), which opening a report sends as it is. The jsonb column made PostgreSQL parse the
 * snapshot on every build and turn it back into text on every opening (50 ms of the opening's time for a 1000-respondent
 * report). A build writes only the text and leaves `snapshot` null; snapshots built before stay in `snapshot` and are
 * read from there (`coalesce(snapshot_text, snapshot::text)`) until the report is built again.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reports').addColumn('snapshot_text', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reports').dropColumn('snapshot_text').execute();
}
