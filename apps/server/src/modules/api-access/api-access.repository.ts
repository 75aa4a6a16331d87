import type { ApiTokenScope } from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';
import type { DB, User } from '../../db/types.ts';

const COLUMNS = ['id', 'scope', 'description', 'prefix', 'created_at', 'last_used_at', 'expires_at'] as const;

/** Personal API tokens (issue 14): kept as hashes; every read of a user's tokens skips revoked ones. */
export function createApiAccessRepository(db: Kysely<DB>) {
  return {
    /** The user's tokens not revoked (expired ones included: they say so), newest first. */
    list(userId: string) {
      return db
        .selectFrom('api_tokens')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },

    async activeCount(userId: string): Promise<number> {
      const row = await db
        .selectFrom('api_tokens')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /**
     * A new token; with `replace`, that token of the user is revoked in the same transaction (null when it is not
     * theirs or no longer active: nothing is written).
     */
    async create(
      userId: string,
      values: { scope: ApiTokenScope; description: string; tokenHash: string; prefix: string; expiresAt: Date | null },
      replace: string | null,
    ) {
      return db.transaction().execute(async (trx) => {
        if (replace) {
          const revoked = await trx
            .updateTable('api_tokens')
            .set({ revoked_at: sql<Date>`now()` })
            .where('id', '=', replace)
            .where('user_id', '=', userId)
            .where('revoked_at', 'is', null)
            .executeTakeFirst();
          if (Number(revoked.numUpdatedRows) === 0) return null;
        }
        return trx
          .insertInto('api_tokens')
          .values({
            user_id: userId,
            scope: values.scope,
            description: values.description,
            token_hash: values.tokenHash,
            prefix: values.prefix,
            expires_at: values.expiresAt,
          })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
      });
    },

    /** One of the user's active tokens (its scope and description, to rotate it). */
    find(userId: string, id: string) {
      return db
        .selectFrom('api_tokens')
        .select(COLUMNS)
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
    },

    async revoke(userId: string, id: string): Promise<boolean> {
      const result = await db
        .updateTable('api_tokens')
        .set({ revoked_at: sql<Date>`now()` })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** The live token of this hash with its (active) user; its last use noted at most once a minute. */
    async authenticate(tokenHash: string): Promise<{ id: string; scope: ApiTokenScope; user: User } | undefined> {
      const row = await db
        .selectFrom('api_tokens as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .selectAll('u')
        .select(['t.id as token_id', 't.scope as token_scope', 't.last_used_at as token_last_used_at'])
        .where('t.token_hash', '=', tokenHash)
        .where('t.revoked_at', 'is', null)
        .where((eb) => eb.or([eb('t.expires_at', 'is', null), eb('t.expires_at', '>', sql<Date>`now()`)]))
        .where('u.is_active', '=', true)
        .executeTakeFirst();
      if (!row) return undefined;
      const { token_id, token_scope, token_last_used_at, ...user } = row;
      if (!token_last_used_at || Date.now() - token_last_used_at.getTime() > 60_000) {
        await db.updateTable('api_tokens').set({ last_used_at: sql<Date>`now()` }).where('id', '=', token_id).execute();
      }
      return { id: token_id, scope: token_scope, user };
    },
  };
}

export type ApiAccessRepository = ReturnType<typeof createApiAccessRepository>;
