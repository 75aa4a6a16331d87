import type { LoginInput } from '@emolens/contracts';
import type { Config } from '../../config.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { AuthRepository } from './auth.repository.ts';
import { UNKNOWN_USER_HASH, verifyPassword } from './password.ts';
import { hashToken, randomToken } from './tokens.ts';

// Many failures from one address (across usernames) are allowed more room than for one username,
// since offices and panels share addresses.
const IP_FAILURE_FACTOR = 4;
// Sliding expiry is written at most this often, so that every request is not a write.
const TOUCH_INTERVAL_MS = 5 * 60_000;

export interface AuthDeps {
  config: Pick<Config, 'sessionTtlMs' | 'loginMaxFailures' | 'loginWindowMs'>;
  auth: AuthRepository;
  users: UsersRepository;
}

export interface LoginResult {
  user: User;
  sessionId: string;
  /** The cookie value; only its hash is stored. */
  token: string;
  expiresAt: Date;
}

export async function login(
  deps: AuthDeps,
  input: LoginInput,
  client: { ip: string; userAgent: string | null },
): Promise<LoginResult> {
  const usernameKey = input.username.toLowerCase();
  const now = Date.now();
  const windowStart = new Date(now - deps.config.loginWindowMs);
  const failures = await deps.auth.countRecentFailures({ usernameKey, ip: client.ip }, windowStart);
  const max = deps.config.loginMaxFailures;
  if (failures.byUsername >= max || failures.byIp >= max * IP_FAILURE_FACTOR) {
    const oldest = failures.oldestByUsername?.getTime() ?? now;
    const retryAfter = Math.max(1, Math.ceil((oldest + deps.config.loginWindowMs - now) / 1000));
    throw new AppError('too_many_login_attempts', { retryAfter });
  }

  const user = await deps.users.findByUsername(input.username);
  const ok = await verifyPassword(input.password, user?.password_hash ?? UNKNOWN_USER_HASH);
  if (!user || !ok || !user.is_active) {
    await deps.auth.recordFailure(usernameKey, client.ip);
    throw new AppError('invalid_credentials');
  }

  await deps.auth.clearFailures(usernameKey);
  const token = randomToken();
  const expiresAt = new Date(now + deps.config.sessionTtlMs);
  const session = await deps.auth.createSession({
    tokenHash: hashToken(token),
    userId: user.id,
    expiresAt,
    ip: client.ip,
    userAgent: client.userAgent?.slice(0, 512) ?? null,
  });
  await deps.users.update(user.id, { last_login_at: new Date(now) });
  return { user, sessionId: session.id, token, expiresAt };
}

/** The user and session behind a cookie token; extends the session while it is used. */
export async function resolveSession(
  deps: AuthDeps,
  token: string,
): Promise<{ user: User; sessionId: string } | undefined> {
  const found = await deps.auth.findSessionWithUser(hashToken(token));
  if (!found) return undefined;
  if (Date.now() - found.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await deps.auth.touchSession(found.sessionId, new Date(Date.now() + deps.config.sessionTtlMs));
  }
  return { user: found.user, sessionId: found.sessionId };
}

/** Removes expired sessions and login failures older than the throttling window. */
export async function cleanExpired(deps: AuthDeps): Promise<{ sessions: number; failures: number }> {
  const sessions = await deps.auth.deleteExpiredSessions();
  const failures = await deps.auth.deleteFailuresBefore(new Date(Date.now() - deps.config.loginWindowMs));
  return { sessions, failures };
}
