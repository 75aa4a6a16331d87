import { type Kysely, sql } from 'kysely';

/**
 * Privacy mode (issue 32; decision 064): where a session's face analysis runs. `server` (video uploaded) for every
 * session so far and every research without the mode; `undecided` for a device session until its speed is measured,
 * then `device` (readings uploaded) or, when the respondent chose to upload the video instead, `server` with
 * `fell_back`. The frames a second the device analysed during the face check, as measured. And the session's own end
 * when a device was too slow and the respondent stopped, `device_too_slow` (the panel is told screen-out).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('respondent_sessions')
    .addColumn('analysis_site', 'text', (c) =>
      c.notNull().defaultTo('server').check(sql`analysis_site in ('device', 'server', 'undecided')`),
    )
    .addColumn('device_fps', 'real', (c) => c.check(sql`device_fps between 0 and 240`))
    .addColumn('fell_back', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`alter table respondent_sessions drop constraint respondent_sessions_status_check`.execute(db);
  await sql`alter table respondent_sessions add constraint respondent_sessions_status_check
    check (status in ('started', 'completed', 'screened_out', 'quota_full', 'dropped_out', 'calibration_failed',
      'device_too_slow'))`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table respondent_sessions drop constraint respondent_sessions_status_check`.execute(db);
  await sql`alter table respondent_sessions add constraint respondent_sessions_status_check
    check (status in ('started', 'completed', 'screened_out', 'quota_full', 'dropped_out', 'calibration_failed'))`.execute(
    db,
  );
  await db.schema
    .alterTable('respondent_sessions')
    .dropColumn('analysis_site')
    .dropColumn('device_fps')
    .dropColumn('fell_back')
    .execute();
}
