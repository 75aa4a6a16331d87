import type { FieldValue, FormRow } from './platform-view.ts';

/**
 * What the form sends: numbers as numbers, an empty optional number as null, a switch as a boolean, and a field
 * named `a.b` as field `b` of object `a`.
 */
export function bodyOf(rows: FormRow[], values: Record<string, FieldValue>): Record<string, unknown> {
  const flat: Record<string, unknown> = { ...values };
  for (const field of rows.flatMap((row) => ('grid' in row ? row.grid : [row]))) {
    const value = values[field.name];
    if (field.kind === 'number') flat[field.name] = field.nullable && value === '' ? null : Number(value);
    if (field.kind === 'switch') flat[field.name] = value === 'on';
  }
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(flat)) {
    const [outer, inner] = name.split('.', 2) as [string, string | undefined];
    if (inner === undefined) body[outer] = value;
    else body[outer] = { ...(body[outer] as Record<string, unknown> | undefined), [inner]: value };
  }
  return body;
}
