import { z } from 'zod';
import { RESPONDENT_LIMITS, type RespondentSessionStatus } from './respondent.ts';

/**
 * One rule for what a respondent session is now (issue 28, item 15). The stored status says how a
 * session ended; a session still `started` whose browser has been silent for
 * `RESPONDENT_LIMITS.dropOutAfterMinutes` (a closed tab, a lost phone) is abandoned: every view — the
 * sessions list and its filter, the fieldwork counts, the public quota page, the token checker — calls
 * it `dropped_out`. The server says the same in SQL (`effectiveStatusSql`, fieldwork repository), from
 * the same cut-off, and a test holds the two to one answer.
 */
export const ABANDONED_AFTER_MS = RESPONDENT_LIMITS.dropOutAfterMinutes * 60_000;

/** The last activity before which a started session counts as abandoned, as of `now`. */
export function abandonedBefore(now: Date | number): Date {
  return new Date(new Date(now).getTime() - ABANDONED_AFTER_MS);
}

/** A session's status as every view shows it: the stored one, or `dropped_out` for a silent started one. */
export function effectiveSessionStatus(
  row: { status: RespondentSessionStatus; last_seen_at: Date | string },
  now: Date | number,
): RespondentSessionStatus {
  if (row.status !== 'started') return row.status;
  return new Date(row.last_seen_at).getTime() < abandonedBefore(now).getTime() ? 'dropped_out' : 'started';
}

/**
 * POST /r/links/{token}/turned-away — the start page found the quota full and turned the respondent away: the
 * server records it (no session, no personal data) when the link's quota is indeed full, so "Quota full" counts
 * them. `recorded: false`: the quota is not full (any more), nothing is counted.
 */
export const turnAwayOutput = z.object({ recorded: z.boolean() });
export type TurnAwayOutput = z.infer<typeof turnAwayOutput>;
