import { fixationSettingsInput, fixationSettingsSchema } from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';

/**
 * The fixation filter by the book (issue 31, item 6; decision 042): reports saved with the earlier settings
 * (`velocity` in content diagonals/s, `mergeDistance` in diagonals) get them in today's terms — degrees under the
 * assumed viewing geometry, their durations as they were, the new steps at their defaults — through the contracts'
 * own reading of old settings, so a rebuild, the gaze plot and the report page see what the form would send.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  const rows = await db
    .selectFrom('reports')
    .select(['id', 'fixations'])
    .where(sql<boolean>`fixations ? 'velocity' or fixations ? 'mergeDistance'`)
    .execute();
  for (const row of rows) {
    const stored = typeof row.fixations === 'string' ? JSON.parse(row.fixations) : row.fixations;
    const read = fixationSettingsInput.safeParse(stored);
    // Settings the old bounds let through always read; anything else takes the defaults rather than breaking the report.
    const settings = read.success ? read.data : fixationSettingsSchema.parse({});
    await db
      .updateTable('reports')
      .set({ fixations: JSON.stringify(settings) })
      .where('id', '=', row.id)
      .execute();
  }
}

export async function down(): Promise<void> {}
