import { randomInt } from 'node:crypto';
import { type CompletionClaims, OUTCOMES, type Outcome } from '@emolens/contracts';
import { errors, jwtVerify, SignJWT } from 'jose';

/**
 * Completion codes come in two forms, and every checker (`/cabinet/check-token`, the panels' assignment
 * acceptance, the data deletion by code) takes both:
 * - the signed token (design section 6): a JWT signed with the app secret (HS256) naming the session,
 *   project, researches, participant and outcome, verified with the secret alone, so a forged or altered
 *   one fails without a lookup table. It is long (~360 characters) and shows its payload, so it is given
 *   to integrations (the API's `token`, a redirect's `{token}`, MTurk's posted answer), not to people;
 * - the short code a respondent copies (issue 28, item 13): 14 symbols of an alphabet without the look-alikes
 *   0/O/1/I/L, shown as two groups of seven. It is random, not derived: 14 × log2(31) ≈ 69 bits from
 *   `crypto.randomInt`, so it cannot be guessed, names nothing, and stays valid when the app secret is rotated.
 *   An HMAC of the session id would be as unguessable but would still need the session row to tell what it
 *   names, so it would save nothing. It is stored on the session (unique index) and found by lookup.
 */
const ISSUER = 'emolens';
const AUDIENCE = 'completion';

const keyOf = (secret: string) => new TextEncoder().encode(`completion-code:${secret}`);

/**
 * `issuedAt` (the session's end) makes the code of a session the same every time it is shown: a
 * reload or a repeated completion hands out the code the respondent already has.
 */
export async function signCompletionCode(secret: string, claims: CompletionClaims, issuedAt?: Date): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt ?? new Date())
    .sign(keyOf(secret));
}

/** `session_missing`: a well-formed short code no session holds (mistyped, or its session deleted). */
export type VerifiedCode =
  | { valid: true; claims: CompletionClaims }
  | { valid: false; reason: 'forged' | 'malformed' | 'session_missing' };

/** 31 symbols: the digits 2–9 and the letters without I, L and O. */
export const SHORT_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const SHORT_CODE_SYMBOLS = 14;
const SHORT_CODE_SHAPE = new RegExp(`^[${SHORT_CODE_ALPHABET}]{${SHORT_CODE_SYMBOLS}}$`);

/** A new short code as stored: 14 symbols, each drawn uniformly with `crypto.randomInt`. */
export function newShortCode(): string {
  let code = '';
  for (let i = 0; i < SHORT_CODE_SYMBOLS; i++) code += SHORT_CODE_ALPHABET[randomInt(SHORT_CODE_ALPHABET.length)];
  return code;
}

/** As a respondent sees it: two groups of seven (15 characters). */
export const formatShortCode = (code: string) => `${code.slice(0, 7)}-${code.slice(7)}`;

/** A pasted short code as stored (any case, with or without the hyphen), or null when it is not one. */
export function normalizeShortCode(text: string): string | null {
  const code = text.replace(/[-\s]/g, '').toUpperCase();
  return SHORT_CODE_SHAPE.test(code) ? code : null;
}

/** What a short code's session says: the claims a signed code would carry. Previews and running sessions give none. */
export interface CodedSession {
  completion_code: string | null;
  id: string;
  project_id: string;
  research_order: string[];
  participant_id: string | null;
  outcome: Outcome | null;
  is_preview: boolean;
}

/**
 * Pasted codes of either form, verified in order: signed ones with the secret, short ones by one lookup of
 * their sessions. A short code is valid only for a saved session that has ended with an outcome.
 */
export async function verifyCompletionCodes(
  secret: string,
  codes: string[],
  lookup: (shortCodes: string[]) => Promise<CodedSession[]>,
): Promise<VerifiedCode[]> {
  const short = codes.map(normalizeShortCode);
  const wanted = [...new Set(short.filter((c): c is string => c !== null))];
  const sessions = new Map((wanted.length ? await lookup(wanted) : []).map((s) => [s.completion_code, s]));
  return Promise.all(
    codes.map(async (code, i): Promise<VerifiedCode> => {
      const key = short[i];
      if (!key) return verifyCompletionCode(secret, code);
      const s = sessions.get(key);
      if (!s?.outcome || s.is_preview) return { valid: false, reason: 'session_missing' };
      return {
        valid: true,
        claims: { sid: s.id, pid: s.project_id, cids: s.research_order, par: s.participant_id, outcome: s.outcome },
      };
    }),
  );
}

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/** A signed code, checked with the secret alone (a short code is `malformed` here: see `verifyCompletionCodes`). */
export async function verifyCompletionCode(secret: string, code: string): Promise<VerifiedCode> {
  if (!JWT_SHAPE.test(code)) return { valid: false, reason: 'malformed' };
  try {
    const { payload } = await jwtVerify(code, keyOf(secret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
    });
    const { sid, pid, cids, par, outcome } = payload as Record<string, unknown>;
    if (
      typeof sid !== 'string' ||
      typeof pid !== 'string' ||
      !Array.isArray(cids) ||
      !cids.every((c) => typeof c === 'string') ||
      (par !== null && typeof par !== 'string') ||
      !(OUTCOMES as readonly unknown[]).includes(outcome)
    ) {
      return { valid: false, reason: 'forged' };
    }
    return {
      valid: true,
      claims: {
        sid,
        pid,
        cids: cids as string[],
        par: par as string | null,
        outcome: outcome as CompletionClaims['outcome'],
      },
    };
  } catch (err) {
    // A bad signature, a changed payload, another algorithm: forged. Undecodable: malformed.
    if (
      err instanceof errors.JWSSignatureVerificationFailed ||
      err instanceof errors.JWTClaimValidationFailed ||
      err instanceof errors.JOSEAlgNotAllowed
    ) {
      return { valid: false, reason: 'forged' };
    }
    return { valid: false, reason: 'malformed' };
  }
}
