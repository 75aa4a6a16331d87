import type { TolokaAcceptanceMode, TolokaDecisionReason, TolokaDecisionsOutput } from '@emolens/contracts';
import type { Deps } from '../../context.ts';
import { isUuid } from '../../db/sql.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import {
  completionCodeOf,
  type TolokaAssignment,
  type TolokaClient,
  TolokaError,
} from '../../integrations/toloka/client.ts';
import { type VerifiedCode, verifyCompletionCode } from '../respondents/completion-code.ts';
import type { NewTolokaDecision } from './acceptance.repository.ts';
import { loadResearch, type PoolRow, poolClient, type TolokaPoolsDeps, tolokaFailure } from './toloka-pools.service.ts';

/**
 * Automatic acceptance of Toloka assignments (issue 14, item 5). A review reads the pool's submitted assignments
 * and checks each completion code against the signed codes: the assignment of a complete session of this research
 * whose recording is processed and usable is accepted; a forged code, another research's code, a code used by
 * another assignment already, or an excluded recording is rejected with the reason stated to the worker; a session
 * not processed yet waits for the next review. Each decision is recorded once (the assignment id is its key) and is
 * sent to Toloka at once ('auto') or when the analyst confirms it ('confirm'). A decision is taken for sending
 * (marked sent) before Toloka is asked, so two reviews never send it twice; a failed send is marked failed with
 * Toloka's error and sent again by the next review. The review runs when the analyst asks (no scheduled job).
 */
export type TolokaAcceptanceDeps = TolokaPoolsDeps & Pick<Deps, 'tolokaAcceptance'>;

type Decision = 'accept' | 'reject';
type Verdict =
  | { decision: 'wait' }
  | {
      decision: Decision;
      reason: TolokaDecisionReason;
      session_id: string | null;
      excluded_reason: string | null;
    };

const EXCLUDED_TEXT: Record<string, string> = {
  no_face: 'no face was found in the recording',
  bad_frames: 'too many frames of the recording were unusable',
  calibration_failed: 'the gaze calibration failed',
  several_faces: 'several faces were in the frame',
};

/** What the worker is told (Toloka shows the public comment; English, Toloka's common language). */
export function publicCommentOf(decision: Decision, reason: string, excludedReason: string | null): string {
  if (decision === 'accept') return 'Thank you, your answer is accepted.';
  switch (reason) {
    case 'forged':
      return 'The completion code is not valid.';
    case 'other_research':
      return 'The completion code belongs to another task.';
    case 'duplicate':
      return 'This completion code has already been submitted in another assignment.';
    case 'excluded':
      return `The recording could not be used${excludedReason && EXCLUDED_TEXT[excludedReason] ? `: ${EXCLUDED_TEXT[excludedReason]}` : ''}.`;
    case 'not_complete':
      return 'The study was not completed.';
    case 'session_missing':
      return 'The completion code does not match any completed study.';
    default:
      return 'The answer does not meet the task requirements.';
  }
}

async function poolOf(deps: TolokaAcceptanceDeps, user: User, campaignId: string): Promise<PoolRow> {
  await loadResearch(deps, user, campaignId);
  const row = await deps.tolokaPools.find(campaignId);
  if (!row) throw new AppError('not_found', { message: 'pool.notFound' });
  return row;
}

const unavailable = (error: unknown) =>
  error instanceof TolokaError && (error.code === 'NETWORK' || error.status === 429 || error.status >= 500);

/**
 * Sends the decisions (those still waiting or failed); each is taken first, so a concurrent review or confirm
 * never sends it again. Stops at Toloka being out of reach (the rest wait for the next review).
 */
async function send(
  deps: TolokaAcceptanceDeps,
  client: TolokaClient,
  campaignId: string,
  assignmentIds: string[],
): Promise<{ sent: number; failed: number; unavailable: boolean }> {
  const result = { sent: 0, failed: 0, unavailable: false };
  for (const id of assignmentIds) {
    const taken = await deps.tolokaAcceptance.claim(campaignId, id);
    if (!taken) continue;
    const comment = publicCommentOf(taken.decision, taken.reason, taken.excluded_reason);
    try {
      if (taken.decision === 'accept') await client.acceptAssignment(id, comment);
      else await client.rejectAssignment(id, comment);
      result.sent++;
    } catch (error) {
      // Decided in Toloka meanwhile (no longer SUBMITTED): nothing more to send; the next review records Toloka's.
      if (error instanceof TolokaError && error.code === 'INAPPROPRIATE_STATUS') {
        result.sent++;
        continue;
      }
      deps.log.warn({ err: error, campaign: campaignId, assignment: id }, 'Toloka decision could not be sent');
      await deps.tolokaAcceptance.failed(campaignId, id, error instanceof Error ? error.message : String(error));
      result.failed++;
      if (unavailable(error)) {
        result.unavailable = true;
        break;
      }
    }
  }
  return result;
}

