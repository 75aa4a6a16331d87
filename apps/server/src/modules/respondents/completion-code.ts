import { type CompletionClaims, OUTCOMES } from '@emolens/contracts';
import { errors, jwtVerify, SignJWT } from 'jose';

/**
 * Completion codes (design section 6): a JWT signed with the app secret (HS256) naming the session,
 * project, researches, participant and outcome. `/cabinet/check-token` verifies a pasted code with
 * the secret alone, so a forged or altered code fails without a lookup table.
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

export type VerifiedCode = { valid: true; claims: CompletionClaims } | { valid: false; reason: 'forged' | 'malformed' };

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

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
