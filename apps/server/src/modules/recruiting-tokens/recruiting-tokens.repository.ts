import { randomUUID } from 'node:crypto';
import type { RecruitingEnvironment, RecruitingService } from '@emolens/contracts';
import { type ExpressionBuilder, type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { TokenCipher } from './crypto.ts';

/** The associated data a token's ciphertext is sealed with: its row. */
const aadOf = (id: string) => `recruiting_tokens:${id}`;

type Db = Kysely<DB> | Transaction<DB>;

/** Tokens the user owns or that are shared with them (`t` is the token). */
function visibleTo(userId: string) {
  return (eb: ExpressionBuilder<DB & { t: DB['recruiting_tokens'] }, 't'>) =>
    eb.or([
      eb('t.user_id', '=', userId),
      eb.exists(
        eb
          .selectFrom('recruiting_token_shares as s')
          .select(sql<number>`1`.as('one'))
          .whereRef('s.token_id', '=', 't.id')
          .where('s.user_id', '=', userId),
      ),
    ]);
}

/** A token with its owner and whether it is the user's active one. */
function tokensOf(db: Db, userId: string) {
  return db
    .selectFrom('recruiting_tokens as t')
    .innerJoin('users as o', 'o.id', 't.user_id')
    .leftJoin('recruiting_active_tokens as a', (join) =>
      join.onRef('a.token_id', '=', 't.id').onRef('a.service', '=', 't.service').on('a.user_id', '=', userId),
    )
    .select((eb) => [
      't.id',
      't.user_id',
      't.service',
      't.environment',
      't.description',
      't.hint',
      't.created_at',
      't.validated_at',
      'o.public_user_id as owner_public_id',
      'o.username as owner_username',
      eb('a.token_id', 'is not', null).$castTo<boolean>().as('active'),
    ])
    .where(visibleTo(userId));
}

/** The token locked for the rest of the transaction (shares, activation and deletion of one token queue up). */
function lockToken(trx: Transaction<DB>, id: string) {
  return trx
    .selectFrom('recruiting_tokens')
    .select(['id', 'user_id', 'service'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Linked Toloka and Amazon tokens (issue 14, item 3). The secrets are sealed with the cipher on the way in and
 * opened only by `secretOf` / `ownSecrets`; every other read leaves them out.
 */
export function createRecruitingTokensRepository(db: Kysely<DB>, cipher: TokenCipher) {
  /** The plaintext of a row's secret, or null when it does not open (another key, a changed value). */
  const open = (id: string, sealed: Uint8Array): string | null => {
    try {
      return cipher.decrypt(sealed, aadOf(id));
    } catch {
      return null;
    }
  };

  return {
    /** The user's tokens of a service and those shared with them, newest first. */
    list(userId: string, service: RecruitingService) {
      return tokensOf(db, userId)
        .where('t.service', '=', service)
        .orderBy('t.created_at', 'desc')
        .orderBy('t.id')
        .execute();
    },

    /** One token the user may see (own or shared), or undefined. */
    find(userId: string, id: string) {
      return tokensOf(db, userId).where('t.id', '=', id).executeTakeFirst();
    },

    /** Who the tokens are shared with, and whether each of them has it active. */
    sharesOf(tokenIds: string[]) {
      if (tokenIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('recruiting_token_shares as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .leftJoin('recruiting_active_tokens as a', (join) =>
          join.onRef('a.user_id', '=', 's.user_id').onRef('a.token_id', '=', 's.token_id'),
        )
        .select((eb) => [
          's.token_id',
          's.user_id',
          'u.public_user_id',
          'u.username',
          eb('a.token_id', 'is not', null).$castTo<boolean>().as('active'),
        ])
        .where('s.token_id', 'in', tokenIds)
        .orderBy('s.created_at')
        .orderBy('u.username')
        .execute();
    },

    async countOwn(userId: string, service: RecruitingService): Promise<number> {
      const row = await db
        .selectFrom('recruiting_tokens')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .where('service', '=', service)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** The user's own tokens of a service and environment with their secrets (those that open), to spot a repeat. */
    async ownSecrets(userId: string, service: RecruitingService, environment: RecruitingEnvironment) {
      const rows = await db
        .selectFrom('recruiting_tokens')
        .select(['id', 'hint', 'secret_ciphertext'])
        .where('user_id', '=', userId)
        .where('service', '=', service)
        .where('environment', '=', environment)
        .execute();
      return rows.map((row) => ({ id: row.id, hint: row.hint, secret: open(row.id, row.secret_ciphertext) }));
    },

    /**
     * A new token, its secret sealed; it becomes the user's active token of its service when they have none.
     * Its id.
     */
    async insert(values: {
      userId: string;
      service: RecruitingService;
      environment: RecruitingEnvironment;
      description: string;
      secret: string;
      hint: string;
      validatedAt: Date;
    }): Promise<string> {
      const id = randomUUID();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('recruiting_tokens')
          .values({
            id,
            user_id: values.userId,
            service: values.service,
            environment: values.environment,
            description: values.description,
            secret_ciphertext: cipher.encrypt(values.secret, aadOf(id)),
            hint: values.hint,
            validated_at: values.validatedAt,
          })
          .execute();
        await trx
          .insertInto('recruiting_active_tokens')
          .values({ user_id: values.userId, service: values.service, token_id: id })
          .onConflict((oc) => oc.columns(['user_id', 'service']).doNothing())
          .execute();
      });
      return id;
    },

    /**
     * The secret of a token the user may use (own or shared), by id or as their active token of a service;
     * `secret` is null when it does not open.
     */
    async secretOf(userId: string, where: { id: string } | { activeOf: RecruitingService }) {
      let query = db
        .selectFrom('recruiting_tokens as t')
        .select(['t.id', 't.service', 't.environment', 't.secret_ciphertext'])
        .where(visibleTo(userId));
      if ('id' in where) {
        query = query.where('t.id', '=', where.id);
      } else {
        query = query.where(({ exists, selectFrom }) =>
          exists(
            selectFrom('recruiting_active_tokens as a')
              .select(sql<number>`1`.as('one'))
              .whereRef('a.token_id', '=', 't.id')
              .where('a.user_id', '=', userId)
              .where('a.service', '=', where.activeOf),
          ),
        );
      }
      const row = await query.executeTakeFirst();
      if (!row) return null;
      return {
        id: row.id,
        service: row.service,
        environment: row.environment,
        secret: open(row.id, row.secret_ciphertext),
      };
    },

    /** Makes the token the user's active one of its service, when they own it or it is shared with them. */
    activate(userId: string, id: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const token = await lockToken(trx, id);
        if (!token) return false;
        if (token.user_id !== userId) {
          const share = await trx
            .selectFrom('recruiting_token_shares')
            .select('token_id')
            .where('token_id', '=', id)
            .where('user_id', '=', userId)
            .executeTakeFirst();
          if (!share) return false;
        }
        await trx
          .insertInto('recruiting_active_tokens')
          .values({ user_id: userId, service: token.service, token_id: id })
          .onConflict((oc) => oc.columns(['user_id', 'service']).doUpdateSet({ token_id: id }))
          .execute();
        return true;
      });
    },

    /** Shares the owner's token with a user (again: nothing changes). False when it is not the owner's. */
    share(ownerId: string, id: string, userId: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const token = await lockToken(trx, id);
        if (token?.user_id !== ownerId) return false;
        await trx
          .insertInto('recruiting_token_shares')
          .values({ token_id: id, user_id: userId })
          .onConflict((oc) => oc.columns(['token_id', 'user_id']).doNothing())
          .execute();
        return true;
      });
    },

    /** Ends a share, unless the user has the token active ("an active token of another user cannot be revoked"). */
    revokeShare(ownerId: string, id: string, userId: string): Promise<'revoked' | 'missing' | 'active'> {
      return db.transaction().execute(async (trx) => {
        const token = await lockToken(trx, id);
        if (token?.user_id !== ownerId) return 'missing';
        const active = await trx
          .selectFrom('recruiting_active_tokens')
          .select('token_id')
          .where('user_id', '=', userId)
          .where('token_id', '=', id)
          .executeTakeFirst();
        if (active) return 'active';
        const removed = await trx
          .deleteFrom('recruiting_token_shares')
          .where('token_id', '=', id)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        return Number(removed.numDeletedRows) > 0 ? 'revoked' : 'missing';
      });
    },

    /** Deletes the owner's token, unless it is shared ("a token cannot be deleted while shared"). */
    delete(ownerId: string, id: string): Promise<'deleted' | 'missing' | 'shared'> {
      return db.transaction().execute(async (trx) => {
        const token = await lockToken(trx, id);
        if (token?.user_id !== ownerId) return 'missing';
        const shared = await trx
          .selectFrom('recruiting_token_shares')
          .select('token_id')
          .where('token_id', '=', id)
          .executeTakeFirst();
        if (shared) return 'shared';
        await trx.deleteFrom('recruiting_tokens').where('id', '=', id).execute();
        return 'deleted';
      });
    },
  };
}

export type RecruitingTokensRepository = ReturnType<typeof createRecruitingTokensRepository>;
