import { randomUUID } from 'node:crypto';
import { sessionsPerInterview } from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';
import { beforeCursor, micros } from '../../db/sql.ts';
import type { DB } from '../../db/types.ts';

export type ChargeKind = 'respondent' | 'analysis' | 'self_service';
export interface Charge {
  userId: string;
  kind: ChargeKind;
  /** What is charged, once: `respondent:<session id>`, `analysis:<id>`, `self_service:<test id>`. */
  ref: string;
  sessions: number;
  projectId?: string | null;
  seconds?: number | null;
}
/** What a charge did: sessions taken from the balance, owed beyond it, and the balance after. */
export interface Charged {
  charged: number;
  unpaid: number;
  balance: number;
}

/**
 * Charges a metered account, inside the caller's transaction: the account's row is locked, the ledger entry written
 * once per `ref` (a second charge of the same thing does nothing), and the balance lowered by what it can cover;
 * the rest is recorded as owed, so the balance never goes below zero. Null: the account is not metered (no package)
 * or the thing was charged already. With `strict`, a balance that cannot cover it all charges nothing and answers
 * the balance (a self-service test starts only when it is covered).
 */
export async function chargeSessions(
  trx: Kysely<DB>,
  charge: Charge,
  strict = false,
): Promise<Charged | { short: true; balance: number } | null> {
  const account = await trx
    .selectFrom('session_accounts')
    .select('balance')
    .where('user_id', '=', charge.userId)
    .forUpdate()
    .executeTakeFirst();
  if (!account) return null;
  const charged = Math.min(account.balance, charge.sessions);
  const unpaid = charge.sessions - charged;
  if (strict && unpaid > 0) return { short: true, balance: account.balance };
  const entry = await trx
    .insertInto('session_ledger')
    .values({
      user_id: charge.userId,
      kind: charge.kind,
      ref: charge.ref,
      delta: -charged,
      unpaid,
      project_id: charge.projectId ?? null,
      seconds: charge.seconds === null || charge.seconds === undefined ? null : Math.round(charge.seconds),
    })
    .onConflict((c) => c.constraint('session_ledger_ref').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!entry) return null;
  const after = await trx
    .updateTable('session_accounts')
    .set({
      balance: sql<number>`balance - ${charged}`,
      unpaid: sql<number>`unpaid + ${unpaid}`,
      updated_at: sql<Date>`now()`,
    })
    .where('user_id', '=', charge.userId)
    .returning('balance')
    .executeTakeFirstOrThrow();
  return { charged, unpaid, balance: after.balance };
}

/** A charge for a respondent: the account charged and what it did. */
export type RespondentCharge = Charged & { userId: string };

/**
 * Charges the owner of a usable respondent's project for the interview (first start to end), once per session;
 * preview sessions and self-service tests' respondents (charged at the test's start) are not charged here. Called in
 * the transaction that counts the respondent.
 */
export async function chargeRespondent(trx: Kysely<DB>, sessionId: string): Promise<RespondentCharge | null> {
  const row = await trx
    .selectFrom('respondent_sessions as s')
    .innerJoin('projects as p', 'p.id', 's.project_id')
    .select([
      'p.owner_id',
      's.project_id',
      sql<number>`extract(epoch from (coalesce(s.ended_at, s.last_seen_at) - s.started_at))`.as('seconds'),
    ])
    .where('s.id', '=', sessionId)
    .where('s.is_preview', '=', false)
    // A self-service test's respondents were paid for when it started (its frozen session count).
    .where(sql<boolean>`not exists (select 1 from self_service_tests sst where sst.project_id = s.project_id)`)
    .executeTakeFirst();
  if (!row) return null;
  const seconds = Math.max(0, Number(row.seconds));
  const result = await chargeSessions(trx, {
    userId: row.owner_id,
    kind: 'respondent',
    ref: `respondent:${sessionId}`,
    sessions: sessionsPerInterview(seconds),
    projectId: row.project_id,
    seconds,
  });
  return result && 'charged' in result ? { ...result, userId: row.owner_id } : null;
}

const ENTRY_COLUMNS = [
  'l.id',
  'l.kind',
  'l.delta',
  'l.unpaid',
  'l.package',
  'l.quantity',
  'l.project_id',
  'p.title as project_title',
  'l.seconds',
  'l.note',
  'l.created_at',
] as const;

