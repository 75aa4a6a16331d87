import { z } from 'zod';
import { LANGUAGES } from './languages.ts';

/**
 * Single sign-on through the operator's OpenID Connect provider (issue 33 item 4, decision 067). The browser goes
 * to `SSO_START_PATH` (a full-page navigation, not an API call), the provider sends it back to the callback, and the
 * callback either sets the session cookie and goes on to `next`, or goes to the login page with `sso_error`.
 */
export const SSO_START_PATH = '/api/auth/sso/start/';

/** GET /api/auth/sso/ — what the login page shows: the button, and its label. */
export const ssoConfigOutput = z.object({
  enabled: z.boolean(),
  /** The button's text as the operator set it ("Sign in with Acme"); null when SSO is off. */
  label: z.string().nullable(),
});
export type SsoConfig = z.infer<typeof ssoConfigOutput>;

/**
 * GET /api/auth/sso/start/ — where to go after signing in (a path of this site), and the login page's language (an
 * account made on this sign-in gets it).
 */
export const ssoStartQuery = z.strictObject({
  next: z.string().max(2000).optional(),
  lang: z.enum(LANGUAGES).optional(),
});

/**
 * GET /api/auth/sso/callback/ — the provider's authorization response (RFC 6749 section 4.1.2, OpenID Connect Core
 * 3.1.2.5), or its error response. Parameters a provider adds (`session_state`, `iss`) are let through to the client,
 * which checks them.
 */
export const ssoCallbackQuery = z
  .object({
    code: z.string().max(4096).optional(),
    state: z.string().max(1024).optional(),
    error: z.string().max(256).optional(),
    error_description: z.string().max(2048).optional(),
  })
  .catchall(z.string().max(4096));

/** Why a sign-in through the provider was refused: the login page's `sso_error`, shown as `auth.sso.errors.<code>`. */
export const SSO_ERRORS = [
  /** The provider could not be reached or its discovery document was wrong. */
  'unavailable',
  /** The provider's answer did not verify (state, nonce, PKCE, the ID token), or the user cancelled there. */
  'failed',
  /** The provider did not vouch for the e-mail (email_verified is not true) or gave none. */
  'email_unverified',
  /** The e-mail's domain is not among the allowed ones. */
  'domain_not_allowed',
  /** No account has this e-mail and accounts are not created on first sign-in. */
  'no_account',
  /** The account is blocked. */
  'account_disabled',
  /** The account with this e-mail is linked to another identity of the provider, or several accounts share it. */
  'identity_conflict',
] as const;
export type SsoError = (typeof SSO_ERRORS)[number];
export const ssoErrorSchema = z.enum(SSO_ERRORS);
