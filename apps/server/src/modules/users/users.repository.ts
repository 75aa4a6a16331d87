import { type Kysely, sql } from 'kysely';
import type { DB, NewUser, User, UserUpdate } from '../../db/types.ts';

export function createUsersRepository(db: Kysely<DB>) {
  return {
    findByUsername(username: string): Promise<User | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where(sql`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst();
    },

    /** Public ids are typed by people: case does not matter. */
    findByPublicId(publicId: string): Promise<User | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('public_user_id', '=', publicId.trim().toUpperCase())
        .executeTakeFirst();
    },

    findById(id: string): Promise<User | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    insert(user: NewUser): Promise<User> {
      return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
    },

    async update(id: string, patch: UserUpdate): Promise<void> {
      await db
        .updateTable('users')
        .set({ ...patch, updated_at: sql`now()` })
        .where('id', '=', id)
        .execute();
    },

    async count(): Promise<number> {
      const row = await db.selectFrom('users').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
      return row.n;
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
