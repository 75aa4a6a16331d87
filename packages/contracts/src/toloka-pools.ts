import { z } from 'zod';
import { msg, msgBetween } from './messages.ts';
import * as base from './recruiting-base.ts';

/**
 * A research's Toloka pool (issue 14, item 4; spec sections 2, 4, 8): made from the research with the user's active
 * Toloka token, run (opened) and stopped (closed). Toloka's fee on top of the rewards is not published; the cost
 * checked before opening assumes TOLOKA_FEE_SHARE.
 */
export const TOLOKA_FEE_SHARE = 0.3;
export const TOLOKA_POOL_LIMITS = {
  ...base.RECRUITING_JOB_LIMITS,
  overlap: { min: 1, max: 100_000 },
  age: { min: 14, max: 100 },
} as const;

/** What a pool of `overlap` respondents at `reward` USD each costs at most, Toloka's fee included (USD). */
export function tolokaCost(reward: number, overlap: number): number {
  return Math.round(reward * overlap * (1 + TOLOKA_FEE_SHARE) * 100) / 100;
}

/** An age bound of the audience; null: none. */
const age = base.wholeBetween(TOLOKA_POOL_LIMITS.age).nullable().default(null);

/** POST /api/cabinet/campaigns/{id}/toloka/ — the pool, as the analyst sets it. */
export const createTolokaPoolInput = z
  .strictObject({
    /** What Toloka's workers see as the task's name. */
    title: base.jobTitle(255),
    instruction: z
      .string(msg('validation.invalid'))
      .trim()
      .max(5000, msg('validation.maxChars', { max: 5000 }))
      .default(''),
    /** USD per respondent. */
    reward: base.rewardBetween(TOLOKA_POOL_LIMITS.reward),
    /** Respondents wanted; null: the quota link's quota. */
    overlap: base.respondentsBetween(TOLOKA_POOL_LIMITS.overlap),
    /** How long a worker may take, minutes. */
    minutes: base.minutesBetween(TOLOKA_POOL_LIMITS.minutes),
    sex: z.enum(['off', 'man', 'woman'], msg('validation.choice')).default('off'),
    age_min: age,
    age_max: age,
    /** Countries of the workers' profiles (ISO 3166-1 alpha-2); empty: anywhere. */
    countries: z
      .array(
        z
          .string()
          .regex(/^[A-Za-z]{2}$/, msg('validation.invalid'))
          .transform((c) => c.toUpperCase()),
      )
      .max(50, msg('validation.maxItems', { max: 50 }))
      .default([]),
  })
  .refine((p) => p.age_min === null || p.age_max === null || p.age_min <= p.age_max, {
    path: ['age_max'],
    message: msgBetween(TOLOKA_POOL_LIMITS.age),
  });
export type CreateTolokaPoolInput = z.input<typeof createTolokaPoolInput>;
export type TolokaAudience = Pick<z.output<typeof createTolokaPoolInput>, 'sex' | 'age_min' | 'age_max' | 'countries'>;

/** GET /api/cabinet/campaigns/{id}/toloka/ — the research's pool as Toloka reports it now. */
export const tolokaPoolOutput = z.object({
  pool: z
    .object({
      pool_id: z.string(),
      toloka_project_id: z.string(),
      ...base.recruitingJobFields,
      overlap: z.number().int(),
      audience: z.object({
        sex: z.enum(['off', 'man', 'woman']),
        age_min: z.number().nullable(),
        age_max: z.number().nullable(),
        countries: z.array(z.string()),
      }),
      /** OPEN, CLOSED, ARCHIVED or LOCKED, as Toloka last said. */
      status: z.string(),
      last_close_reason: z.string().nullable(),
    })
    .nullable(),
  ...base.recruitingStateFields,
  can: z.object({ create: z.boolean(), open: z.boolean(), close: z.boolean() }),
});
export type TolokaPoolOutput = z.infer<typeof tolokaPoolOutput>;
