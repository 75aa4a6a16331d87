import { type Kysely, sql } from 'kysely';

/**
 * The respondent side (design section 6): sessions opened from quota links, their consent, the
 * recording (segments of chunks) and the event log, and one video process per session and research.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('respondent_sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('link_id', 'uuid', (c) => c.notNull().references('project_accessor_links.id').onDelete('cascade'))
    .addColumn('project_id', 'uuid', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('scenario_id', 'uuid', (c) => c.notNull().references('scenarios.id').onDelete('cascade'))
    // The browser holds the secret; only its hash is stored, like a cabinet session's token.
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('started', 'completed', 'screened_out', 'quota_full', 'dropped_out')`),
    )
    .addColumn('step', 'text', (c) => c.notNull().defaultTo('consent'))
    .addColumn('is_preview', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('participant_id', 'text')
    // Panel parameters as they came (Cint RID, MTurk assignment/worker/hit/submit address).
    .addColumn('panel', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('consent_policy_version', 'text', (c) => c.notNull())
    .addColumn('consent_language', 'text', (c) => c.notNull())
    .addColumn('consented_at', 'timestamptz', (c) => c.notNull())
    .addColumn('panel_consent', 'boolean', (c) => c.notNull().defaultTo(false))
    // The researches in the order this respondent sees them (random order fixed at the start).
    .addColumn('research_order', 'jsonb', (c) => c.notNull())
    .addColumn('research_index', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('screener_ran', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('screen_width', 'integer')
    .addColumn('screen_height', 'integer')
    .addColumn('device_pixel_ratio', 'real')
    .addColumn('user_agent', 'text')
    .addColumn('outcome', 'text', (c) => c.check(sql`outcome in ('complete', 'screen_out', 'quota_full')`))
    // A completion's quota slot: pending until processing decides, counted, or released.
    .addColumn('quota_state', 'text', (c) => c.check(sql`quota_state in ('pending', 'counted', 'released')`))
    .addColumn('leave_reason', 'text')
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('ended_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('respondent_sessions_link_idx')
    .on('respondent_sessions')
    .columns(['link_id', 'status'])
    .execute();
  await db.schema
    .createIndex('respondent_sessions_scenario_idx')
    .on('respondent_sessions')
    .columns(['scenario_id', 'status'])
    .execute();
  await db.schema
    .createIndex('respondent_sessions_project_idx')
    .on('respondent_sessions')
    .column('project_id')
    .execute();
  // The same participant cannot complete the same link twice.
  await sql`create unique index respondent_sessions_participant_complete_idx
    on respondent_sessions (link_id, participant_id) where status = 'completed' and participant_id is not null`.execute(
    db,
  );

  await db.schema
    .createTable('recording_segments')
    .addColumn('session_id', 'uuid', (c) => c.notNull().references('respondent_sessions.id').onDelete('cascade'))
    .addColumn('segment', 'integer', (c) => c.notNull())
    // Where the segment starts on the session clock (ms since the session started).
    .addColumn('offset_ms', 'integer', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('recording_segments_pkey', ['session_id', 'segment'])
    .execute();

  await db.schema
    .createTable('recording_chunks')
    .addColumn('session_id', 'uuid', (c) => c.notNull())
    .addColumn('segment', 'integer', (c) => c.notNull())
    .addColumn('index', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('recording_chunks_pkey', ['session_id', 'segment', 'index'])
    .addForeignKeyConstraint(
      'recording_chunks_segment_fkey',
      ['session_id', 'segment'],
      'recording_segments',
      ['session_id', 'segment'],
      (c) => c.onDelete('cascade'),
    )
    .execute();

  // A deleted session (or its project) leaves its chunk files to the storage-trash job, like media.
  await sql`
    create function recording_chunk_to_storage_trash() returns trigger language plpgsql as $$
    begin
      insert into storage_trash (key) values (old.storage_key) on conflict do nothing;
      return old;
    end
    $$`.execute(db);
  await sql`
    create trigger recording_chunk_deleted after delete on recording_chunks
    for each row execute function recording_chunk_to_storage_trash()`.execute(db);

  await db.schema
    .createTable('session_event_batches')
    .addColumn('session_id', 'uuid', (c) => c.notNull().references('respondent_sessions.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('events', 'jsonb', (c) => c.notNull())
    // The batch's first and last event time, for the monotonic check of the next batch.
    .addColumn('first_t', 'double precision', (c) => c.notNull())
    .addColumn('last_t', 'double precision', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('session_event_batches_pkey', ['session_id', 'seq'])
    .execute();

  await db.schema
    .createTable('video_processes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('session_id', 'uuid', (c) => c.notNull().references('respondent_sessions.id').onDelete('cascade'))
    .addColumn('campaign_id', 'uuid', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`status in ('created', 'collected', 'preprocessing', 'in_process', 'done', 'error', 'detection_error', 'canceled', 'restarted')`,
        ),
    )
    .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('video_processes_session_campaign_key', ['session_id', 'campaign_id'])
    .execute();
  await db.schema
    .createIndex('video_processes_campaign_idx')
    .on('video_processes')
    .columns(['campaign_id', 'status'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('video_processes').execute();
  await db.schema.dropTable('session_event_batches').execute();
  await sql`drop trigger if exists recording_chunk_deleted on recording_chunks`.execute(db);
  await db.schema.dropTable('recording_chunks').execute();
  await sql`drop function if exists recording_chunk_to_storage_trash()`.execute(db);
  await db.schema.dropTable('recording_segments').execute();
  await db.schema.dropTable('respondent_sessions').execute();
}
