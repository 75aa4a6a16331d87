import {
  type AccountLicenceOutput,
  type addPackageInput,
  type LedgerEntry,
  type LedgerOutput,
  type LicenceOutput,
  type LicencePackage,
  LOW_BALANCE_SESSIONS,
  type ledgerQuery,
  packageSessions,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import { cursorOf, parseCursor } from '../../db/sql.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { can, requireRole } from '../access/access.ts';
import { notify } from '../notifications/notifications.service.ts';
import type { Charged, LicencesRepository } from './licences.repository.ts';

/**
 * An account's licence (issue 15, item 3): its packages and balance, consumption per project and the history.
 * Staff add packages to any account by its public user id and read any account's licence.
 */
export type LicencesDeps = Pick<Deps, 'licences' | 'users' | 'log'>;

type EntryRow = Awaited<ReturnType<LicencesRepository['packages']>>[number];

function toEntry(row: EntryRow): LedgerEntry {
  return {
    id: row.id,
    kind: row.kind,
    delta: row.delta,
    unpaid: row.unpaid,
    package: (row.package as LicencePackage | null) ?? null,
    quantity: row.quantity,
    project_id: row.project_id,
    project_title: row.project_title ?? null,
    seconds: row.seconds,
    note: row.note,
    created_at: new Date(row.created_at).toISOString(),
  };
}

async function licenceOf(deps: LicencesDeps, userId: string, viewer: User): Promise<LicenceOutput> {
  const [{ account, added, consumed }, packages, projects] = await Promise.all([
    deps.licences.account(userId),
    deps.licences.packages(userId),
    deps.licences.byProject(userId),
  ]);
  const balance = account?.balance ?? 0;
  return {
    licensed: !!account,
    balance,
    unpaid: account?.unpaid ?? 0,
    added,
    consumed,
    low: !!account && balance < LOW_BALANCE_SESSIONS,
    packages: packages.map(toEntry),
    projects: projects.map((p) => ({
      project_id: p.project_id,
      title: p.title ?? null,
      respondents: Number(p.respondents),
      analyses: Number(p.analyses),
      sessions: Number(p.sessions),
    })),
    can: { manage: can(viewer, 'licences.manage') },
  };
}

/** GET /api/cabinet/licences/ */
export function myLicence(deps: LicencesDeps, user: User): Promise<LicenceOutput> {
  return licenceOf(deps, user.id, user);
}

/** GET /api/cabinet/licences/history/ */
export async function licenceHistory(
  deps: LicencesDeps,
  user: User,
  query: z.infer<typeof ledgerQuery>,
): Promise<LedgerOutput> {
  const rows = await deps.licences.history(
    user.id,
    query.limit + 1,
    query.cursor ? parseCursor(query.cursor) : undefined,
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return { items: page.map(toEntry), next_cursor: rows.length > query.limit && last ? cursorOf(last) : null };
}

async function accountOf(deps: LicencesDeps, staff: User, publicId: string): Promise<User> {
  requireRole(staff, 'licences.manage');
  const user = await deps.users.findByPublicId(publicId);
  if (!user) throw new AppError('not_found', { message: 'user.doesNotExist' });
  return user;
}

/** GET /api/cabinet/licences/accounts/{public id}/ (staff) */
export async function accountLicence(deps: LicencesDeps, staff: User, publicId: string): Promise<AccountLicenceOutput> {
  const user = await accountOf(deps, staff, publicId);
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return {
    ...(await licenceOf(deps, user.id, staff)),
    user: { public_user_id: user.public_user_id, username: user.username, name },
  };
}

/** POST /api/cabinet/licences/accounts/{public id}/packages/ (staff) */
export async function addPackage(
  deps: LicencesDeps,
  staff: User,
  publicId: string,
  input: z.infer<typeof addPackageInput>,
): Promise<void> {
  const user = await accountOf(deps, staff, publicId);
  const sessions = packageSessions(input.package, input.quantity);
  await deps.licences.addPackage({
    userId: user.id,
    package: input.package,
    quantity: input.quantity,
    sessions,
    actorId: staff.id,
    note: input.note || null,
  });
  deps.log.info(
    { account: user.id, package: input.package, quantity: input.quantity, sessions },
    'licence package added',
  );
}

/**
 * Tells the account's owner when a charge took the balance below the low mark, or to nothing (collection is
 * suspended until a package is added): once for each, per package added (the total added names the event).
 */
export async function noticeBalance(
  deps: Pick<Deps, 'licences' | 'notifications' | 'log'>,
  change: Charged & { userId: string },
): Promise<void> {
  const before = change.balance + change.charged;
  const exhausted = change.balance <= 0 && (before > 0 || change.unpaid > 0);
  const low = !exhausted && change.balance < LOW_BALANCE_SESSIONS && before >= LOW_BALANCE_SESSIONS;
  if (!exhausted && !low) return;
  const { added } = await deps.licences.account(change.userId);
  await notify(deps, {
    userId: change.userId,
    kind: exhausted ? 'balance_exhausted' : 'balance_low',
    params: { balance: change.balance },
    link: '/cabinet/licences',
    dedupeKey: `${exhausted ? 'balance_exhausted' : 'balance_low'}:${added}`,
  });
}
