import { type Kysely, sql } from 'kysely';

/**
 * Validation before the content (issue 31, item 3; decision 050): one row per calibration check a session asked for
 * (attempt 1, and 2 after a failure), analysed by a job like a dot test; the session's verdict (passed, flagged,
 * failed, not_checked) for the analyst; and its own end status, `calibration_failed` (the panel is told screen-out).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('calibration_checks')
    .addColumn('session_id', 'uuid', (c) => c.notNull().references('respondent_sessions.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull().check(sql`attempt between 1 and 2`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('queued', 'processing', 'passed', 'failed', 'error')`),
    )
    .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('threshold_percent', 'real', (c) => c.notNull())
    /** What a failure of the second attempt does, fixed when the check is asked for. */
    .addColumn('on_failure', 'text', (c) => c.notNull().check(sql`on_failure in ('end', 'continue_flag')`))
    .addColumn('accuracy_percent', 'real')
    .addColumn('error_code', 'text')
    /** The validation_end this attempt ends at (session clock, ms): what the engine reads up to. */
    .addColumn('validation_end_ms', 'double precision', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('calibration_checks_pkey', ['session_id', 'attempt'])
    .execute();
  await db.schema
    .createIndex('calibration_checks_waiting')
    .on('calibration_checks')
    .columns(['status', 'updated_at'])
    .execute();
  await db.schema
    .alterTable('respondent_sessions')
    .addColumn('calibration_check', 'text', (c) =>
      c.check(sql`calibration_check in ('passed', 'flagged', 'failed', 'not_checked')`),
    )
    .execute();
  await sql`alter table respondent_sessions drop constraint respondent_sessions_status_check`.execute(db);
  await sql`alter table respondent_sessions add constraint respondent_sessions_status_check
    check (status in ('started', 'completed', 'screened_out', 'quota_full', 'dropped_out', 'calibration_failed'))`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table respondent_sessions drop constraint respondent_sessions_status_check`.execute(db);
  await sql`alter table respondent_sessions add constraint respondent_sessions_status_check
    check (status in ('started', 'completed', 'screened_out', 'quota_full', 'dropped_out'))`.execute(db);
  await db.schema.alterTable('respondent_sessions').dropColumn('calibration_check').execute();
  await db.schema.dropTable('calibration_checks').execute();
}
