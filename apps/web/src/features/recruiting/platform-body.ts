import type { FieldValue, FormRow } from './platform-view.ts';

/** What the form sends: numbers as numbers, an empty optional number as null. */
export function bodyOf(rows: FormRow[], values: Record<string, FieldValue>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...values };
  for (const field of rows.flatMap((row) => ('grid' in row ? row.grid : [row]))) {
    if (field.kind !== 'number') continue;
    const value = values[field.name];
    body[field.name] = field.nullable && value === '' ? null : Number(value);
  }
  return body;
}
