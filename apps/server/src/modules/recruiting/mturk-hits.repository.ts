import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB, MturkHitsTable } from '../../db/types.ts';

/** A HIT as it is made: its columns but those the database fills in, with the token it uses and who made it. */
type NewMturkHit = Omit<Selectable<MturkHitsTable>, 'acceptance' | 'created_at' | 'updated_at'> & {
  token_id: string;
  created_by: string;
};

/** A research's MTurk HIT (issue 14, item 6). */
export function createMturkHitsRepository(db: Kysely<DB>) {
  return {
    find(researchId: string) {
      return db.selectFrom('mturk_hits').selectAll().where('campaign_id', '=', researchId).executeTakeFirst();
    },

    /** The HIT made; false when the research has one already (made concurrently). */
    async insert(row: NewMturkHit): Promise<boolean> {
      const result = await db
        .insertInto('mturk_hits')
        .values(row)
        .onConflict((c) => c.column('campaign_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async setState(researchId: string, status: string, expiresAt: Date | null) {
      await db
        .updateTable('mturk_hits')
        .set({ status, expires_at: expiresAt, updated_at: sql<Date>`now()` })
        .where('campaign_id', '=', researchId)
        .execute();
    },
  };
}

export type MturkHitsRepository = ReturnType<typeof createMturkHitsRepository>;
