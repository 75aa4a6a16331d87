import { z } from 'zod';
import { msg } from './messages.ts';
import * as base from './recruiting-base.ts';

/**
 * A research's Amazon Mechanical Turk HIT (issue 14, item 6): an ExternalQuestion HIT whose page is the research's
 * quota link, made with the user's active Amazon token in its environment (sandbox or production), and expired to
 * stop it. MTurk's fee (https://www.mturk.com/pricing): 20% of the reward, a further 20% for a HIT of 10 or more
 * assignments, at least $0.01 per assignment. The cost checked before making the HIT is `mturkCost`.
 */
export const MTURK_FEE = { share: 0.2, manyShare: 0.2, manyFrom: 10, minimum: 0.01 } as const;
export const MTURK_HIT_LIMITS = {
  ...base.RECRUITING_JOB_LIMITS,
  assignments: { min: 1, max: 100_000 },
  days: { min: 1, max: 365 },
} as const;

/** What a HIT of `assignments` assignments at `reward` USD each costs at most, MTurk's fee included (USD). */
export function mturkCost(reward: number, assignments: number): number {
  const share = MTURK_FEE.share + (assignments >= MTURK_FEE.manyFrom ? MTURK_FEE.manyShare : 0);
  const fee = Math.max(Math.round(reward * share * 100) / 100, MTURK_FEE.minimum);
  return Math.round((reward + fee) * assignments * 100) / 100;
}

/** POST /api/cabinet/campaigns/{id}/mturk/ — the HIT, as the analyst sets it. */
export const createMturkHitInput = z.strictObject({
  /** What workers see as the HIT's name (MTurk allows 128 characters). */
  title: base.jobTitle(128),
  description: z
    .string(msg('validation.required'))
    .trim()
    .min(1, msg('validation.required'))
    .max(2000, msg('validation.maxChars', { max: 2000 })),
  /** Comma-separated search words. */
  keywords: z
    .string(msg('validation.invalid'))
    .trim()
    .max(1000, msg('validation.maxChars', { max: 1000 }))
    .default(''),
  /** USD per assignment, whole cents. */
  reward: base
    .rewardBetween(MTURK_HIT_LIMITS.reward)
    .refine((r) => Math.abs(r * 100 - Math.round(r * 100)) < 1e-6, msg('hit.cents')),
  /** Respondents wanted; null: the quota link's quota. */
  max_assignments: base.respondentsBetween(MTURK_HIT_LIMITS.assignments),
  /** How long a worker may take, minutes. */
  minutes: base.minutesBetween(MTURK_HIT_LIMITS.minutes),
  /** How long the HIT is offered, days. */
  days: base.wholeBetween(MTURK_HIT_LIMITS.days).default(7),
});
export type CreateMturkHitInput = z.input<typeof createMturkHitInput>;

/** GET /api/cabinet/campaigns/{id}/mturk/ — the research's HIT as MTurk reports it now. */
export const mturkHitOutput = z.object({
  hit: z
    .object({
      hit_id: z.string(),
      /** Workers find the HIT by its group; the preview page shows it. */
      group_id: z.string().nullable(),
      preview_url: z.string().nullable(),
      ...base.recruitingJobFields,
      max_assignments: z.number().int(),
      /** Assignable, Unassignable, Reviewable, Reviewing or Disposed, as MTurk last said. */
      status: z.string(),
      /** When MTurk stops offering it. */
      expires_at: z.string().nullable(),
      expired: z.boolean(),
      /**
       * MTurk's counts: still offered, taken and not submitted yet (pending), approved or rejected (completed); and
       * submitted, waiting for a decision (the rest of the HIT's assignments).
       */
      assignments: z.object({
        available: z.number().int().nullable(),
        pending: z.number().int().nullable(),
        submitted: z.number().int().nullable(),
        completed: z.number().int().nullable(),
      }),
    })
    .nullable(),
  ...base.recruitingStateFields,
  can: z.object({ create: z.boolean(), expire: z.boolean() }),
});
export type MturkHitOutput = z.infer<typeof mturkHitOutput>;
