import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB, TolokaPoolsTable } from '../../db/types.ts';

/** A pool as it is made: its columns but those the database fills in, with the token it uses and who made it. */
type NewTolokaPool = Omit<
  Selectable<TolokaPoolsTable>,
  'last_close_reason' | 'acceptance' | 'created_at' | 'updated_at'
> & { token_id: string; created_by: string };

/** A research's Toloka pool, and what making one needs of the research (issue 14, item 4). */
export function createTolokaPoolsRepository(db: Kysely<DB>) {
  return {
    find(researchId: string) {
      return db.selectFrom('toloka_pools').selectAll().where('campaign_id', '=', researchId).executeTakeFirst();
    },

    /** The pool made; false when the research has one already (made concurrently). */
    async insert(row: NewTolokaPool): Promise<boolean> {
      const result = await db
        .insertInto('toloka_pools')
        .values({ ...row, audience: JSON.stringify(row.audience) })
        .onConflict((c) => c.column('campaign_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async setState(researchId: string, status: string, lastCloseReason: string | null) {
      await db
        .updateTable('toloka_pools')
        .set({ status, last_close_reason: lastCloseReason, updated_at: sql<Date>`now()` })
        .where('campaign_id', '=', researchId)
        .execute();
    },
  };
}

export type TolokaPoolsRepository = ReturnType<typeof createTolokaPoolsRepository>;
