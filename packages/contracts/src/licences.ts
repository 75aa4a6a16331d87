import { z } from 'zod';
import { msg } from './messages.ts';
import { keysetCursor } from './paging.ts';
import { PRICING } from './pricing.ts';

/**
 * Licence packages and session accounting (issue 15, item 3; spec sections 2 and 9). An account holds packages of
 * sessions, assigned by staff, from the same price list as the public /price page (`PRICING`). A session is a
 * started 5-minute interval of an interview: each usable respondent of the account's projects, and each interview
 * analysis, consumes `sessionsPerInterview(seconds)` (sessions.ts). An account with no package is not metered.
 */
/** The packages staff can add: the price list's, and the additional package of 100 (any number of them). */
export const LICENCE_PACKAGES = [...PRICING.packages.map((p) => p.id), 'additional'] as const;
export type LicencePackage = (typeof LICENCE_PACKAGES)[number];
export const ADDITIONAL_PACKAGES_MAX = 100;

/** Sessions of `quantity` packages of `id`. */
export function packageSessions(id: LicencePackage, quantity = 1): number {
  const one =
    id === 'additional'
      ? PRICING.additionalPackage.sessions
      : (PRICING.packages.find((p) => p.id === id)?.sessions ?? 0);
  return one * quantity;
}

/** Below this many sessions the owner is told the balance is low. */
export const LOW_BALANCE_SESSIONS = 100;

export const LEDGER_KINDS = ['package', 'respondent', 'analysis', 'self_service'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const ledgerEntry = z.object({
  id: z.string(),
  kind: z.enum(LEDGER_KINDS),
  /** Sessions added (a package, positive) or consumed (negative). */
  delta: z.number().int(),
  /** Sessions consumed beyond the balance (the balance never goes below zero; what it could not cover is owed). */
  unpaid: z.number().int(),
  package: z.enum(LICENCE_PACKAGES).nullable(),
  quantity: z.number().int().nullable(),
  project_id: z.string().nullable(),
  project_title: z.string().nullable(),
  /** The interview's length (respondent or analysis). */
  seconds: z.number().int().nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntry>;

/** GET /api/cabinet/licences/ — the account's balance, packages and consumption per project. */
export const licenceOutput = z.object({
  /** Whether the account has packages (and so is metered). */
  licensed: z.boolean(),
  balance: z.number().int(),
  /** Sessions consumed that the balance could not cover. */
  unpaid: z.number().int(),
  /** Sessions added by packages, and consumed, over the account's life. */
  added: z.number().int(),
  consumed: z.number().int(),
  low: z.boolean(),
  packages: z.array(ledgerEntry),
  projects: z.array(
    z.object({
      project_id: z.string().nullable(),
      title: z.string().nullable(),
      respondents: z.number().int(),
      analyses: z.number().int(),
      sessions: z.number().int(),
    }),
  ),
  /** `manage`: the user is staff and may read any account and add packages. */
  can: z.object({ manage: z.boolean() }),
});
export type LicenceOutput = z.infer<typeof licenceOutput>;

/** GET /api/cabinet/licences/history/ — newest first, keyset-paged. */
export const ledgerOutput = z.object({ items: z.array(ledgerEntry), next_cursor: z.string().nullable() });
export type LedgerOutput = z.infer<typeof ledgerOutput>;

export const ledgerQuery = z.strictObject({
  cursor: keysetCursor.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/** POST /api/cabinet/licences/accounts/{public user id}/packages/ (staff) */
export const addPackageInput = z.strictObject({
  package: z.enum(LICENCE_PACKAGES, msg('validation.choice')),
  /** How many of that package. */
  quantity: z
    .number(msg('validation.number'))
    .int(msg('validation.wholeNumber'))
    .min(1, msg('validation.between', { first: 1, second: ADDITIONAL_PACKAGES_MAX }))
    .max(ADDITIONAL_PACKAGES_MAX, msg('validation.between', { first: 1, second: ADDITIONAL_PACKAGES_MAX }))
    .default(1),
  note: z
    .string(msg('validation.invalid'))
    .trim()
    .max(500, msg('validation.maxChars', { max: 500 }))
    .default(''),
});
export type AddPackageInput = z.input<typeof addPackageInput>;

/** GET /api/cabinet/licences/accounts/{public user id}/ (staff): an account's licence, by its public id. */
export const accountLicenceOutput = licenceOutput.extend({
  user: z.object({ public_user_id: z.string(), username: z.string(), name: z.string() }),
});
export type AccountLicenceOutput = z.infer<typeof accountLicenceOutput>;
