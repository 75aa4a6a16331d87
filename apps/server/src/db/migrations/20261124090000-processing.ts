import { type Kysely, sql } from 'kysely';

/**
 * Processing (design section 7): each video process gets a generation (bumped by restart, cancel and
 * reprocess, so a stale attempt can never write), timings, the engine version and a typed error; its
 * results are stored per generation and the process points at the current one, so a reprocess keeps
 * the old result until the new one is done.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('process_results')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('process_id', 'uuid', (c) => c.notNull().references('video_processes.id').onDelete('cascade'))
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('engine_version', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('recording_seconds', 'real', (c) => c.notNull())
    .addColumn('fps', 'real', (c) => c.notNull())
    .addColumn('frame_count', 'integer', (c) => c.notNull())
    // encodeFrames: gzip of binary columns (time, face flags, box, pose, 7 expressions, gaze).
    .addColumn('frames', 'bytea', (c) => c.notNull())
    // Per-second series on the content's own timeline (columnar), and tracked people (multi-face).
    .addColumn('series', 'jsonb', (c) => c.notNull())
    .addColumn('people', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('summary', 'jsonb', (c) => c.notNull())
    .addColumn('face_found', 'boolean', (c) => c.notNull())
    .addColumn('bad_frame_share', 'real', (c) => c.notNull())
    .addColumn('usable', 'boolean', (c) => c.notNull())
    .addColumn('excluded_reason', 'text', (c) =>
      c.check(sql`excluded_reason in ('no_face', 'bad_frames', 'calibration_failed', 'several_faces')`),
    )
    .addColumn('calibration_status', 'text', (c) =>
      c.notNull().check(sql`calibration_status in ('calibrated', 'calibration_failed', 'not_run')`),
    )
    .addColumn('calibration_accuracy_px', 'real')
    .addColumn('calibration_accuracy_percent', 'real')
    .addColumn('mean_engagement', 'real')
    .addUniqueConstraint('process_results_process_generation_key', ['process_id', 'generation'])
    .execute();

  await db.schema
    .alterTable('video_processes')
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    // The generation a job was last sent for: the dispatcher sends one for every other running process.
    .addColumn('queued_generation', 'integer')
    .addColumn('engine_version', 'text')
    .addColumn('error_code', 'text')
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addColumn('result_id', 'uuid', (c) => c.references('process_results.id').onDelete('set null'))
    .execute();
  // The dispatcher's sweep: processes waiting for a worker.
  await sql`create index video_processes_waiting_idx on video_processes (updated_at) where status in ('collected', 'restarted')`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('video_processes_waiting_idx').execute();
  await db.schema
    .alterTable('video_processes')
    .dropColumn('result_id')
    .dropColumn('finished_at')
    .dropColumn('started_at')
    .dropColumn('error_code')
    .dropColumn('engine_version')
    .dropColumn('queued_generation')
    .dropColumn('generation')
    .execute();
  await db.schema.dropTable('process_results').execute();
}
