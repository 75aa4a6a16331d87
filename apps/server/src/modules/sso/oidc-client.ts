import * as oidc from 'openid-client';
import type { Logger } from 'pino';
import type { SsoConfig } from '../../config.ts';

/** What the provider says about the person, once its answer is verified. */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  /** True only when the provider says `email_verified: true`. */
  emailVerified: boolean;
  givenName: string;
  familyName: string;
}

/** What one sign-in must remember between the redirect to the provider and its answer (the flow cookie). */
export interface FlowChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** A refusal by the flow itself, before any account is looked at: the provider or its answer. */
export class SsoFlowError extends Error {
  constructor(
    readonly reason: 'unavailable' | 'failed',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const SCOPE = 'openid email profile';
const TIMEOUT_SECONDS = 10;

export interface OidcClient {
  /** The provider's discovery document, fetched once; a failure is logged and retried at the next use. */
  configuration(): Promise<oidc.Configuration>;
  /** Where to send the browser, and the checks its answer must pass. */
  begin(redirectUri: string): Promise<{ url: URL; checks: FlowChecks }>;
  /** Verifies the answer at `currentUrl` (state, PKCE, the ID token and its nonce) and reads the identity. */
  finish(currentUrl: URL, checks: FlowChecks): Promise<ProviderIdentity>;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function createOidcClient(sso: SsoConfig, log: Pick<Logger, 'error' | 'warn'>): OidcClient {
  let discovered: Promise<oidc.Configuration> | undefined;
  const insecure = new URL(sso.issuer).protocol === 'http:';

  const configuration = () => {
    discovered ??= oidc
      .discovery(
        new URL(sso.issuer),
        sso.clientId,
        { client_secret: sso.clientSecret },
        // OpenID Connect's default client authentication (Dynamic Client Registration 1.0, section 2).
        oidc.ClientSecretBasic(sso.clientSecret),
        // http only for a provider on this machine: the configuration refuses any other (config.ts).
        { timeout: TIMEOUT_SECONDS, ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}) },
      )
      .catch((err: unknown) => {
        discovered = undefined;
        log.error({ err, issuer: sso.issuer }, 'single sign-on: the provider discovery failed');
        throw new SsoFlowError('unavailable', 'provider discovery failed', { cause: err });
      });
    return discovered;
  };

  return {
    configuration,

    async begin(redirectUri) {
      const config = await configuration();
      const checks: FlowChecks = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        response_type: 'code',
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url, checks };
    },

    async finish(currentUrl, checks) {
      const config = await configuration();
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
      } catch (err) {
        throw new SsoFlowError('failed', 'the authorization response or the token did not verify', { cause: err });
      }
      const claims = tokens.claims();
      if (!claims) throw new SsoFlowError('failed', 'no ID token');
      let email: unknown = claims.email;
      let verified: unknown = claims.email_verified;
      let given: unknown = claims.given_name;
      let family: unknown = claims.family_name;
      // A provider may keep the e-mail to its UserInfo endpoint (OpenID Connect Core 5.4): ask it, for the same subject.
      if (typeof email !== 'string' || verified === undefined) {
        try {
          const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
          email = info.email;
          verified = info.email_verified;
          given ??= info.given_name;
          family ??= info.family_name;
        } catch (err) {
          throw new SsoFlowError('failed', 'the UserInfo request failed', { cause: err });
        }
      }
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email: typeof email === 'string' && email.trim() ? email.trim() : null,
        emailVerified: verified === true,
        givenName: text(given).slice(0, 150),
        familyName: text(family).slice(0, 150),
      };
    },
  };
}
