import { z } from 'zod';
import { msg } from './messages.ts';
import { PRICING } from './pricing.ts';

/** Spec section 9: a session is a 5-minute interview interval — the unit licences are sold in (`PRICING`). */
export const SESSION_SECONDS = PRICING.sessionMinutes * 60;

export const ESTIMATE_TARGETS = ['scenario', 'project_accessor_link'] as const;
export type EstimateTarget = (typeof ESTIMATE_TARGETS)[number];

/**
 * POST /api/entity_session/batch-estimate-count/ — how many sessions the fieldwork of scenarios or
 * quota links will use. `respondents` overrides the quota stored with the scenario or link.
 */
export const batchEstimateInput = z.strictObject({
  items: z
    .array(
      z.strictObject({
        type: z.enum(ESTIMATE_TARGETS),
        id: z.string().min(1).max(64),
        respondents: z
          .number()
          .int(msg('validation.wholeNumber'))
          .min(0, msg('validation.nonNegative'))
          .max(1_000_000)
          .optional(),
      }),
    )
    .min(1)
    .max(200),
});
export type BatchEstimateInput = z.input<typeof batchEstimateInput>;

export const sessionEstimateOutput = z.object({
  type: z.enum(ESTIMATE_TARGETS),
  id: z.string(),
  /** The respondents counted: the override, else the link's or scenario's quota; null when neither is set. */
  respondents: z.number().nullable(),
  /** One interview: calibration plus everything the scenario shows, seconds. */
  interview_seconds: z.number(),
  sessions_per_respondent: z.number(),
  /** respondents × sessions per respondent; null without a respondent count. */
  sessions: z.number().nullable(),
  /** Researches whose length is not known yet (a video still being probed, nothing uploaded). */
  unknown_durations: z.array(z.object({ id: z.string(), title: z.string() })),
});
export type SessionEstimate = z.infer<typeof sessionEstimateOutput>;

export const batchEstimateOutput = z.object({
  items: z.array(sessionEstimateOutput),
  /** Sum over the items that have a respondent count. */
  total_sessions: z.number(),
});
export type BatchEstimate = z.infer<typeof batchEstimateOutput>;

/** Sessions one interview of `seconds` uses: every started 5 minutes count, and at least one. */
export function sessionsPerInterview(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / SESSION_SECONDS));
}
