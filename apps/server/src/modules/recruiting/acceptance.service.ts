import type {
  AcceptanceMode,
  AssignmentDecisionKind,
  AssignmentDecisionsOutput,
  DecisionReason,
  RecruitingPlatform,
} from '@emolens/contracts';
import type { Deps } from '../../context.ts';
import { isUuid } from '../../db/sql.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { type VerifiedCode, verifyCompletionCodes } from '../respondents/completion-code.ts';
import { jobPlatform } from './platforms/index.ts';
import type { JobDeps, PlatformAssignment, PlatformAssignments } from './platforms/platform.ts';
import type { NewDecision } from './recruiting.repository.ts';
import { jobSession, loadJob } from './recruiting-jobs.service.ts';
import { loadResearch } from './research.ts';

/**
 * Automatic acceptance of the assignments of a research's Toloka pool or MTurk HIT (issue 14, items 5 and 6). A
 * review reads the submitted assignments and checks each completion code (signed, or the short code the respondent
 * copied, found by its session: both are accepted alike, issue 28 item 13): the assignment
 * of a complete session of this research whose recording is processed and usable is accepted; a forged code,
 * another research's code, a code used by another assignment already, or an excluded recording is rejected with the
 * reason stated to the worker; a session not processed yet waits for the next review. Each decision is recorded
 * once (the platform and assignment id are its key) and is sent at once ('auto') or when the analyst confirms it
 * ('confirm'). A decision is taken for sending (marked sent) before the platform is asked, so two reviews never send
 * it twice; a failed send is marked failed with the platform's error and sent again by the next review. The review
 * runs when the analyst asks (no scheduled job). The platforms differ only in their {@link PlatformAssignments}
 * (`platforms/`).
 */
export type AcceptanceDeps = JobDeps & Pick<Deps, 'sessionEnds'>;

type Decision = AssignmentDecisionKind;

type Verdict =
  | { decision: 'wait' }
  | { decision: Decision; reason: DecisionReason; session_id: string | null; excluded_reason: string | null };

const EXCLUDED_TEXT: Record<string, string> = {
  no_face: 'no face was found in the recording',
  bad_frames: 'too many frames of the recording were unusable',
  calibration_failed: 'the gaze calibration failed',
  several_faces: 'several faces were in the frame',
};

