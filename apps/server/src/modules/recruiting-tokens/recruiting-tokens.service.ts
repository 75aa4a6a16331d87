import {
  type linkMturkTokenInput,
  type linkTolokaTokenInput,
  RECRUITING_TOKEN_LIMIT,
  type RecruitingEnvironment,
  type RecruitingService,
  type RecruitingToken,
  type RecruitingTokenList,
  ref,
  type shareRecruitingTokenInput,
  TOLOKA_HINT_CHARS,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Deps } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { createMturkClient, MturkError } from '../../integrations/mturk/client.ts';
import {
  createTolokaClient,
  isTolokaAuthError,
  TOLOKA_PRODUCTION_URL,
  TOLOKA_SANDBOX_URL,
  TolokaError,
} from '../../integrations/toloka/client.ts';
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
export interface RecruitingTokenSecret {
  id: string;
  environment: RecruitingEnvironment;
  secret: string;
}

/** How long the service may take to answer the check of a token being linked. */
const CHECK_TIMEOUT_MS = 10_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SERVICE_NAMES: Record<RecruitingService, string> = { toloka: 'Toloka', mturk: 'Amazon Mechanical Turk' };

/** Toloka's API host of an environment (the configuration may point it elsewhere, e.g. at a test server). */
export function tolokaBaseUrl(config: Config, environment: RecruitingEnvironment): string {
  return environment === 'sandbox'
    ? (config.tolokaSandboxBaseUrl ?? TOLOKA_SANDBOX_URL)
    : (config.tolokaBaseUrl ?? TOLOKA_PRODUCTION_URL);
}

/** MTurk's endpoint override of the configuration; undefined: the environment's own endpoint. */
export function mturkEndpoint(config: Config): string | undefined {
  return config.mturkEndpoint;
}

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

function unreachable(deps: RecruitingTokensDeps, service: RecruitingService, error: unknown): AppError {
  // Only the code and status: the clients scrub their messages, but nothing of a request needs to be logged here.
  const detail =
    error instanceof TolokaError || error instanceof MturkError
      ? { code: error.code, status: error.status }
      : { error: error instanceof Error ? error.name : typeof error };
  deps.log.warn({ service, ...detail }, 'recruiting token check: the service did not answer');
  return new AppError('service_unavailable', {
    message: ref('oauth.serviceUnreachable', { service: SERVICE_NAMES[service] }),
  });
}

/** Toloka accepts the token when it answers who the requester is. */
async function checkToloka(deps: RecruitingTokensDeps, environment: RecruitingEnvironment, token: string) {
  const client = createTolokaClient({
    baseUrl: tolokaBaseUrl(deps.config, environment),
    token,
    timeoutMs: CHECK_TIMEOUT_MS,
    maxRetryDelayMs: 2_000,
  });
  try {
    await client.requester();
  } catch (error) {
    if (error instanceof TolokaError && (isTolokaAuthError(error) || error.status === 403)) {
      deps.log.info({ service: 'toloka', code: error.code }, 'recruiting token refused by the service');
      throw new AppError('validation_failed', {
        message: 'oauth.tolokaRejected',
        fields: { token: 'oauth.tolokaRejected' },
      });
    }
    throw unreachable(deps, 'toloka', error);
  }
}

/** MTurk accepts the keys when it answers the account's balance. */
async function checkMturk(
  deps: RecruitingTokensDeps,
  environment: RecruitingEnvironment,
  keys: { accessKeyId: string; secretAccessKey: string },
) {
  const client = createMturkClient({
    ...keys,
    sandbox: environment === 'sandbox',
    endpoint: mturkEndpoint(deps.config),
    maxAttempts: 2,
    requestTimeoutMs: CHECK_TIMEOUT_MS,
  });
  try {
    await client.accountBalance();
  } catch (error) {
    const status = error instanceof MturkError ? error.status : undefined;
    if (error instanceof MturkError && status !== undefined && status >= 400 && status < 500 && status !== 429) {
      deps.log.info({ service: 'mturk', code: error.code, status }, 'recruiting token refused by the service');
      // An unknown key id, or a known one signed with another secret: the field at fault is marked.
      const field = /Unrecognized|InvalidClientTokenId/i.test(error.code)
        ? 'access_key_id'
        : /Signature/i.test(error.code)
          ? 'secret_access_key'
          : null;
      throw new AppError('validation_failed', {
        message: 'oauth.mturkRejected',
        ...(field ? { fields: { [field]: 'oauth.mturkRejected' } } : {}),
      });
    }
    throw unreachable(deps, 'mturk', error);
  } finally {
    client.destroy();
  }
}

/** POST /api/cabinet/recruiting-tokens/toloka/ — checked with Toloka, then stored; the first one becomes active. */
export async function linkTolokaToken(
  deps: RecruitingTokensDeps,
  user: User,
  input: z.output<typeof linkTolokaTokenInput>,
): Promise<RecruitingToken> {
  await checkNewToken(deps, user, 'toloka', input.environment, (t) => t.secret === input.token);
  await checkToloka(deps, input.environment, input.token);
  const id = await deps.recruitingTokens.insert({
    userId: user.id,
    service: 'toloka',
    environment: input.environment,
    description: input.description,
    secret: input.token,
    hint: input.token.slice(-TOLOKA_HINT_CHARS),
    validatedAt: new Date(),
  });
  return loadToken(deps, user, id);
}

/** POST /api/cabinet/recruiting-tokens/mturk/ — checked with MTurk, then stored; the first one becomes active. */
export async function linkMturkToken(
  deps: RecruitingTokensDeps,
  user: User,
  input: z.output<typeof linkMturkTokenInput>,
): Promise<RecruitingToken> {
  await checkNewToken(deps, user, 'mturk', input.environment, (t) => t.hint === input.access_key_id);
  await checkMturk(deps, input.environment, {
    accessKeyId: input.access_key_id,
    secretAccessKey: input.secret_access_key,
  });
  const id = await deps.recruitingTokens.insert({
    userId: user.id,
    service: 'mturk',
    environment: input.environment,
    description: input.description,
    secret: JSON.stringify({ access_key_id: input.access_key_id, secret_access_key: input.secret_access_key }),
    hint: input.access_key_id,
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
  service: 'toloka' | 'mturk',
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
