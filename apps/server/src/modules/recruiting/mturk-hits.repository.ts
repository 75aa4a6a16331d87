import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.ts';

/** A research's MTurk HIT (issue 14, item 6). */
export function createMturkHitsRepository(db: Kysely<DB>) {
  return {
    find(campaignId: string) {
      return db.selectFrom('mturk_hits').selectAll().where('campaign_id', '=', campaignId).executeTakeFirst();
    },

    /** The HIT made; false when the research has one already (made concurrently). */
    async insert(row: {
      campaign_id: string;
      token_id: string;
      environment: 'production' | 'sandbox';
      hit_id: string;
      group_id: string | null;
      title: string;
      reward: number;
      max_assignments: number;
      status: string;
      expires_at: Date | null;
      created_by: string;
    }): Promise<boolean> {
      const result = await db
        .insertInto('mturk_hits')
        .values(row)
        .onConflict((c) => c.column('campaign_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async setState(campaignId: string, status: string, expiresAt: Date | null) {
      await db
        .updateTable('mturk_hits')
        .set({ status, expires_at: expiresAt, updated_at: sql<Date>`now()` })
        .where('campaign_id', '=', campaignId)
        .execute();
    },
  };
}

export type MturkHitsRepository = ReturnType<typeof createMturkHitsRepository>;
