import type { NotificationKind, NotificationParams } from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';
import { beforeCursor, micros } from '../../db/sql.ts';
import type { DB } from '../../db/types.ts';

/** In-cabinet notifications (issue 15, item 6). Every read and write is of one user's own. */
export function createNotificationsRepository(db: Kysely<DB>) {
  return {
    /** A new notification; false when its dedupe key was notified to the user already. */
    async add(row: {
      userId: string;
      kind: NotificationKind;
      params: NotificationParams;
      link: string | null;
      dedupeKey: string | null;
    }): Promise<boolean> {
      const result = await db
        .insertInto('notifications')
        .values({
          user_id: row.userId,
          kind: row.kind,
          params: JSON.stringify(row.params),
          link: row.link,
          dedupe_key: row.dedupeKey,
        })
        .onConflict((c) => c.columns(['user_id', 'dedupe_key']).where('dedupe_key', 'is not', null).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** A page of the user's notifications, newest first, after `before` (a row's moment and id). */
    list(userId: string, limit: number, before?: { micros: string; id: string }) {
      return db
        .selectFrom('notifications')
        .select(['id', 'kind', 'params', 'link', 'created_at', 'read_at', micros('created_at').as('micros')])
        .where('user_id', '=', userId)
        .$if(before !== undefined, (q) =>
          q.where(beforeCursor('created_at', 'id', before as { micros: string; id: string })),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    async unreadCount(userId: string): Promise<number> {
      const row = await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Marks these of the user's notifications read (`'all'`: every one); how many were unread. */
    async markRead(userId: string, ids: readonly string[] | 'all'): Promise<number> {
      if (ids !== 'all' && ids.length === 0) return 0;
      const result = await db
        .updateTable('notifications')
        .set({ read_at: sql<Date>`now()` })
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .$if(ids !== 'all', (q) => q.where('id', 'in', ids as readonly string[]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /**
     * What a report's build notifies, if the report is still at this generation and in this state: its name, its
     * research, and whom to tell — whoever made it, else the project's owner.
     */
    reportEvent(reportId: string, generation: number) {
      return db
        .selectFrom('reports as r')
        .innerJoin('campaigns as c', 'c.id', 'r.campaign_id')
        .innerJoin('projects as p', 'p.id', 'c.project_id')
        .select([
          'r.name',
          'r.campaign_id',
          'r.status',
          'r.failed',
          'c.title',
          (eb) => eb.fn.coalesce('r.created_by', 'p.owner_id').as('user_id'),
        ])
        .where('r.id', '=', reportId)
        .where('r.generation', '=', generation)
        .executeTakeFirst();
    },

    /** What a failed video process notifies: its research, its session, and the project's owner. */
    processEvent(processId: string) {
      return db
        .selectFrom('video_processes as v')
        .innerJoin('campaigns as c', 'c.id', 'v.campaign_id')
        .innerJoin('projects as p', 'p.id', 'c.project_id')
        .select(['v.campaign_id', 'v.session_id', 'c.title', 'p.owner_id'])
        .where('v.id', '=', processId)
        .executeTakeFirst();
    },
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
