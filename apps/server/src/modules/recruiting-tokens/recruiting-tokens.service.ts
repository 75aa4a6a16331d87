import {
  RECRUITING_TOKEN_LIMIT,
  type RecruitingEnvironment,
  type RecruitingService,
  type RecruitingToken,
  type RecruitingTokenList,
  ref,
  type shareRecruitingTokenInput,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { jobPlatform } from '../recruiting/platforms/index.ts';
import type { PlatformToken } from '../recruiting/platforms/platform.ts';
import type { RecruitingTokensRepository } from './recruiting-tokens.repository.ts';

/**
 * Toloka and Amazon Mechanical Turk tokens (issue 14, item 3; spec sections 2, 3, 5, 6, 8). A token is linked
 * only after the service accepts it (Toloka: the requester; MTurk: the account balance), stored encrypted, and
 * shown afterwards by its hint alone. Its owner shares it by public user id and revokes shares; each user has one
 * ACTIVE token per service, their own or a shared one, which recruiting (the pools) uses. A shared token cannot
 * be deleted, and a share cannot be revoked while its user has the token active: nothing is cleared silently.
 */
export type RecruitingTokensDeps = Pick<Deps, 'recruitingTokens' | 'users' | 'config' | 'log'>;

/** A token as recruiting uses it: for MTurk `secret` is the JSON `{ access_key_id, secret_access_key }`. */
export type RecruitingTokenSecret = PlatformToken;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Row = NonNullable<Awaited<ReturnType<RecruitingTokensRepository['find']>>>;
type Share = Awaited<ReturnType<RecruitingTokensRepository['sharesOf']>>[number];

function toToken(row: Row, userId: string, shares: Share[]): RecruitingToken {
  const mine = row.user_id === userId;
  const own = shares.filter((s) => s.token_id === row.id);
  return {
    id: row.id,
    service: row.service,
    environment: row.environment,
    description: row.description,
    hint: row.hint,
    owner: { public_user_id: row.owner_public_id, username: row.owner_username },
    mine,
    active: row.active,
    shared_with: mine
      ? own.map((s) => ({
          public_user_id: s.public_user_id,
          username: s.username,
          active: s.active,
          can: { revoke: !s.active },
        }))
      : null,
    created_at: row.created_at.toISOString(),
    validated_at: row.validated_at?.toISOString() ?? null,
    can: {
      activate: !row.active,
      delete: mine && own.length === 0,
      share: mine,
      revoke_share: mine && own.some((s) => !s.active),
    },
  };
}

async function loadToken(deps: RecruitingTokensDeps, user: User, id: string): Promise<RecruitingToken> {
  const row = await deps.recruitingTokens.find(user.id, id);
  if (!row) throw new AppError('not_found', { message: 'oauth.notFound' });
  const shares = row.user_id === user.id ? await deps.recruitingTokens.sharesOf([row.id]) : [];
  return toToken(row, user.id, shares);
}

/** GET /api/cabinet/recruiting-tokens/?service= */
export async function listRecruitingTokens(
  deps: RecruitingTokensDeps,
  user: User,
  service: RecruitingService,
): Promise<RecruitingTokenList> {
  const [rows, own] = await Promise.all([
    deps.recruitingTokens.list(user.id, service),
    deps.recruitingTokens.countOwn(user.id, service),
  ]);
  const shares = await deps.recruitingTokens.sharesOf(rows.filter((r) => r.user_id === user.id).map((r) => r.id));
  return { items: rows.map((row) => toToken(row, user.id, shares)), can: { link: own < RECRUITING_TOKEN_LIMIT } };
}

/** The rules every link follows before the service is asked: the limit, and no second copy of a token. */
async function checkNewToken(
  deps: RecruitingTokensDeps,
  user: User,
  service: RecruitingService,
  environment: RecruitingEnvironment,
  isSame: (existing: { hint: string; secret: string | null }) => boolean,
): Promise<void> {
  if ((await deps.recruitingTokens.countOwn(user.id, service)) >= RECRUITING_TOKEN_LIMIT) {
    throw new AppError('invalid_state', { message: ref('oauth.limit', { max: RECRUITING_TOKEN_LIMIT }) });
  }
  const existing = await deps.recruitingTokens.ownSecrets(user.id, service, environment);
  if (existing.some(isSame)) throw new AppError('conflict', { message: 'oauth.duplicate' });
}

/**
 * POST /api/cabinet/recruiting-tokens/{platform}/ — checked with the platform (Toloka: the requester; MTurk: the
 * account balance), then stored; the first one becomes active.
 */
export async function linkRecruitingToken(
  deps: RecruitingTokensDeps,
  user: User,
  platform: RecruitingService,
  input: Record<string, unknown> & { description: string; environment: RecruitingEnvironment },
): Promise<RecruitingToken> {
  const rules = jobPlatform(platform).token;
  await checkNewToken(deps, user, platform, input.environment, (t) => rules.same(input, t));
  await rules.check(deps, input);
  const id = await deps.recruitingTokens.insert({
    userId: user.id,
    service: platform,
    environment: input.environment,
    description: input.description,
    ...rules.stored(input),
    validatedAt: new Date(),
  });
  return loadToken(deps, user, id);
}

/** POST /api/cabinet/recruiting-tokens/{id}/activate/ — the user's own token or one shared with them. */
export async function activateRecruitingToken(deps: RecruitingTokensDeps, user: User, id: string): Promise<void> {
  await loadToken(deps, user, id);
  if (!(await deps.recruitingTokens.activate(user.id, id))) {
    throw new AppError('not_found', { message: 'oauth.notFound' });
  }
}

/** The token, when the user owns it (a user it is shared with may only use it). */
async function ownToken(deps: RecruitingTokensDeps, user: User, id: string): Promise<RecruitingToken> {
  const token = await loadToken(deps, user, id);
  if (!token.mine) throw new AppError('forbidden', { message: 'oauth.ownerOnly' });
  return token;
}

/** DELETE /api/cabinet/recruiting-tokens/{id}/ — the owner's, and only while it is shared with nobody. */
export async function deleteRecruitingToken(deps: RecruitingTokensDeps, user: User, id: string): Promise<void> {
  await ownToken(deps, user, id);
  const result = await deps.recruitingTokens.delete(user.id, id);
  if (result === 'shared') throw new AppError('invalid_state', { message: 'oauth.deleteShared' });
  if (result === 'missing') throw new AppError('not_found', { message: 'oauth.notFound' });
}

/** POST /api/cabinet/recruiting-tokens/{id}/shares/ — "share by user id": another user's public id. */
export async function shareRecruitingToken(
  deps: RecruitingTokensDeps,
  user: User,
  id: string,
  input: z.output<typeof shareRecruitingTokenInput>,
): Promise<void> {
  await ownToken(deps, user, id);
  const target = await deps.users.findByPublicId(input.user_id);
  if (!target?.is_active) {
    throw new AppError('validation_failed', { message: 'user.doesNotExist', fields: { user_id: 'user.doesNotExist' } });
  }
  if (target.id === user.id) {
    throw new AppError('validation_failed', { message: 'oauth.shareSelf', fields: { user_id: 'oauth.shareSelf' } });
  }
  if (!(await deps.recruitingTokens.share(user.id, id, target.id))) {
    throw new AppError('not_found', { message: 'oauth.notFound' });
  }
}

/** DELETE /api/cabinet/recruiting-tokens/{id}/shares/{publicUserId}/ — not while that user has it active. */
export async function revokeRecruitingTokenShare(
  deps: RecruitingTokensDeps,
  user: User,
  id: string,
  publicUserId: string,
): Promise<void> {
  await ownToken(deps, user, id);
  const target = await deps.users.findByPublicId(publicUserId);
  const result = target ? await deps.recruitingTokens.revokeShare(user.id, id, target.id) : 'missing';
  if (result === 'active') throw new AppError('invalid_state', { message: 'oauth.revokeActive' });
  if (result === 'missing') throw new AppError('not_found', { message: 'oauth.shareNotFound' });
}

function readable(row: Awaited<ReturnType<RecruitingTokensRepository['secretOf']>>): RecruitingTokenSecret | null {
  if (!row) return null;
  if (row.secret === null) throw new AppError('invalid_state', { message: 'oauth.unreadable' });
  return { id: row.id, environment: row.environment, secret: row.secret };
}

/**
 * The user's ACTIVE token of a service (their own or one shared with them), for recruiting; null when they have
 * none ("first bind the token": `oauth.bindFirst`). For MTurk `secret` is the JSON
 * `{ access_key_id, secret_access_key }`. A secret the server's key cannot open answers 409 `oauth.unreadable`.
 */
export async function activeRecruitingToken(
  deps: Pick<Deps, 'recruitingTokens'>,
  userId: string,
  service: RecruitingService,
): Promise<{ id: string; environment: 'production' | 'sandbox'; secret: string } | null> {
  return readable(await deps.recruitingTokens.secretOf(userId, { activeOf: service }));
}

/** A token by id that the user owns or that is shared with them, as {@link activeRecruitingToken}; else null. */
export async function recruitingTokenById(
  deps: Pick<Deps, 'recruitingTokens'>,
  userId: string,
  id: string,
): Promise<{ id: string; environment: 'production' | 'sandbox'; secret: string } | null> {
  if (!UUID.test(id)) return null;
  return readable(await deps.recruitingTokens.secretOf(userId, { id }));
}
