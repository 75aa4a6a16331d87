import type { Kysely } from 'kysely';
import { isUniqueViolation, isUuid } from '../../db/sql.ts';
import type { DB, NewUser } from '../../db/types.ts';

/** Requests for access (issue 28, item 16) and the staff told of them. */
export function createAccessRequestsRepository(db: Kysely<DB>) {
  const rows = () =>
    db
      .selectFrom('access_requests as r')
      .leftJoin('users as u', 'u.id', 'r.user_id')
      .select([
        'r.id',
        'r.name',
        'r.company',
        'r.email',
        'r.package',
        'r.message',
        'r.status',
        'r.created_at',
        'r.handled_at',
        'u.public_user_id',
        'u.username',
      ]);

  return {
    async insert(values: { name: string; company: string; email: string; package: string; message: string }) {
      const row = await db.insertInto('access_requests').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },

    /** New requests first, then the handled ones; newest first within each. */
    list() {
      return rows().orderBy('r.status', 'desc').orderBy('r.created_at', 'desc').orderBy('r.id').limit(500).execute();
    },

    find(id: string) {
      if (!isUuid(id)) return Promise.resolve(undefined);
      return rows().where('r.id', '=', id).executeTakeFirst();
    },

    /** The users told of a new request: staff (super users). */
    async staffIds(): Promise<string[]> {
      const staff = await db.selectFrom('users').select('id').where('role', '=', 'super_user').execute();
      return staff.map((u) => u.id);
    },

    /**
     * Makes the account of a new request and marks it done, at once: 'handled' when it is no longer new (another
     * staff member was first), 'taken' when the username is someone's already, 'missing' when there is no request.
     */
    async convert(id: string, user: NewUser, staffId: string): Promise<'converted' | 'handled' | 'taken' | 'missing'> {
      if (!isUuid(id)) return 'missing';
      try {
        return await db.transaction().execute(async (trx) => {
          const request = await trx
            .selectFrom('access_requests')
            .select('status')
            .where('id', '=', id)
            .forUpdate()
            .executeTakeFirst();
          if (!request) return 'missing';
          if (request.status !== 'new') return 'handled';
          const created = await trx.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
          await trx
            .updateTable('access_requests')
            .set({ status: 'done', user_id: created.id, handled_by: staffId, handled_at: new Date() })
            .where('id', '=', id)
            .execute();
          return 'converted';
        });
      } catch (err) {
        if (isUniqueViolation(err)) return 'taken';
        throw err;
      }
    },
  };
}

export type AccessRequestsRepository = ReturnType<typeof createAccessRequestsRepository>;
