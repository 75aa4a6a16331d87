import { sql } from 'kysely';

/**
 * A row's next version for optimistic concurrency: millisecond precision (it travels through JSON
 * and comes back as `updated_at`), and strictly later than the current one even within a millisecond.
 */
export const NEXT_VERSION = sql<Date>`greatest(date_trunc('milliseconds', clock_timestamp()), updated_at + interval '1 millisecond')`;

/**
 * The project (by a reference to its id) belongs to a self-service test that has left its draft (issue 15): sent to
 * moderation, it cannot be edited any more, whoever asks — its research, files and survey stay as moderated.
 */
export function lockedBySelfService(projectId: string) {
  return sql<boolean>`exists (select 1 from self_service_tests sst where sst.project_id = ${sql.ref(projectId)} and sst.state <> 'draft')`;
}

/** An ILIKE pattern for "contains": `%`, `_` and `\` typed by a user are text, not wildcards. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come from URLs: anything that is not a uuid is simply not found (and never reaches SQL as one). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Postgres' unique violation (23505): an insert or update met a row a unique index already holds. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}
