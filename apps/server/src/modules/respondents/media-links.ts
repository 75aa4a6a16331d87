import { createHmac } from 'node:crypto';
import { RESPONDENT_API } from '@emolens/contracts';
import { safeEqual } from '../auth/tokens.ts';

/** How long a signed content URL stays valid: a long interview, reloads included. */
export const MEDIA_URL_TTL_MS = 12 * 3600 * 1000;

function signature(secret: string, mediaId: string, sessionId: string, expires: number): string {
  return createHmac('sha256', secret).update(`respondent-media:${mediaId}:${sessionId}:${expires}`).digest('base64url');
}

/**
 * A research's file as a respondent's browser loads it (`<video src>`, `<img src>`): the URL names
 * the session and an expiry and is signed with the app secret, since those elements cannot send the
 * session secret. The file route checks the signature, the expiry and that the session may see it.
 */
export function signedMediaUrl(secret: string, mediaId: string, sessionId: string, now = Date.now()): string {
  // Rounded to the hour so the URLs of one session stay the same across reloads (the browser caches).
  const expires = Math.ceil((now + MEDIA_URL_TTL_MS) / 3_600_000) * 3600;
  const sig = signature(secret, mediaId, sessionId, expires);
  return `${RESPONDENT_API}/media/${mediaId}?s=${sessionId}&e=${expires}&sig=${sig}`;
}

export type MediaUrlCheck = 'ok' | 'forged' | 'expired';

export function checkMediaUrl(
  secret: string,
  mediaId: string,
  query: { s: string; e: number; sig: string },
  now = Date.now(),
): MediaUrlCheck {
  if (!safeEqual(signature(secret, mediaId, query.s, query.e), query.sig)) return 'forged';
  return query.e * 1000 < now ? 'expired' : 'ok';
}
