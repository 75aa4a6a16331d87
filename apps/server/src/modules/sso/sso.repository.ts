import { type Kysely, sql } from 'kysely';
import type { DB, NewUser, User } from '../../db/types.ts';

/** Provider identities linked to accounts (decision 067), and the accounts an e-mail names. */
export function createSsoRepository(db: Kysely<DB>) {
  return {
    /** The account an identity (issuer + subject) is linked to. */
    findLinkedUser(issuer: string, subject: string): Promise<(User & { identity_id: string }) | undefined> {
      return db
        .selectFrom('user_identities as i')
        .innerJoin('users as u', 'u.id', 'i.user_id')
        .selectAll('u')
        .select('i.id as identity_id')
        .where('i.issuer', '=', issuer)
        .where('i.subject', '=', subject)
        .executeTakeFirst();
    },

    /** Accounts whose e-mail is this one, whatever its case (at most two are read: more than one is a conflict). */
    findUsersByEmail(email: string): Promise<User[]> {
      return db
        .selectFrom('users')
        .selectAll()
        .where(sql`lower(email)`, '=', email.toLowerCase())
        .orderBy('created_at')
        .limit(2)
        .execute();
    },

    /** Whether the account already holds an identity of this issuer. */
    async hasIdentityOf(userId: string, issuer: string): Promise<boolean> {
      const row = await db
        .selectFrom('user_identities')
        .select('id')
        .where('user_id', '=', userId)
        .where('issuer', '=', issuer)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Links an identity to an account; false when either is linked already (a concurrent first sign-in won): the
     * unique keys decide, not a read before the write.
     */
    async link(input: { userId: string; issuer: string; subject: string; email: string }): Promise<boolean> {
      const row = await db
        .insertInto('user_identities')
        .values({ user_id: input.userId, issuer: input.issuer, subject: input.subject, email: input.email })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** A new account and its identity together: neither exists without the other. */
    async createLinkedUser(user: NewUser, identity: { issuer: string; subject: string; email: string }): Promise<User> {
      return db.transaction().execute(async (trx) => {
        const created = await trx.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
        await trx
          .insertInto('user_identities')
          .values({ user_id: created.id, issuer: identity.issuer, subject: identity.subject, email: identity.email })
          .execute();
        return created;
      });
    },

    async touchIdentity(identityId: string): Promise<void> {
      await db.updateTable('user_identities').set({ last_login_at: sql`now()` }).where('id', '=', identityId).execute();
    },

    /** Whether a username is taken, whatever its case. */
    async usernameTaken(username: string): Promise<boolean> {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where(sql`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type SsoRepository = ReturnType<typeof createSsoRepository>;
