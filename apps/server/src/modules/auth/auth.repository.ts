import { type Kysely, sql } from 'kysely';
import type { DB, User } from '../../db/types.ts';

/** Failed logins within the throttling window, as one attempt sees them. */
export interface LoginFailures {
  /** The database's clock. */
  now: Date;
  /** Of this username from this address. */
  pair: { count: number; last: Date | null };
  /** From this address, whatever the usernames. */
  address: { count: number; last: Date | null };
  /** Of this username from every address. */
  username: number;
}

export function createAuthRepository(db: Kysely<DB>) {
  return {
    async createSession(input: {
      tokenHash: string;
      userId: string;
      expiresAt: Date;
      ip: string | null;
      userAgent: string | null;
    }) {
      return db
        .insertInto('auth_sessions')
        .values({
          token_hash: input.tokenHash,
          user_id: input.userId,
          expires_at: input.expiresAt,
          ip: input.ip,
          user_agent: input.userAgent,
        })
        .returning(['id', 'expires_at'])
        .executeTakeFirstOrThrow();
    },

    /** The live session for a token hash (or, with `by: 'id'`, of that id) with its (active) user. */
    async findSessionWithUser(
      key: string,
      by: 'token_hash' | 'id' = 'token_hash',
    ): Promise<{ sessionId: string; lastSeenAt: Date; user: User } | undefined> {
      const row = await db
        .selectFrom('auth_sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .selectAll('u')
        .select(['s.id as session_id', 's.last_seen_at as session_last_seen_at'])
        .where(`s.${by}`, '=', key)
        .where('s.expires_at', '>', sql<Date>`now()`)
        .where('u.is_active', '=', true)
        .executeTakeFirst();
      if (!row) return undefined;
      const { session_id, session_last_seen_at, ...user } = row;
      return { sessionId: session_id, lastSeenAt: session_last_seen_at, user };
    },

    async touchSession(sessionId: string, expiresAt: Date) {
      await db
        .updateTable('auth_sessions')
        .set({ last_seen_at: sql`now()`, expires_at: expiresAt })
        .where('id', '=', sessionId)
        .execute();
    },

    async deleteSession(sessionId: string) {
      await db.deleteFrom('auth_sessions').where('id', '=', sessionId).execute();
    },

    async deleteExpiredSessions(): Promise<number> {
      const result = await db
        .deleteFrom('auth_sessions')
        .where('expires_at', '<=', sql<Date>`now()`)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /**
     * One login attempt, read and recorded atomically: under a lock on the address, the failures of
     * the window that concern it are read, `waitMs` decides, and unless it asks to wait the attempt is
     * recorded as a failure at once (the caller removes it when the password turns out right). So
     * concurrent attempts from one address, on one process or several, are counted one after another
     * and a burst cannot all pass on the same count. Times are the database's, shared by every process.
     */
    async beginLoginAttempt(
      by: { usernameKey: string; ip: string },
      windowMs: number,
      waitMs: (failures: LoginFailures) => number,
    ): Promise<{ waitMs: number } | { waitMs: 0; failures: LoginFailures }> {
      return db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtextextended(${`login:${by.ip}`}, 0))`.execute(trx);
        const pair = sql`username_key = ${by.usernameKey} and ip = ${by.ip}`;
        const row = await trx
          .selectFrom('login_failures')
          .select([
            sql<Date>`now()`.as('now'),
            sql<number>`count(*) filter (where ${pair})::int`.as('pair_count'),
            sql<Date | null>`max(created_at) filter (where ${pair})`.as('pair_last'),
            sql<number>`count(*) filter (where ip = ${by.ip})::int`.as('address_count'),
            sql<Date | null>`max(created_at) filter (where ip = ${by.ip})`.as('address_last'),
            sql<number>`count(*) filter (where username_key = ${by.usernameKey})::int`.as('username_count'),
          ])
          .where('created_at', '>', sql<Date>`now() - ${windowMs} * interval '1 millisecond'`)
          .where((eb) => eb.or([eb('username_key', '=', by.usernameKey), eb('ip', '=', by.ip)]))
          .executeTakeFirstOrThrow();
        const failures: LoginFailures = {
          now: row.now,
          pair: { count: row.pair_count, last: row.pair_last },
          address: { count: row.address_count, last: row.address_last },
          username: row.username_count,
        };
        const wait = waitMs(failures);
        if (wait > 0) return { waitMs: wait };
        await trx.insertInto('login_failures').values({ username_key: by.usernameKey, ip: by.ip }).execute();
        return { waitMs: 0, failures };
      });
    },

    /** A successful login forgets the failures of its username from its address, and only those. */
    async clearFailures(usernameKey: string, ip: string) {
      await db.deleteFrom('login_failures').where('username_key', '=', usernameKey).where('ip', '=', ip).execute();
    },

    async deleteFailuresBefore(before: Date): Promise<number> {
      const result = await db.deleteFrom('login_failures').where('created_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** The value of an instance setting, created from `make()` the first time it is asked for. */
    async getOrCreateSetting(key: string, make: () => string): Promise<string> {
      await db
        .insertInto('app_settings')
        .values({ key, value: make() })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await db.selectFrom('app_settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
      return row.value;
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