/** GET /api/cabinet/campaigns/{id}/toloka/decisions/ */
export async function tolokaDecisions(
  deps: TolokaAcceptanceDeps,
  user: User,
  campaignId: string,
  review: TolokaDecisionsOutput['review'] = null,
): Promise<TolokaDecisionsOutput> {
  await loadResearch(deps, user, campaignId);
  const pool = await deps.tolokaPools.find(campaignId);
  const [rows, counts] = await Promise.all([
    deps.tolokaAcceptance.list(campaignId),
    deps.tolokaAcceptance.counts(campaignId),
  ]);
  return {
    acceptance: pool?.acceptance ?? 'confirm',
    items: rows.map((r) => ({
      assignment_id: r.assignment_id,
      worker_id: r.worker_id,
      session_id: r.session_id,
      decision: r.decision,
      reason: r.reason as TolokaDecisionReason,
      excluded_reason: r.excluded_reason,
      status: r.status,
      error: r.error,
      decided_at: new Date(r.decided_at).toISOString(),
      sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
    })),
    counts,
    review,
    can: {
      review: !!pool && !!pool.token_id,
      confirm: !!pool && !!pool.token_id && counts.pending_confirmation + counts.failed > 0,
      change: !!pool,
    },
  };
}

/** PUT /api/cabinet/campaigns/{id}/toloka/acceptance/ */
export async function setTolokaAcceptance(
  deps: TolokaAcceptanceDeps,
  user: User,
  campaignId: string,
  acceptance: TolokaAcceptanceMode,
): Promise<void> {
  await poolOf(deps, user, campaignId);
  await deps.tolokaAcceptance.setAcceptance(campaignId, acceptance);
}

