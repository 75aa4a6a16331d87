import type { ColumnType } from 'kysely';

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb: written as JSON text, read back as the value by both drivers. */
export type Json<T> = ColumnType<T, string, string>;
