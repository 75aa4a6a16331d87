import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';

/** Which column a report's snapshot is stored in: jsonb (`snapshot`, before decision 026) or the build's text. */
export type SnapshotColumn = 'snapshot' | 'snapshot_text';

/**
 * For the migrations that bring stored report snapshots up to date: each snapshot, in whichever of the two columns the
 * table has (in the current schema), that `pending` selects (a filter in SQL, so snapshots already up to date are not
 * read) is parsed, handed to `upgrade` and written back when it says it changed something. One report at a time: a
 * snapshot may be large.
 */
export async function upgradeStoredSnapshots(
  // biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
  db: Kysely<any>,
  pending: (column: SnapshotColumn) => Expression<SqlBool>,
  // biome-ignore lint/suspicious/noExplicitAny: the stored JSON as it was written
  upgrade: (snapshot: any) => boolean,
): Promise<void> {
  const columns = await sql<{ column_name: SnapshotColumn }>`
    select column_name from information_schema.columns
    where table_schema = current_schema() and table_name = 'reports'
      and column_name in ('snapshot', 'snapshot_text')`.execute(db);
  for (const { column_name: column } of columns.rows) {
    const ids = await db
      .selectFrom('reports')
      .select('id')
      .where(sql.ref(column), 'is not', null)
      .where(pending(column))
      .execute();
    for (const { id } of ids) {
      const row = await db
        .selectFrom('reports')
        .select(sql.ref(column).as('stored'))
        .where('id', '=', id)
        .executeTakeFirst();
      const stored = row?.stored;
      const snapshot = typeof stored === 'string' ? JSON.parse(stored) : stored;
      if (!upgrade(snapshot)) continue;
      await db
        .updateTable('reports')
        .set({ [column]: JSON.stringify(snapshot) })
        .where('id', '=', id)
        .execute();
    }
  }
}
