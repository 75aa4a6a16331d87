import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Session tokens are stored hashed: a leaked table cannot be replayed as cookies. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The `auth_token` of the user data: `<session id>.<hmac>`. It is derived from the session rather
 * than stored, so it dies with the session, and the report-builder API can check it without a
 * table of its own.
 */
export function sessionApiToken(secret: string, sessionId: string): string {
  return `${sessionId}.${createHmac('sha256', secret).update(`api:${sessionId}`).digest('base64url')}`;
}

/** The session id a valid API token belongs to, or undefined. */
export function sessionIdFromApiToken(secret: string, token: string): string | undefined {
  const dot = token.indexOf('.');
  if (dot <= 0) return undefined;
  const sessionId = token.slice(0, dot);
  return safeEqual(sessionApiToken(secret, sessionId), token) ? sessionId : undefined;
}