/** Licence packages and session accounting (issue 15, item 3). */
export function createLicencesRepository(db: Kysely<DB>) {
  return {
    async account(userId: string) {
      const [account, totals] = await Promise.all([
        db
          .selectFrom('session_accounts')
          .select(['balance', 'unpaid'])
          .where('user_id', '=', userId)
          .executeTakeFirst(),
        db
          .selectFrom('session_ledger')
          .select([
            sql<number>`coalesce(sum(delta) filter (where delta > 0), 0)::int`.as('added'),
            sql<number>`coalesce(sum(unpaid - delta) filter (where kind <> 'package'), 0)::int`.as('consumed'),
          ])
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow(),
      ]);
      return { account, added: Number(totals.added), consumed: Number(totals.consumed) };
    },

    packages(userId: string) {
      return db
        .selectFrom('session_ledger as l')
        .leftJoin('projects as p', 'p.id', 'l.project_id')
        .select(ENTRY_COLUMNS)
        .where('l.user_id', '=', userId)
        .where('l.kind', '=', 'package')
        .orderBy('l.created_at', 'desc')
        .orderBy('l.id', 'desc')
        .limit(200)
        .execute();
    },

    /** Sessions consumed per project (null: projects deleted since), most first. */
    byProject(userId: string) {
      return db
        .selectFrom('session_ledger as l')
        .leftJoin('projects as p', 'p.id', 'l.project_id')
        .select([
          'l.project_id',
          'p.title',
          sql<number>`(count(*) filter (where l.kind = 'respondent'))::int`.as('respondents'),
          sql<number>`(count(*) filter (where l.kind = 'analysis'))::int`.as('analyses'),
          sql<number>`sum(l.unpaid - l.delta)::int`.as('sessions'),
        ])
        .where('l.user_id', '=', userId)
        .where('l.kind', '<>', 'package')
        .groupBy(['l.project_id', 'p.title'])
        .orderBy('sessions', 'desc')
        .limit(200)
        .execute();
    },

    /** The ledger, newest first, after a keyset cursor's row. */
    history(userId: string, limit: number, before?: { micros: string; id: string }) {
      return db
        .selectFrom('session_ledger as l')
        .leftJoin('projects as p', 'p.id', 'l.project_id')
        .select([...ENTRY_COLUMNS, micros('l.created_at').as('micros')])
        .where('l.user_id', '=', userId)
        .$if(before !== undefined, (q) =>
          q.where(beforeCursor('l.created_at', 'l.id', before as { micros: string; id: string })),
        )
        .orderBy('l.created_at', 'desc')
        .orderBy('l.id', 'desc')
        .limit(limit)
        .execute();
    },

    /** Adds a package: the ledger entry and the balance (the account is metered from now on). */
    addPackage(entry: {
      userId: string;
      package: string;
      quantity: number;
      sessions: number;
      actorId: string;
      note: string | null;
    }) {
      return db.transaction().execute(async (trx) => {
        await trx
          .insertInto('session_accounts')
          .values({ user_id: entry.userId, balance: entry.sessions })
          .onConflict((c) =>
            c.column('user_id').doUpdateSet({
              balance: sql<number>`session_accounts.balance + ${entry.sessions}`,
              updated_at: sql<Date>`now()`,
            }),
          )
          .execute();
        await trx
          .insertInto('session_ledger')
          .values({
            user_id: entry.userId,
            kind: 'package',
            ref: `package:${randomUUID()}`,
            delta: entry.sessions,
            package: entry.package,
            quantity: entry.quantity,
            actor_id: entry.actorId,
            note: entry.note,
          })
          .execute();
      });
    },

    /** Charges the owner of an interview analysis once: the sessions its recording counted. */
    chargeAnalysis(userId: string, analysisId: string, seconds: number, sessions: number) {
      return db
        .transaction()
        .execute((trx) =>
          chargeSessions(trx, { userId, kind: 'analysis', ref: `analysis:${analysisId}`, sessions, seconds }),
        );
    },

    /**
     * Whether the project's owner is metered and has no sessions left (collection is suspended); a self-service
     * test's project collects what it paid for at its start, whatever the balance now.
     */
    async exhausted(projectId: string): Promise<boolean> {
      const row = await db
        .selectFrom('projects as p')
        .innerJoin('session_accounts as a', 'a.user_id', 'p.owner_id')
        .select('a.balance')
        .where('p.id', '=', projectId)
        .where(sql<boolean>`not exists (select 1 from self_service_tests sst where sst.project_id = p.id)`)
        .executeTakeFirst();
      return !!row && row.balance <= 0;
    },
  };
}

export type LicencesRepository = ReturnType<typeof createLicencesRepository>;
