import { z } from 'zod';
import { msg } from './messages.ts';

/**
 * Acceptance of the assignments of a research's Toloka pool or MTurk HIT (issue 14, items 5 and 6): each submitted
 * completion code is checked against the signed codes; the assignment of a usable, processed session is accepted,
 * others are rejected with a reason. In 'confirm' mode the decisions wait for the analyst; in 'auto' mode they are
 * sent to the platform at once. The same operations serve both platforms under `…/toloka/` and `…/mturk/`.
 */
export const ACCEPTANCE_MODES = ['confirm', 'auto'] as const;
export type AcceptanceMode = (typeof ACCEPTANCE_MODES)[number];
/**
 * Why an assignment was decided so: `usable` (accepted), `forged` (no valid signed code), `other_research` (the code
 * of another research or project), `duplicate` (the session's code already used by another assignment), `excluded`
 * (the recording was excluded by the quality rules), `not_complete` (the respondent did not finish: screened out or
 * over quota), `session_missing` (the code's session is gone), `decided_on_platform` (accepted or rejected in Toloka
 * or MTurk by someone else).
 */
export const DECISION_REASONS = [
  'usable',
  'forged',
  'other_research',
  'duplicate',
  'excluded',
  'not_complete',
  'session_missing',
  'decided_on_platform',
] as const;
export type DecisionReason = (typeof DECISION_REASONS)[number];
/** What is decided on a submitted assignment; `return` only where the platform asks for returns (Prolific). */
export const ASSIGNMENT_DECISIONS = ['accept', 'reject', 'return'] as const;
export type AssignmentDecisionKind = (typeof ASSIGNMENT_DECISIONS)[number];
export const DECISION_STATUSES = ['pending_confirmation', 'sent', 'failed'] as const;

/** PUT /api/cabinet/campaigns/{id}/{toloka|mturk}/acceptance/ */
export const acceptanceInput = z.strictObject({
  acceptance: z.enum(ACCEPTANCE_MODES, msg('validation.choice')),
});

/** POST /api/cabinet/campaigns/{id}/{toloka|mturk}/decisions/confirm/ — the decisions to send; null: every one waiting. */
export const confirmDecisionsInput = z.strictObject({
  assignment_ids: z
    .array(
      z.string(msg('validation.invalid')).trim().min(1, msg('validation.required')).max(100, msg('validation.invalid')),
    )
    .max(1000, msg('validation.maxItems', { max: 1000 }))
    .nullable()
    .default(null),
});
export type ConfirmDecisionsInput = z.input<typeof confirmDecisionsInput>;

export const assignmentDecision = z.object({
  assignment_id: z.string(),
  /** The platform's worker id. */
  worker_id: z.string(),
  /** The session of the code (when its signature is valid). */
  session_id: z.string().nullable(),
  /** `return`: the participant is asked to return the submission (Prolific, for a session that did not complete). */
  decision: z.enum(ASSIGNMENT_DECISIONS),
  reason: z.enum(DECISION_REASONS),
  /** For `excluded`: the engine's reason (processing.excluded.*). */
  excluded_reason: z.string().nullable(),
  status: z.enum(DECISION_STATUSES),
  /** Why sending failed, as the platform (or the network) said. */
  error: z.string().nullable(),
  decided_at: z.string(),
  sent_at: z.string().nullable(),
});
export type AssignmentDecision = z.infer<typeof assignmentDecision>;

/** GET /api/cabinet/campaigns/{id}/{toloka|mturk}/decisions/ — newest first (at most 1000), with counts over all. */
export const assignmentDecisionsOutput = z.object({
  acceptance: z.enum(ACCEPTANCE_MODES),
  items: z.array(assignmentDecision),
  counts: z.object({
    accept: z.number().int(),
    reject: z.number().int(),
    return: z.number().int(),
    pending_confirmation: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
  }),
  /** What the review just run found (only in the answer to POST …/review/). */
  review: z
    .object({
      /** Submitted assignments read from the platform. */
      submitted: z.number().int(),
      /** Newly decided. */
      decided: z.number().int(),
      /** Codes of sessions not processed yet: reviewed again next time. */
      waiting: z.number().int(),
      sent: z.number().int(),
      failed: z.number().int(),
    })
    .nullable(),
  can: z.object({ review: z.boolean(), confirm: z.boolean(), change: z.boolean() }),
});
export type AssignmentDecisionsOutput = z.infer<typeof assignmentDecisionsOutput>;
