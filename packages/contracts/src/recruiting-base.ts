import { z } from 'zod';
import { msg, msgBetween } from './messages.ts';

/**
 * What every recruiting platform with a pool or HIT shares (issue 29, item 3): the platforms' names, their
 * environments, the fields of a "make it" form and of the state answer. Each platform's own contract
 * (`toloka-pools.ts`, `mturk-hits.ts`, `prolific-studies.ts`) adds its particular fields; `recruiting-platforms.ts` is the table of them.
 */
export const RECRUITING_PLATFORMS = ['toloka', 'mturk', 'prolific'] as const;
export type RecruitingPlatform = (typeof RECRUITING_PLATFORMS)[number];
export const RECRUITING_ENVIRONMENTS = ['production', 'sandbox'] as const;
export type RecruitingEnvironment = (typeof RECRUITING_ENVIRONMENTS)[number];

/** A platform's numeric bounds of the "make it" form. */
export type Limits = { min: number; max: number };

/** The bounds every platform's form shares: USD per respondent and the minutes a worker may take. */
export const RECRUITING_JOB_LIMITS = {
  reward: { min: 0.01, max: 100 },
  minutes: { min: 5, max: 600 },
} as const;

/** A whole number within `limits`. */
export const wholeBetween = (limits: Limits) =>
  z
    .number(msg('validation.number'))
    .int(msg('validation.wholeNumber'))
    .min(limits.min, msgBetween(limits))
    .max(limits.max, msgBetween(limits));

/** What workers see as the task's name: required, at most `max` characters. */
export const jobTitle = (max: number) =>
  z
    .string(msg('validation.required'))
    .trim()
    .min(1, msg('validation.required'))
    .max(max, msg('validation.maxChars', { max }));

/** USD per respondent, within `limits`. */
export const rewardBetween = (limits: Limits) =>
  z.number(msg('validation.number')).min(limits.min, msgBetween(limits)).max(limits.max, msgBetween(limits));

/** Respondents wanted; null: the quota link's quota. */
export const respondentsBetween = (limits: Limits) => wholeBetween(limits).nullable().default(null);

/** How long a worker may take, minutes. */
export const minutesBetween = (limits: Limits) => wholeBetween(limits).default(60);

/** The fields of a pool or HIT that every platform has. */
export const recruitingJobFields = {
  environment: z.enum(RECRUITING_ENVIRONMENTS),
  title: z.string(),
  /** USD per respondent. */
  reward: z.number(),
  /** The platform's status, as it last said. */
  status: z.string(),
  /** What it costs at most: rewards for every respondent plus the platform's fee (see `RECRUITING_PLATFORM_CONTRACTS[p].cost`). */
  cost: z.number(),
  created_at: z.string(),
};

/** The fields of GET /api/cabinet/campaigns/{id}/{platform}/ that every platform has, besides the pool or HIT and `can`. */
export const recruitingStateFields = {
  /** The requester's balance (USD), when the platform answered. */
  balance: z.number().nullable(),
  /** The token the pool or HIT uses (or would use): its description and environment; null: none active. */
  token: z.object({ description: z.string(), environment: z.enum(RECRUITING_ENVIRONMENTS) }).nullable(),
  /** The quota link respondents are sent to; null: the research has none yet. */
  quota_link: z.string().nullable(),
  quota: z.number().int().nullable(),
  /** Why the pool or HIT cannot be made (or run) now (message keys); empty when it can. */
  problems: z.array(z.string()),
  /** The platform could not be reached for the current state. */
  offline: z.boolean(),
};
