import { type Kysely, sql } from 'kysely';
import type { DB, User } from '../../db/types.ts';

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

    /** The live session for a token hash with its (active) user. */
    async findSessionWithUser(
      tokenHash: string,
    ): Promise<{ sessionId: string; lastSeenAt: Date; user: User } | undefined> {
      const row = await db
        .selectFrom('auth_sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .selectAll('u')
        .select(['s.id as session_id', 's.last_seen_at as session_last_seen_at'])
        .where('s.token_hash', '=', tokenHash)
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

    async countRecentFailures(by: { usernameKey: string; ip: string }, since: Date) {
      const row = await db
        .selectFrom('login_failures')
        .select([
          sql<number>`count(*) filter (where username_key = ${by.usernameKey})::int`.as('by_username'),
          sql<number>`count(*) filter (where ip = ${by.ip})::int`.as('by_ip'),
          sql<Date | null>`min(created_at) filter (where username_key = ${by.usernameKey})`.as('oldest_by_username'),
        ])
        .where('created_at', '>', since)
        .where((eb) => eb.or([eb('username_key', '=', by.usernameKey), eb('ip', '=', by.ip)]))
        .executeTakeFirstOrThrow();
      return { byUsername: row.by_username, byIp: row.by_ip, oldestByUsername: row.oldest_by_username };
    },

    async recordFailure(usernameKey: string, ip: string) {
      await db.insertInto('login_failures').values({ username_key: usernameKey, ip }).execute();
    },

    async clearFailures(usernameKey: string) {
      await db.deleteFrom('login_failures').where('username_key', '=', usernameKey).execute();
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