/** POST /api/cabinet/campaigns/{id}/toloka/review/ — what the review found. */
export async function reviewTolokaAssignments(
  deps: TolokaAcceptanceDeps,
  user: User,
  secret: string,
  campaignId: string,
): Promise<NonNullable<TolokaDecisionsOutput['review']>> {
  const pool = await poolOf(deps, user, campaignId);
  const client = await poolClient(deps, user, pool);
  let assignments: TolokaAssignment[];
  try {
    assignments = await client.listAssignments({
      pool_id: pool.pool_id,
      status: ['SUBMITTED', 'ACCEPTED', 'REJECTED'],
      limit: 300,
    });
  } catch (error) {
    deps.log.warn({ err: error, campaign: campaignId }, 'Toloka assignments could not be read');
    throw tolokaFailure(error, 'pool.unavailable');
  }
  const repo = deps.tolokaAcceptance;
  const projectId = (await repo.projectOf(campaignId))?.project_id;
  const decided = new Map((await repo.all(campaignId)).map((d) => [d.assignment_id, d]));
  // The session each accepted assignment holds: its code cannot be used again.
  const taken = new Map<string, string>();
  for (const d of decided.values())
    if (d.decision === 'accept' && d.session_id) taken.set(d.session_id, d.assignment_id);

  const undecided = assignments.filter((a) => !decided.has(a.id));
  const verified = new Map<string, VerifiedCode>();
  await Promise.all(
    undecided.map(async (a) => {
      const code = completionCodeOf(a);
      verified.set(
        a.id,
        code ? await verifyCompletionCode(secret, code.trim()) : { valid: false, reason: 'malformed' },
      );
    }),
  );
  const sessionIds = new Set<string>();
  for (const v of verified.values()) if (v.valid && isUuid(v.claims.sid)) sessionIds.add(v.claims.sid);
  const sessions = new Map((await repo.sessions(campaignId, [...sessionIds])).map((s) => [s.id, s]));

  const judge = (a: TolokaAssignment): Verdict => {
    const v = verified.get(a.id);
    const reject = (reason: TolokaDecisionReason, sessionId: string | null = null, excluded: string | null = null) =>
      ({ decision: 'reject', reason, session_id: sessionId, excluded_reason: excluded }) as const;
    if (!v?.valid || !isUuid(v.claims.sid)) return reject('forged');
    const { claims } = v;
    if (claims.pid !== projectId || !claims.cids.includes(campaignId)) return reject('other_research');
    const session = sessions.get(claims.sid);
    if (!session || session.project_id !== projectId) return reject('session_missing');
    if (claims.outcome !== 'complete') return reject('not_complete', session.id);
    const holder = taken.get(session.id);
    if (holder && holder !== a.id) return reject('duplicate', session.id);
    if (session.usable === null || session.usable === undefined) return { decision: 'wait' };
    if (!session.usable) return reject('excluded', session.id, session.excluded_reason ?? null);
    return { decision: 'accept', reason: 'usable', session_id: session.id, excluded_reason: null };
  };

  const summary = { submitted: 0, decided: 0, waiting: 0, sent: 0, failed: 0 };
  const fresh: NewTolokaDecision[] = [];
  const inToloka: NewTolokaDecision[] = [];
  // Accepted or rejected in Toloka already: recorded as sent, with Toloka's decision when there was none of ours.
  for (const a of assignments) {
    if (a.status !== 'ACCEPTED' && a.status !== 'REJECTED') continue;
    const theirs: Decision = a.status === 'ACCEPTED' ? 'accept' : 'reject';
    const ours = decided.get(a.id);
    if (ours) {
      if (ours.status !== 'sent' || ours.decision !== theirs) {
        await repo.decidedInToloka(campaignId, a.id, theirs, ours.decision);
      }
      continue;
    }
    const v = verified.get(a.id);
    const sessionId = v?.valid && isUuid(v.claims.sid) && sessions.has(v.claims.sid) ? v.claims.sid : null;
    if (theirs === 'accept' && sessionId && !taken.has(sessionId)) taken.set(sessionId, a.id);
    inToloka.push({
      assignment_id: a.id,
      campaign_id: campaignId,
      worker_id: a.user_id,
      session_id: sessionId,
      decision: theirs,
      reason: 'decided_in_toloka',
      excluded_reason: null,
    });
  }
  await repo.insert(inToloka, 'sent');

  const retry: string[] = [];
  for (const a of assignments) {
    if (a.status !== 'SUBMITTED') continue;
    summary.submitted++;
    const ours = decided.get(a.id);
    if (ours) {
      if (ours.status === 'failed' || (ours.status === 'pending_confirmation' && pool.acceptance === 'auto')) {
        retry.push(a.id);
      }
      continue;
    }
    const verdict = judge(a);
    if (verdict.decision === 'wait') {
      summary.waiting++;
      continue;
    }
    if (verdict.decision === 'accept' && verdict.session_id) taken.set(verdict.session_id, a.id);
    fresh.push({ assignment_id: a.id, campaign_id: campaignId, worker_id: a.user_id, ...verdict });
  }
  await repo.insert(fresh);
  summary.decided = fresh.length;

  const toSend = [...retry, ...(pool.acceptance === 'auto' ? fresh.map((d) => d.assignment_id) : [])];
  const result = await send(deps, client, campaignId, toSend);
  summary.sent = result.sent;
  summary.failed = result.failed;
  if (result.unavailable) throw new AppError('service_unavailable', { message: 'pool.unavailable' });
  return summary;
}

/**
 * POST /api/cabinet/campaigns/{id}/toloka/decisions/confirm/ — sends the decisions named (null: every one waiting
 * for confirmation or failed); decisions sent already are left alone.
 */
export async function confirmTolokaDecisions(
  deps: TolokaAcceptanceDeps,
  user: User,
  campaignId: string,
  assignmentIds: string[] | null,
): Promise<{ sent: number; failed: number }> {
  const pool = await poolOf(deps, user, campaignId);
  const wanted = assignmentIds ? new Set(assignmentIds) : null;
  const ids = (await deps.tolokaAcceptance.all(campaignId))
    .filter((d) => d.status !== 'sent' && (!wanted || wanted.has(d.assignment_id)))
    .sort((a, b) => (a.assignment_id < b.assignment_id ? -1 : 1))
    .map((d) => d.assignment_id);
  if (!ids.length) return { sent: 0, failed: 0 };
  const client = await poolClient(deps, user, pool);
  const result = await send(deps, client, campaignId, ids);
  if (result.unavailable) throw new AppError('service_unavailable', { message: 'pool.unavailable' });
  return result;
}
