import type { ContentType, MessageKey, Role } from '@emolens/contracts';
import type { DotTestRow, RespondentSessionRow, User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken } from '../auth/tokens.ts';
import type { DotTestsRepository } from '../dot-test/dot-test.repository.ts';
import type { RespondentsRepository } from '../respondents/respondents.repository.ts';
import type { AccessRepository } from './access.repository.ts';

/**
 * The one access check of the cabinet: every service asks here before it reads or changes an
 * object by id. A cabinet user acts on the objects of projects they own; staff (super user) on
 * every project. What a user may not act on is "not found", never "forbidden", so ids of other
 * customers' objects cannot be probed. What may be done in an object's current state is the
 * service's rule, not this one.
 */
export type Permission =
  | 'project.manage'
  | 'campaign.manage'
  | 'scenario.manage'
  | 'quotaLink.manage'
  | 'media.manage'
  | 'respondentSession.view'
  /** Attaching a phantom recording's truth to its session (decision 035). */
  | 'respondentSession.manage'
  | 'videoProcess.manage'
  /** A report: through its research (archived projects hide their reports). */
  | 'report.manage'
  /** A questionnaire: its owner's (and staff's), whichever projects use it. */
  | 'survey.manage'
  /** Private to its owner: staff see only their own. */
  | 'demoAnalysis.view';

const CHECKS: Record<
  Permission,
  (access: AccessRepository, owner: string | null, ids: string[]) => Promise<Set<string>>
> = {
  'project.manage': (access, owner, ids) => access.projects(owner, ids),
  'campaign.manage': (access, owner, ids) => access.researches(owner, ids),
  'scenario.manage': (access, owner, ids) => access.scenarios(owner, ids),
  'quotaLink.manage': (access, owner, ids) => access.quotaLinks(owner, ids),
  'media.manage': (access, owner, ids) => access.media(owner, ids),
  'respondentSession.view': (access, owner, ids) => access.respondentSessions(owner, ids),
  'respondentSession.manage': (access, owner, ids) => access.respondentSessions(owner, ids),
  'videoProcess.manage': (access, owner, ids) => access.videoProcesses(owner, ids),
  'report.manage': (access, owner, ids) => access.reports(owner, ids),
  'survey.manage': (access, owner, ids) => access.surveys(owner, ids),
  'demoAnalysis.view': (access, owner, ids) => access.demoAnalyses(owner, ids),
};

/** What the user is told when the object is not theirs or does not exist. */
const NOT_FOUND: Record<Permission, MessageKey> = {
  'project.manage': 'project.notFound',
  'campaign.manage': 'campaign.notFound',
  'scenario.manage': 'scenario.notFound',
  'quotaLink.manage': 'scenario.linkNotFound',
  'media.manage': 'media.notFound',
  'respondentSession.view': 'fieldwork.sessionNotFound',
  'respondentSession.manage': 'fieldwork.sessionNotFound',
  'videoProcess.manage': 'processing.processNotFound',
  'report.manage': 'report.notFound',
  'survey.manage': 'survey.notFound',
  'demoAnalysis.view': 'demo.notFound',
};

