import { type Kysely, sql } from 'kysely';

/**
 * Areas drawn on reports become shapes (issue 31, item 5; decision 044): each stored `{x, y, width, height}` turns
 * into `{shape: {kind: 'rectangle', x, y, width, height}, key_frames: []}`, its item, name and window kept; areas
 * already in the new form are left alone. Built snapshots keep their areas (the cabinet reads a missing shape as
 * the rectangle).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    UPDATE reports SET areas = (
      SELECT coalesce(jsonb_agg(
        CASE WHEN a ? 'shape' THEN a ELSE jsonb_build_object(
          'item', a->'item',
          'name', a->'name',
          'shape', jsonb_build_object('kind', 'rectangle', 'x', a->'x', 'y', a->'y', 'width', a->'width', 'height', a->'height'),
          'key_frames', '[]'::jsonb,
          'from', coalesce(a->'from', 'null'::jsonb),
          'to', coalesce(a->'to', 'null'::jsonb)
        ) END ORDER BY n), '[]'::jsonb)
      FROM jsonb_array_elements(areas) WITH ORDINALITY AS e(a, n)
    )
    WHERE jsonb_array_length(areas) > 0`.execute(db);
}

/** Back to rectangles: a polygon or a moving area becomes the rectangle around its (first) shape. */
// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    UPDATE reports SET areas = (
      SELECT coalesce(jsonb_agg(
        CASE WHEN NOT a ? 'shape' THEN a
        WHEN a->'shape'->>'kind' = 'rectangle' THEN jsonb_build_object(
          'item', a->'item', 'name', a->'name',
          'x', a->'shape'->'x', 'y', a->'shape'->'y', 'width', a->'shape'->'width', 'height', a->'shape'->'height',
          'from', a->'from', 'to', a->'to')
        ELSE (
          SELECT jsonb_build_object(
            'item', a->'item', 'name', a->'name',
            'x', min((p->>'x')::float8), 'y', min((p->>'y')::float8),
            'width', max((p->>'x')::float8) - min((p->>'x')::float8),
            'height', max((p->>'y')::float8) - min((p->>'y')::float8),
            'from', a->'from', 'to', a->'to')
          FROM jsonb_array_elements(a->'shape'->'points') AS q(p))
        END ORDER BY n), '[]'::jsonb)
      FROM jsonb_array_elements(areas) WITH ORDINALITY AS e(a, n)
    )
    WHERE jsonb_array_length(areas) > 0`.execute(db);
}
