import { randomInt } from 'node:crypto';
import { type Language, type SsoError, usernameSchema } from '@emolens/contracts';
import type { Logger } from 'pino';
import type { SsoConfig } from '../../config.ts';
import type { User } from '../../db/types.ts';
import { NO_PASSWORD } from '../auth/password.ts';
import { newPublicUserId } from '../users/users.service.ts';
import type { ProviderIdentity } from './oidc-client.ts';
import type { SsoRepository } from './sso.repository.ts';

/** A sign-in the rules of decision 067 refuse; `reason` is what the login page says. */
export class SsoRefusal extends Error {
  constructor(readonly reason: SsoError) {
    super(`single sign-on refused: ${reason}`);
  }
}

export interface SsoDeps {
  sso: SsoRepository;
  log?: Pick<Logger, 'info' | 'warn'>;
}

/** The e-mail's domain, lower-case. */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * The account a verified identity signs in as (decision 067):
 * 1. the provider must vouch for an e-mail (`email_verified: true`) in an allowed domain, on every sign-in;
 * 2. an identity (issuer + subject) linked already signs in as its account, whatever e-mail it carries now;
 * 3. otherwise the one account with that e-mail is linked to it, unless that account holds another identity of the
 *    same issuer (a provider account that took someone's e-mail does not take their account) or several share it;
 * 4. otherwise an account is made when the operator allows it, with the configured role.
 * A blocked account stays blocked.
 */
export async function resolveSsoUser(
  deps: SsoDeps,
  sso: Pick<SsoConfig, 'allowedDomains' | 'createUsers' | 'newUserRole'>,
  identity: ProviderIdentity,
  options: { language?: Language } = {},
): Promise<User> {
  const email = identity.email;
  if (!email || !identity.emailVerified || !email.includes('@')) throw new SsoRefusal('email_unverified');
  if (sso.allowedDomains.length > 0 && !sso.allowedDomains.includes(emailDomain(email))) {
    throw new SsoRefusal('domain_not_allowed');
  }
  const key = { issuer: identity.issuer, subject: identity.subject };

  const linked = await deps.sso.findLinkedUser(key.issuer, key.subject);
  if (linked) {
    if (!linked.is_active) throw new SsoRefusal('account_disabled');
    await deps.sso.touchIdentity(linked.identity_id);
    const { identity_id: _, ...user } = linked;
    return user;
  }

  const matches = await deps.sso.findUsersByEmail(email);
  if (matches.length > 1) throw new SsoRefusal('identity_conflict');
  const match = matches[0];
  if (match) {
    if (!match.is_active) throw new SsoRefusal('account_disabled');
    if (await deps.sso.hasIdentityOf(match.id, key.issuer)) {
      deps.log?.warn(
        { userId: match.id, issuer: key.issuer },
        'single sign-on: the e-mail names an account linked to another identity',
      );
      throw new SsoRefusal('identity_conflict');
    }
    if (!(await deps.sso.link({ ...key, userId: match.id, email }))) throw new SsoRefusal('identity_conflict');
    deps.log?.info({ userId: match.id, issuer: key.issuer }, 'single sign-on: identity linked to an account');
    return match;
  }

  if (!sso.createUsers) throw new SsoRefusal('no_account');
  try {
    const user = await deps.sso.createLinkedUser(
      {
        public_user_id: newPublicUserId(),
        username: await freeUsername(deps.sso, email),
        password_hash: NO_PASSWORD,
        role: sso.newUserRole,
        first_name: identity.givenName,
        last_name: identity.familyName,
        email,
        current_lang: options.language ?? 'ru',
      },
      { ...key, email },
    );
    deps.log?.info({ userId: user.id, issuer: key.issuer, role: user.role }, 'single sign-on: account created');
    return user;
  } catch (err) {
    // A concurrent first sign-in of the same identity made it: sign in as that one.
    const made = await deps.sso.findLinkedUser(key.issuer, key.subject);
    if (!made) throw err;
    const { identity_id: _, ...user } = made;
    return user;
  }
}

/** The e-mail as the username when it is a valid and free one, else the e-mail with a number. */
async function freeUsername(repo: SsoRepository, email: string): Promise<string> {
  const base = email
    .toLowerCase()
    .replace(/[^\w.@+-]/g, '')
    .slice(0, 140);
  for (let attempt = 0; attempt < 10; attempt++) {
    const candidate = attempt === 0 ? base : `${base}-${randomInt(1000, 10_000)}`;
    if (usernameSchema.safeParse(candidate).success && !(await repo.usernameTaken(candidate))) return candidate;
  }
  return `sso-${newPublicUserId().toLowerCase()}`;
}