/** What the worker is told (both platforms show it; English, their common language). */
export function publicCommentOf(decision: Decision, reason: string, excludedReason: string | null): string {
  if (decision === 'accept') return 'Thank you, your answer is accepted.';
  if (decision === 'return') {
    return 'The study ended early for you (you were screened out or its quota was full): please return this submission.';
  }
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

/**
 * Sends the decisions (those still waiting or failed); each is taken first, so a concurrent review or confirm
 * never sends it again. Stops at the platform being out of reach (the rest wait for the next review).
 */
async function send(
  deps: AcceptanceDeps,
  platform: RecruitingPlatform,
  target: PlatformAssignments,
  researchId: string,
  assignmentIds: string[],
): Promise<{ sent: number; failed: number; unavailable: boolean }> {
  const result = { sent: 0, failed: 0, unavailable: false };
  for (const id of assignmentIds) {
    const taken = await deps.recruiting.claim(platform, researchId, id);
    if (!taken) continue;
    try {
      const comment = publicCommentOf(taken.decision, taken.reason, taken.excluded_reason);
      await target.send(taken.decision, id, comment, taken.reason);
      result.sent++;
    } catch (error) {
      // Decided on the platform meanwhile: nothing more to send; the next review records the platform's decision.
      if (target.alreadyDecided(error)) {
        result.sent++;
        continue;
      }
      deps.log.warn({ err: error, research: researchId, assignment: id, platform }, 'decision could not be sent');
      await deps.recruiting.failed(platform, researchId, id, error instanceof Error ? error.message : String(error));
      result.failed++;
      if (target.unavailable(error)) {
        result.unavailable = true;
        break;
      }
    }
  }
  return result;
}

/** GET /api/cabinet/campaigns/{id}/{platform}/decisions/ */
export async function assignmentDecisions(
  deps: AcceptanceDeps,
  user: User,
  platform: RecruitingPlatform,
  researchId: string,
  review: AssignmentDecisionsOutput['review'] = null,
): Promise<AssignmentDecisionsOutput> {
  await loadResearch(deps, user, researchId);
  const home = await jobPlatform(platform).find(deps, researchId);
  const [rows, counts] = await Promise.all([
    deps.recruiting.list(platform, researchId),
    deps.recruiting.counts(platform, researchId),
  ]);
  return {
    acceptance: home?.acceptance ?? 'confirm',
    items: rows.map((r) => ({
      assignment_id: r.assignment_id,
      worker_id: r.worker_id,
      session_id: r.session_id,
      decision: r.decision,
      reason: r.reason as DecisionReason,
      excluded_reason: r.excluded_reason,
      status: r.status,
      error: r.error,
      decided_at: new Date(r.decided_at).toISOString(),
      sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
    })),
    counts,
    review,
    can: {
      review: !!home?.token_id,
      confirm: !!home?.token_id && counts.pending_confirmation + counts.failed > 0,
      change: !!home,
    },
  };
}

/** PUT /api/cabinet/campaigns/{id}/{platform}/acceptance/ */
export async function setAcceptance(
  deps: AcceptanceDeps,
  user: User,
  platform: RecruitingPlatform,
  researchId: string,
  acceptance: AcceptanceMode,
): Promise<void> {
  await loadJob(deps, user, jobPlatform(platform), researchId);
  await deps.recruiting.setAcceptance(platform, researchId, acceptance);
}

/** POST /api/cabinet/campaigns/{id}/{platform}/review/ — what the review found. */
export async function reviewAssignments(
  deps: AcceptanceDeps,
  user: User,
  secret: string,
  platform: RecruitingPlatform,
  researchId: string,
): Promise<NonNullable<AssignmentDecisionsOutput['review']>> {
  const job = jobPlatform(platform);
  const { row } = await loadJob(deps, user, job, researchId);
  return jobSession(deps, user, job, row, (session) =>
    review(deps, session.assignments(row), secret, platform, researchId, row.acceptance),
  );
}

async function review(
  deps: AcceptanceDeps,
  target: PlatformAssignments,
  secret: string,
  platform: RecruitingPlatform,
  researchId: string,
  acceptance: AcceptanceMode,
): Promise<NonNullable<AssignmentDecisionsOutput['review']>> {
  let assignments: PlatformAssignment[];
  try {
    assignments = await target.list();
  } catch (error) {
    deps.log.warn({ err: error, research: researchId, platform }, 'assignments could not be read');
    throw target.failure(error);
  }
  const repo = deps.recruiting;
  const projectId = (await repo.projectOf(researchId))?.project_id;
  const decided = new Map((await repo.all(platform, researchId)).map((d) => [d.assignment_id, d]));
  // The session each accepted assignment holds: its code cannot be used again.
  const taken = new Map<string, string>();
  for (const d of decided.values())
    if (d.decision === 'accept' && d.session_id) taken.set(d.session_id, d.assignment_id);

  const verified = new Map<string, VerifiedCode>();
  const open = assignments.filter((a) => !decided.has(a.id));
  // Assignments whose session the platform names (Prolific) need no code checked.
  const byCode = open.filter((a) => a.session_id === undefined);
  const codes = byCode.map((a) => a.code?.trim() ?? '');
  const checked = await verifyCompletionCodes(secret, codes, deps.sessionEnds.sessionsByCompletionCode);
  for (const [i, a] of byCode.entries()) verified.set(a.id, checked[i] ?? { valid: false, reason: 'malformed' });
  const sessionIds = new Set<string>();
  for (const v of verified.values()) if (v.valid && isUuid(v.claims.sid)) sessionIds.add(v.claims.sid);
  for (const a of assignments) if (a.session_id && isUuid(a.session_id)) sessionIds.add(a.session_id);
  const sessions = new Map((await repo.sessions(researchId, [...sessionIds])).map((s) => [s.id, s]));

  /** The session of an assignment and its outcome, or why there is none. */
  const sessionOf = (a: PlatformAssignment) => {
    if (a.session_id !== undefined) {
      // The platform named it (Prolific's submission id came with the session's link).
      const session = a.session_id ? sessions.get(a.session_id) : undefined;
      if (!session || session.project_id !== projectId) return { missing: 'session_missing' as const };
      return { session, outcome: session.outcome };
    }
    const v = verified.get(a.id);
    if (v && !v.valid && v.reason === 'session_missing') return { missing: 'session_missing' as const };
    if (!v?.valid || !isUuid(v.claims.sid)) return { missing: 'forged' as const };
    const { claims } = v;
    if (claims.pid !== projectId || !claims.cids.includes(researchId)) return { missing: 'other_research' as const };
    const session = sessions.get(claims.sid);
    if (!session || session.project_id !== projectId) return { missing: 'session_missing' as const };
    return { session, outcome: claims.outcome };
  };

  const judge = (a: PlatformAssignment): Verdict => {
    const reject = (reason: DecisionReason, sessionId: string | null = null, excluded: string | null = null) =>
      ({ decision: 'reject', reason, session_id: sessionId, excluded_reason: excluded }) as const;
    const found = sessionOf(a);
    if (!('session' in found) || !found.session) return reject(found.missing ?? 'session_missing');
    const { session } = found;
    if (found.outcome !== 'complete') {
      // A session that ended early is not the participant's fault: asked back where the platform allows it.
      if (target.returns) {
        return { decision: 'return', reason: 'not_complete', session_id: session.id, excluded_reason: null };
      }
      return reject('not_complete', session.id);
    }
    const holder = taken.get(session.id);
    if (holder && holder !== a.id) return reject('duplicate', session.id);
    if (session.usable === null || session.usable === undefined) return { decision: 'wait' };
    if (!session.usable) return reject('excluded', session.id, session.excluded_reason ?? null);
    return { decision: 'accept', reason: 'usable', session_id: session.id, excluded_reason: null };
  };

  const summary = { submitted: 0, decided: 0, waiting: 0, sent: 0, failed: 0 };
  const row = (a: PlatformAssignment) => ({
    platform,
    assignment_id: a.id,
    campaign_id: researchId,
    worker_id: a.worker_id,
  });
  // Accepted or rejected on the platform already: recorded as sent, with its decision when there was none of ours.
  const onPlatform: NewDecision[] = [];
  for (const a of assignments) {
    if (a.status === 'submitted') continue;
    const theirs: Decision = a.status === 'accepted' ? 'accept' : a.status === 'returned' ? 'return' : 'reject';
    const ours = decided.get(a.id);
    if (ours) {
      if (ours.status !== 'sent' || ours.decision !== theirs) {
        await repo.decidedOnPlatform(platform, researchId, a.id, theirs, ours.decision);
      }
      continue;
    }
    const v = verified.get(a.id);
    const claimed = a.session_id !== undefined ? a.session_id : v?.valid ? v.claims.sid : null;
    const sessionId = claimed && isUuid(claimed) && sessions.has(claimed) ? claimed : null;
    if (theirs === 'accept' && sessionId && !taken.has(sessionId)) taken.set(sessionId, a.id);
    onPlatform.push({
      ...row(a),
      session_id: sessionId,
      decision: theirs,
      reason: 'decided_on_platform',
      excluded_reason: null,
    });
  }
  await repo.insert(onPlatform, 'sent');

  const fresh: NewDecision[] = [];
  const retry: string[] = [];
  for (const a of assignments) {
    if (a.status !== 'submitted') continue;
    summary.submitted++;
    const ours = decided.get(a.id);
    if (ours) {
      if (ours.status === 'failed' || (ours.status === 'pending_confirmation' && acceptance === 'auto')) {
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
    fresh.push({ ...row(a), ...verdict });
  }
  await repo.insert(fresh);
  summary.decided = fresh.length;

  const toSend = [...retry, ...(acceptance === 'auto' ? fresh.map((d) => d.assignment_id) : [])];
  const result = await send(deps, platform, target, researchId, toSend);
  summary.sent = result.sent;
  summary.failed = result.failed;
  if (result.unavailable) {
    throw new AppError('service_unavailable', { message: jobPlatform(platform).messages.unavailable });
  }
  return summary;
}

/**
 * POST /api/cabinet/campaigns/{id}/{platform}/decisions/confirm/ — sends the decisions named (null: every one
 * waiting for confirmation or failed); decisions sent already are left alone.
 */
export async function confirmDecisions(
  deps: AcceptanceDeps,
  user: User,
  platform: RecruitingPlatform,
  researchId: string,
  assignmentIds: string[] | null,
): Promise<{ sent: number; failed: number }> {
  const job = jobPlatform(platform);
  const { row } = await loadJob(deps, user, job, researchId);
  const wanted = assignmentIds ? new Set(assignmentIds) : null;
  const ids = (await deps.recruiting.all(platform, researchId))
    .filter((d) => d.status !== 'sent' && (!wanted || wanted.has(d.assignment_id)))
    .sort((a, b) => (a.assignment_id < b.assignment_id ? -1 : 1))
    .map((d) => d.assignment_id);
  if (!ids.length) return { sent: 0, failed: 0 };
  return jobSession(deps, user, job, row, async (session) => {
    const result = await send(deps, platform, session.assignments(row), researchId, ids);
    if (result.unavailable) throw new AppError('service_unavailable', { message: job.messages.unavailable });
    return result;
  });
}
