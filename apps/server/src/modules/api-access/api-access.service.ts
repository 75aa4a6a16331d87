import {
  API_TOKEN_LIMIT,
  API_TOKEN_PREFIX,
  type ApiToken,
  type ApiTokenList,
  type CreatedApiToken,
  type createApiTokenInput,
  ref,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken, randomToken, sessionIdFromApiToken } from '../auth/tokens.ts';
import type { ApiAccessRepository } from './api-access.repository.ts';

/**
 * Personal API tokens and who a request to the report builder's API is (issue 14; spec sections 2, 3, 7). A token
 * is `emo_` and 32 random bytes; only its SHA-256 is stored, so it is shown once, when made or rotated. The
 * report builder's API also takes the session's `auth_token` of the user data, which the cabinet's SPA sends.
 */
export type ApiAccessDeps = Pick<Deps, 'apiAccess' | 'auth' | 'config'>;

type Row = Awaited<ReturnType<ApiAccessRepository['list']>>[number];

const DAY_MS = 24 * 3600 * 1000;

function toToken(row: Row): ApiToken {
  return {
    id: row.id,
    scope: row.scope,
    description: row.description,
    prefix: row.prefix,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    // Stored as the moment it stops working, the start of the day after its last day.
    expires_at: row.expires_at ? new Date(row.expires_at.getTime() - DAY_MS).toISOString().slice(0, 10) : null,
    expired: !!row.expires_at && row.expires_at.getTime() <= Date.now(),
  };
}

/** GET /api/users/api-access/tokens/ */
export async function listApiTokens(deps: ApiAccessDeps, user: User): Promise<ApiTokenList> {
  const [rows, active] = await Promise.all([deps.apiAccess.list(user.id), deps.apiAccess.activeCount(user.id)]);
  return { items: rows.map(toToken), can: { create: active < API_TOKEN_LIMIT } };
}

/**
 * POST /api/users/api-access/access-api-token/ — a new token, or a new secret for one of the user's tokens
 * (`replace`: the old one stops working at once). The answer is the only place the token appears.
 */
export async function createApiToken(
  deps: ApiAccessDeps,
  user: User,
  input: z.infer<typeof createApiTokenInput>,
): Promise<CreatedApiToken> {
  let expiresAt: Date | null = null;
  if (input.expires_at) {
    expiresAt = new Date(Date.parse(`${input.expires_at}T00:00:00Z`) + DAY_MS);
    if (expiresAt.getTime() <= Date.now() + DAY_MS) {
      throw new AppError('validation_failed', { fields: { expires_at: 'token.expiryPast' } });
    }
  }
  let description = input.description;
  if (input.replace) {
    const old = await deps.apiAccess.find(user.id, input.replace);
    if (!old) throw new AppError('not_found', { message: 'token.notFound' });
    description ||= old.description;
  } else if ((await deps.apiAccess.activeCount(user.id)) >= API_TOKEN_LIMIT) {
    throw new AppError('invalid_state', { message: ref('token.limit', { max: API_TOKEN_LIMIT }) });
  }
  const token = `${API_TOKEN_PREFIX}${randomToken(32)}`;
  const row = await deps.apiAccess.create(
    user.id,
    { scope: input.scope, description, tokenHash: hashToken(token), prefix: token.slice(0, 10), expiresAt },
    input.replace,
  );
  if (!row) throw new AppError('not_found', { message: 'token.notFound' });
  return { ...toToken(row), token };
}

/** DELETE /api/users/api-access/tokens/{id}/ — the token stops working at once. */
export async function revokeApiToken(deps: ApiAccessDeps, user: User, id: string): Promise<void> {
  if (!(await deps.apiAccess.revoke(user.id, id))) throw new AppError('not_found', { message: 'token.notFound' });
}

/**
 * Who an `Authorization: Token …` request to the report builder's API is: the user of a personal token of the
 * report-builder scope, or of the live session whose `auth_token` it is. Anything else answers 401.
 */
export async function authenticateToken(
  deps: ApiAccessDeps,
  secret: string,
  header: string | undefined,
): Promise<{ user: User; sessionId: string }> {
  const match = /^Token\s+(\S+)$/i.exec(header?.trim() ?? '');
  const token = match?.[1];
  if (!token || token.length > 512) throw new AppError('unauthorized', { message: 'token.invalid' });
  if (token.startsWith(API_TOKEN_PREFIX)) {
    const found = await deps.apiAccess.authenticate(hashToken(token));
    if (!found) throw new AppError('unauthorized', { message: 'token.invalid' });
    if (found.scope !== 'report_builder') throw new AppError('forbidden', { message: 'token.scope' });
    return { user: found.user, sessionId: `token:${found.id}` };
  }
  const sessionId = sessionIdFromApiToken(secret, token);
  const session = sessionId ? await deps.auth.findSessionWithUser(sessionId, 'id') : undefined;
  if (!session) throw new AppError('unauthorized', { message: 'token.invalid' });
  return { user: session.user, sessionId: session.sessionId };
}