/** What is private to its owner, whoever asks (a user's own demo videos). */
const PRIVATE = new Set<Permission>(['demoAnalysis.view']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whose projects a list may show: the user's own, or all of them for staff. */
export interface ProjectScope {
  userId: string;
  all: boolean;
}

export function scopeOf(user: User): ProjectScope {
  return { userId: user.id, all: isStaff(user) };
}

function isStaff(user: User): boolean {
  return user.role === 'super_user';
}

/**
 * What a role may do beyond acting on its own objects (spec section 6; decision 022). Staff (super users) do
 * everything; a categorizer admin (brand user) also keeps the categories directory and norm bases.
 */
export type RoleAction =
  | 'categories.manage'
  | 'licences.manage'
  | 'selfService.moderate'
  | 'selfService.create'
  | 'accessRequests.manage';
const ROLE_ACTIONS: Record<RoleAction, readonly Role[]> = {
  'categories.manage': ['categorizer_admin', 'super_user'],
  /** Adding licence packages to accounts and reading any account's balance. */
  'licences.manage': ['super_user'],
  /** The moderation queue of self-service tests: approving and returning them. */
  'selfService.moderate': ['super_user'],
  /** Self-service video-ad tests: customers, ARMI marketing users, brand users and staff; UX customers test sites. */
  'selfService.create': ['customer', 'armi_user', 'categorizer_admin', 'super_user'],
  /** Requests for access from the public pages: listing them and making their customer accounts. */
  'accessRequests.manage': ['super_user'],
};
const FORBIDDEN: Record<RoleAction, MessageKey> = {
  'categories.manage': 'category.forbidden',
  'licences.manage': 'licence.forbidden',
  'selfService.moderate': 'selfservice.forbidden',
  'selfService.create': 'selfservice.roleForbidden',
  'accessRequests.manage': 'accessrequest.forbidden',
};

export function can(user: User, action: RoleAction): boolean {
  return ROLE_ACTIONS[action].includes(user.role);
}

/** Throws "forbidden" (403) unless the user's role may do `action`. */
export function requireRole(user: User, action: RoleAction): void {
  if (!can(user, action)) throw new AppError('forbidden', { message: FORBIDDEN[action] });
}

/** The research types a role may create, where it is limited: UX customers test website prototypes (and interview). */
const RESEARCH_TYPES: Partial<Record<Role, readonly ContentType[]>> = { ux_customer: ['site', 'contentless'] };

/**
 * Why the user may not create a research of `type` (a message), or null when they may: ARMI marketing users (the
 * role, or the ARMI flag of spec section 3) have no contentless researches; UX customers only the types above.
 */
export function researchRefusal(user: User, type: ContentType): MessageKey | null {
  if (type === 'contentless' && (user.role === 'armi_user' || user.is_armi_user))
    return 'campaign.contentlessForbidden';
  const allowed = RESEARCH_TYPES[user.role];
  return allowed && !allowed.includes(type) ? 'campaign.contentTypeForRole' : null;
}

export const canManageCategories = (user: User) => can(user, 'categories.manage');
export const requireCategoriesManager = (user: User) => requireRole(user, 'categories.manage');

/**
 * The ids among `ids` the user may act on with `permission`. Ids come from URLs and bodies: one
 * that is not a uuid is not found, and never reaches SQL.
 */
export async function checkAccess(
  access: AccessRepository,
  user: User,
  permission: Permission,
  ids: readonly string[],
): Promise<Set<string>> {
  const candidates = [...new Set(ids)].filter((id) => UUID.test(id));
  if (!candidates.length) return new Set();
  const everyProject = isStaff(user) && !PRIVATE.has(permission);
  return CHECKS[permission](access, everyProject ? null : user.id, candidates);
}

/** Throws "not found" (404) unless the user may act on every one of `ids` with `permission`. */
export async function requireAccess(
  access: AccessRepository,
  user: User,
  permission: Permission,
  ids: string | readonly string[],
): Promise<void> {
  const wanted = typeof ids === 'string' ? [ids] : ids;
  const allowed = await checkAccess(access, user, permission, wanted);
  if (!wanted.length || wanted.some((id) => !allowed.has(id))) {
    throw new AppError('not_found', { message: NOT_FOUND[permission] });
  }
}

/** The session secret a respondent call carries: `Authorization: Bearer <secret>`. */
const BEARER = /^Bearer ([\w-]{16,128})$/;

/**
 * The respondent principal (design section 6): a respondent session is reached with its id and its
 * secret, and nothing else. A missing or malformed secret, an unknown id, or another session's
 * secret are all the same "not found", so neither session ids nor secrets can be probed.
 */
export async function requireRespondent(
  respondents: Pick<RespondentsRepository, 'findSession'>,
  sessionId: string,
  authorization: string | undefined,
): Promise<RespondentSessionRow> {
  const secret = authorization ? BEARER.exec(authorization)?.[1] : undefined;
  const session = secret ? await respondents.findSession(sessionId, hashToken(secret)) : undefined;
  if (!session) throw new AppError('not_found', { message: 'respondent.sessionNotFound' });
  return session;
}

/**
 * The setup check's principal (/dot-test): like a respondent session, a test is reached with its id
 * and its secret only; anything else is the same "not found".
 */
export async function requireDotTest(
  dotTests: Pick<DotTestsRepository, 'find'>,
  id: string,
  authorization: string | undefined,
): Promise<DotTestRow> {
  const secret = authorization ? BEARER.exec(authorization)?.[1] : undefined;
  const test = secret ? await dotTests.find(id, hashToken(secret)) : undefined;
  if (!test) throw new AppError('not_found', { message: 'respondent.dotTestNotFound' });
  return test;
}
