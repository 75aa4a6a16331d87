import { type Kysely, sql } from 'kysely';

/**
 * Retention and consent withdrawal (design sections 6 and 7): a project's retention setting, and a
 * record of every deletion of respondent data (by the hourly retention job or by an analyst acting on
 * a withdrawal of consent). The record keeps counts and the identifier the analyst typed, nothing else
 * about the respondent.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('retention_mode', 'text', (c) =>
      c
        .notNull()
        .defaultTo('keep')
        .check(sql`retention_mode in ('keep', 'delete_after_processing', 'delete_after_days')`),
    )
    .addColumn('retention_days', 'integer', (c) => c.check(sql`retention_days between 1 and 3650`))
    .execute();
  // Days are set exactly when the mode needs them.
  await sql`alter table projects add constraint projects_retention_days_check2
    check ((retention_mode = 'delete_after_days') = (retention_days is not null))`.execute(db);
  // The job's sweeps: projects whose sessions it looks at.
  await sql`create index projects_retention_idx on projects (retention_mode) where retention_mode <> 'keep'`.execute(
    db,
  );

  await db.schema
    .createTable('data_deletions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // The analyst who deleted; null for the retention job (or once the user is gone).
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('reason', 'text', (c) => c.notNull().check(sql`reason in ('consent_withdrawn', 'retention')`))
    // What went: whole sessions, or only their recordings (delete after processing).
    .addColumn('scope', 'text', (c) => c.notNull().check(sql`scope in ('sessions', 'recordings')`))
    .addColumn('identifier_kind', 'text', (c) =>
      c.check(sql`identifier_kind in ('participant_id', 'session_id', 'completion_code')`),
    )
    .addColumn('identifier', 'text')
    .addColumn('session_count', 'integer', (c) => c.notNull().check(sql`session_count >= 0`))
    .execute();
  await db.schema
    .createIndex('data_deletions_project_idx')
    .on('data_deletions')
    .columns(['project_id', 'created_at'])
    .execute();
  // Sessions ending long ago go first; the sweep of "N days after the end" reads this.
  await sql`create index respondent_sessions_ended_idx on respondent_sessions (project_id, coalesce(ended_at, last_seen_at))`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('respondent_sessions_ended_idx').execute();
  await db.schema.dropTable('data_deletions').execute();
  await db.schema.dropIndex('projects_retention_idx').execute();
  await sql`alter table projects drop constraint projects_retention_days_check2`.execute(db);
  await db.schema.alterTable('projects').dropColumn('retention_days').dropColumn('retention_mode').execute();
}
