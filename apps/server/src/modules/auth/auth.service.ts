import type { LoginInput } from '@emolens/contracts';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { addressKey } from '../../http/rate-limits.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { AuthRepository, LoginFailures } from './auth.repository.ts';
import { hashToCheck, verifyPassword } from './password.ts';
import { hashToken, randomToken } from './tokens.ts';

// OWASP ASVS 2.2.1's bound for one account. Failures from many addresses are not refused (that would
// let anyone lock anyone out: decision 007) but are reported once the account crosses it.
const ACCOUNT_ALERT_FAILURES = 100;
// Sliding expiry is written at most this often, so that every request is not a write.
const TOUCH_INTERVAL_MS = 5 * 60_000;

export interface AuthDeps {
  config: Pick<
    Config,
    | 'sessionTtlMs'
    | 'loginFreeFailures'
    | 'loginAddressFreeFailures'
    | 'loginFirstDelayMs'
    | 'loginMaxDelayMs'
    | 'loginWindowMs'
  >;
  auth: AuthRepository;
  users: UsersRepository;
  log?: Pick<Logger, 'warn'>;
}

type ThrottleConfig = AuthDeps['config'];

/** After `free` failures, a wait that doubles with every further failure, up to the cap. */
function delayAfter(failures: number, free: number, config: ThrottleConfig): number {
  if (failures < free) return 0;
  return Math.min(config.loginMaxDelayMs, config.loginFirstDelayMs * 2 ** (failures - free));
}

/**
 * How long the next attempt must still wait (ms), counted from the last failure: per username and
 * address, and per address whatever the usernames. Failures from other addresses never count, so
 * nobody can lock a user out by failing on their username (decision 007).
 */
export function loginWaitMs(config: ThrottleConfig, failures: LoginFailures): number {
  const now = failures.now.getTime();
  const waits = [
    [failures.pair, config.loginFreeFailures],
    [failures.address, config.loginAddressFreeFailures],
  ] as const;
  let wait = 0;
  for (const [{ count, last }, free] of waits) {
    if (last) wait = Math.max(wait, last.getTime() + delayAfter(count, free, config) - now);
  }
  return wait;
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
  const by = { usernameKey, ip: addressKey(client.ip) };
  const attempt = await deps.auth.beginLoginAttempt(by, deps.config.loginWindowMs, (f) => loginWaitMs(deps.config, f));
  if (!('failures' in attempt)) {
    throw new AppError('too_many_login_attempts', { retryAfter: Math.max(1, Math.ceil(attempt.waitMs / 1000)) });
  }

  const user = await deps.users.findByUsername(input.username);
  const ok = await verifyPassword(input.password, hashToCheck(user?.password_hash));
  if (!user || !ok || !user.is_active) {
    // The attempt is already recorded as a failure.
    if (attempt.failures.username + 1 === ACCOUNT_ALERT_FAILURES) {
      deps.log?.warn(
        { usernameKey, failures: ACCOUNT_ALERT_FAILURES, windowMinutes: deps.config.loginWindowMs / 60_000 },
        'many failed logins for one username from several addresses',
      );
    }
    throw new AppError('invalid_credentials');
  }

  await deps.auth.clearFailures(by.usernameKey, by.ip);
  return startSession(deps, user, client);
}

/** A new session for a user who proved who they are (a password, or the single sign-on provider): the cookie's token. */
export async function startSession(
  deps: Pick<AuthDeps, 'config' | 'auth' | 'users'>,
  user: User,
  client: { ip: string; userAgent: string | null },
): Promise<LoginResult> {
  const now = Date.now();
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
