import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  // A failed file keeps a code, never the failure's text (which carried server paths): the
  // content failures of the probe become 'invalid_format', anything else 'processing_failed'.
  await sql`
    update media set error = case
      when split_part(error, ':', 1) in ('not_a_video', 'no_frames', 'decode_failed', 'empty_file')
        then 'invalid_format'
      else 'processing_failed'
    end
    where error is not null`.execute(db);
  await sql`
    alter table media add constraint media_error_code_check
      check (error is null or error in ('invalid_format', 'processing_failed'))`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table media drop constraint media_error_code_check`.execute(db);
}
