import type { Kysely } from 'kysely';

/**
 * The demo project while it is being made (issue 28 item 11): the cabinet shows it "being prepared", with its steps,
 * until its report is built. `demo_stopped_at` is when its seeding gave up (a video that does not play, recordings
 * never processed, nothing to report): from then on it is no longer shown as coming along.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('demo_stopped_at', 'timestamptz').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('demo_stopped_at').execute();
}
