import { randomBytes } from 'node:crypto';
import {
  type AccessRequest,
  type AccessRequestsOutput,
  type accessRequestInput,
  type ConvertAccessRequestOutput,
  usernameSchema,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { requireRole } from '../access/access.ts';
import { hashPassword } from '../auth/password.ts';
import { notify } from '../notifications/notifications.service.ts';
import { newPublicUserId } from '../users/users.service.ts';
import type { AccessRequestsRepository } from './access-requests.repository.ts';

/**
 * Requests for access (issue 28, item 16): anyone may ask from the public pages (the route limits how often); staff
 * are told, list the requests under Sessions and turn one into a customer account with a password shown once.
 */
export type AccessRequestsDeps = Pick<Deps, 'accessRequests' | 'notifications' | 'log'>;

type Row = NonNullable<Awaited<ReturnType<AccessRequestsRepository['find']>>>;

function toAccessRequest(row: Row): AccessRequest {
  return {
    id: row.id,
    name: row.name,
    company: row.company,
    email: row.email,
    package: row.package as AccessRequest['package'],
    message: row.message,
    status: row.status,
    created_at: row.created_at.toISOString(),
    handled_at: row.handled_at?.toISOString() ?? null,
    account: row.public_user_id && row.username ? { public_user_id: row.public_user_id, username: row.username } : null,
  };
}

/** POST /api/public/access-requests/ — kept, and every staff member is told. */
export async function requestAccess(
  deps: AccessRequestsDeps,
  input: z.infer<typeof accessRequestInput>,
): Promise<{ id: string }> {
  const id = await deps.accessRequests.insert(input);
  deps.log.info({ request: id, package: input.package }, 'access requested');
  for (const staff of await deps.accessRequests.staffIds()) {
    await notify(deps, {
      userId: staff,
      kind: 'access_requested',
      params: { name: input.name, company: input.company },
      link: '/cabinet/licences',
      dedupeKey: `access_request:${id}`,
    });
  }
  return { id };
}

/** GET /api/cabinet/access-requests/ (staff) */
export async function listAccessRequests(deps: AccessRequestsDeps, staff: User): Promise<AccessRequestsOutput> {
  requireRole(staff, 'accessRequests.manage');
  return { items: (await deps.accessRequests.list()).map(toAccessRequest) };
}

/** Usernames to try for the account: the e-mail address when it is a valid username, then numbered variants. */
function usernames(email: string): string[] {
  const base = usernameSchema.safeParse(email).success
    ? email.toLowerCase()
    : email
        .toLowerCase()
        .replace(/[^\w.@+-]/g, '')
        .slice(0, 140) || 'customer';
  return [base, ...Array.from({ length: 8 }, (_, i) => `${base.slice(0, 140)}-${i + 2}`)];
}

/**
 * POST /api/cabinet/access-requests/{id}/account/ (staff) — a customer account for a new request, named by its
 * e-mail, with a random password returned once (only its hash is kept); the request is done.
 */
export async function convertAccessRequest(
  deps: AccessRequestsDeps,
  staff: User,
  id: string,
): Promise<ConvertAccessRequestOutput> {
  requireRole(staff, 'accessRequests.manage');
  const request = await deps.accessRequests.find(id);
  if (!request) throw new AppError('not_found', { message: 'accessrequest.notFound' });
  if (request.status !== 'new') throw new AppError('invalid_state', { message: 'accessrequest.handled' });
  const password = randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);
  const [firstName = '', ...rest] = request.name.split(/\s+/);
  for (const username of usernames(request.email)) {
    const outcome = await deps.accessRequests.convert(
      id,
      {
        public_user_id: newPublicUserId(),
        username,
        password_hash: passwordHash,
        role: 'customer',
        is_armi_user: false,
        first_name: firstName.slice(0, 150),
        last_name: rest.join(' ').slice(0, 150),
        email: request.email,
        current_lang: 'ru',
      },
      staff.id,
    );
    if (outcome === 'missing') throw new AppError('not_found', { message: 'accessrequest.notFound' });
    if (outcome === 'handled') throw new AppError('invalid_state', { message: 'accessrequest.handled' });
    if (outcome === 'converted') {
      const done = await deps.accessRequests.find(id);
      if (!done) throw new AppError('not_found', { message: 'accessrequest.notFound' });
      deps.log.info({ request: id, account: username }, 'access request turned into an account');
      return { request: toAccessRequest(done), username, password };
    }
  }
  throw new AppError('conflict', { message: 'user.usernameTaken' });
}
