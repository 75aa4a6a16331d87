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

/** A row's moment as microseconds since 1970, as text (exact: the moment of a keyset cursor, `KEYSET_CURSOR`). */
export function micros(column: string) {
  return sql<string>`(extract(epoch from ${sql.ref(column)}) * 1000000)::bigint::text`;
}

/** Rows strictly before a keyset cursor's row, newest first by (`column`, `idColumn`). */
export function beforeCursor(column: string, idColumn: string, cursor: { micros: string; id: string }) {
  return sql<boolean>`(${sql.ref(column)}, ${sql.ref(idColumn)}) < (timestamptz 'epoch' + ${cursor.micros}::bigint * interval '1 microsecond', ${cursor.id}::uuid)`;
}

/** A keyset cursor's parts (its shape checked by the contract), and the cursor of a row. */
export function parseCursor(cursor: string): { micros: string; id: string } {
  const [value = '0', id = ''] = cursor.split('_');
  return { micros: value, id };
}
export const cursorOf = (row: { micros: string; id: string }) => `${row.micros}_${row.id}`;

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
