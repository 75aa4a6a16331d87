import { z } from 'zod';

/**
 * What happened in the pipeline (decision 027): collect → process → report, each stage publishing its facts and the
 * next subscribing. A payload says what happened, never what to do next: the subscribers decide that. Ids, not rows:
 * a subscriber reads the current state (a fact may be delivered late, or twice).
 */
const charge = z.object({
  userId: z.uuid(),
  charged: z.number(),
  unpaid: z.number(),
  balance: z.number(),
});

export const EVENTS = {
  /** A respondent's session was completed (not a preview): its recordings wait for processing. */
  'session.completed': z.object({ session_id: z.uuid() }),
  /**
   * A respondent's session (not a preview) ended before it was completed: screened out by the screener, or turned
   * away because the quota was full when it started. The session's status says which.
   */
  'session.ended': z.object({ session_id: z.uuid() }),
  /**
   * One video process's result was written (`done`, or `detection_error` when no face was found). `counted`: the
   * respondent took a quota slot now, and the interview's charge to the project's owner (null: not metered).
   */
  'recording.processed': z.object({
    process_id: z.uuid(),
    generation: z.number().int().min(0),
    session_id: z.uuid(),
    status: z.enum(['done', 'detection_error']),
    counted: z.object({ project_id: z.uuid(), charge: charge.nullable() }).nullable(),
  }),
  /** A video process failed for good (no retry follows). */
  'recording.failed': z.object({ process_id: z.uuid(), generation: z.number().int().min(0) }),
  /** One generation of a report was built and written. */
  'report.built': z.object({ report_id: z.uuid(), generation: z.number().int().min(1) }),
  /** One generation of a report failed for good (nobody to count, or its last attempt failed). */
  'report.failed': z.object({ report_id: z.uuid(), generation: z.number().int().min(1) }),
  /** A self-service test moved to another state (issue 15; the state it is in now). */
  'self_service.state_changed': z.object({ test_id: z.uuid(), state: z.string(), changed_at: z.iso.datetime() }),
} as const;

export type EventName = keyof typeof EVENTS;
export type EventPayload<E extends EventName> = z.infer<(typeof EVENTS)[E]>;
