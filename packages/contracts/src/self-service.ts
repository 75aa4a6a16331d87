import { z } from 'zod';
import { LANGUAGES } from './languages.ts';
import { msg, msgBetween } from './messages.ts';
import { categoriesSchema } from './researches.ts';

/**
 * Self-service video-ad tests with moderation (issue 15; spec sections 1, 2, 4, 5, 9). A customer makes a test in a
 * few steps (video, categories, audience, respondents, the standard video-ad survey), sends it to moderation (from
 * then on it cannot be edited), staff approve it or return it with a comment, and the customer starts it: the
 * session count is frozen and charged, the project, research, scenario, survey and quota link underneath start
 * collecting, and the report is built when the quota is filled with usable respondents.
 */
export const SELF_SERVICE_STATES = [
  'draft',
  'moderation',
  'moderation_ok',
  'collection',
  'report_processing',
  'report_completed',
  'completed',
  'archived',
] as const;
export type SelfServiceState = (typeof SELF_SERVICE_STATES)[number];

/** Spec sections 5 and 9: at least 100 respondents. */
export const SELF_SERVICE_LIMITS = {
  respondents: { min: 100, max: 10_000 },
  age: { min: 14, max: 100 },
  regions: 50,
  titleChars: 255,
  commentChars: 2000,
} as const;

const age = z
  .number(msg('validation.number'))
  .int(msg('validation.wholeNumber'))
  .min(SELF_SERVICE_LIMITS.age.min, msgBetween(SELF_SERVICE_LIMITS.age))
  .max(SELF_SERVICE_LIMITS.age.max, msgBetween(SELF_SERVICE_LIMITS.age))
  .nullable();

export const selfServiceAudience = z
  .strictObject({
    sex: z.enum(['off', 'man', 'woman'], msg('validation.choice')),
    age_min: age,
    age_max: age,
    /** Countries (ISO 3166-1 alpha-2); empty: anywhere. */
    regions: z
      .array(
        z
          .string()
          .regex(/^[A-Za-z]{2}$/, msg('validation.invalid'))
          .transform((c) => c.toUpperCase()),
      )
      .max(SELF_SERVICE_LIMITS.regions, msg('validation.maxItems', { max: SELF_SERVICE_LIMITS.regions })),
  })
  .refine((a) => a.age_min === null || a.age_max === null || a.age_min <= a.age_max, {
    path: ['age_max'],
    message: msgBetween(SELF_SERVICE_LIMITS.age),
  });
export type SelfServiceAudience = z.infer<typeof selfServiceAudience>;

const title = z
  .string(msg('validation.required'))
  .trim()
  .min(1, msg('validation.required'))
  .max(SELF_SERVICE_LIMITS.titleChars, msg('validation.maxChars', { max: SELF_SERVICE_LIMITS.titleChars }));

/** POST /api/cabinet/self-service/ — a new draft: the project and video research underneath, the survey template. */
export const createSelfServiceInput = z.strictObject({
  title,
  /** The respondents' language (the survey's and the respondent pages'). */
  language: z.enum(LANGUAGES, msg('validation.choice')).default('ru'),
});
export type CreateSelfServiceInput = z.input<typeof createSelfServiceInput>;

/** PATCH /api/cabinet/self-service/{id}/ — a draft's fields; those not named keep their value. */
export const updateSelfServiceInput = z.strictObject({
  title: title.optional(),
  respondents: z
    .number(msg('validation.number'))
    .int(msg('validation.wholeNumber'))
    .min(SELF_SERVICE_LIMITS.respondents.min, msg('selfservice.minRespondents'))
    .max(SELF_SERVICE_LIMITS.respondents.max, msg('validation.atMost', { max: SELF_SERVICE_LIMITS.respondents.max }))
    .optional(),
  audience: selfServiceAudience.optional(),
  categories: categoriesSchema.partial().optional(),
  /** The version edited (optimistic concurrency): a test changed meanwhile answers 409. */
  updated_at: z.string(msg('validation.required')).datetime({ offset: true }),
});
export type UpdateSelfServiceInput = z.input<typeof updateSelfServiceInput>;

/** POST /api/cabinet/self-service/{id}/moderation/ (staff) — approve, or return to the customer with a comment. */
export const moderateSelfServiceInput = z
  .strictObject({
    decision: z.enum(['approve', 'return'], msg('validation.choice')),
    comment: z
      .string(msg('validation.invalid'))
      .trim()
      .max(SELF_SERVICE_LIMITS.commentChars, msg('validation.maxChars', { max: SELF_SERVICE_LIMITS.commentChars }))
      .default(''),
  })
  .refine((m) => m.decision === 'approve' || m.comment.length > 0, {
    path: ['comment'],
    message: msg('selfservice.commentRequired'),
  });
export type ModerateSelfServiceInput = z.input<typeof moderateSelfServiceInput>;

export const selfServiceListQuery = z.strictObject({
  /** `mine` (default): the user's tests; staff: `moderation` (every test waiting for moderation) or `all`. */
  scope: z.enum(['mine', 'moderation', 'all']).default('mine'),
});

const person = z.object({ public_user_id: z.string(), username: z.string(), name: z.string() });

export const selfServiceSummary = z.object({
  id: z.string(),
  title: z.string(),
  state: z.enum(SELF_SERVICE_STATES),
  /** Usable respondents collected, of those required. */
  collected: z.number().int(),
  required: z.number().int(),
  /** The price in sessions (frozen at start; before, the estimate; null while the video's length is not known). */
  sessions: z.number().int().nullable(),
  owner: person,
  created_at: z.string(),
  updated_at: z.string(),
  submitted_at: z.string().nullable(),
  started_at: z.string().nullable(),
});
export type SelfServiceSummary = z.infer<typeof selfServiceSummary>;

export const selfServiceListOutput = z.object({
  items: z.array(selfServiceSummary),
  /** `create`: the user's role runs self-service tests; `moderate`: staff (the moderation queue). */
  can: z.object({ create: z.boolean(), moderate: z.boolean() }),
});
export type SelfServiceList = z.infer<typeof selfServiceListOutput>;

export const selfServiceTest = selfServiceSummary.extend({
  language: z.enum(LANGUAGES),
  audience: z.object({
    sex: z.enum(['off', 'man', 'woman']),
    age_min: z.number().nullable(),
    age_max: z.number().nullable(),
    regions: z.array(z.string()),
  }),
  categories: categoriesSchema,
  /** The research underneath (its video is uploaded to it while the test is a draft) and its project. */
  campaign_id: z.string(),
  project_id: z.string(),
  video: z
    .object({
      id: z.string(),
      filename: z.string(),
      status: z.string(),
      duration_seconds: z.number().nullable(),
    })
    .nullable(),
  survey_id: z.string(),
  /** Empty when the survey is fully filled for the respondents' language and saved. */
  survey_problems: z.array(z.string()),
  /** Sessions one interview takes (calibration + video + survey allowance), once the video's length is known. */
  sessions_per_interview: z.number().int().nullable(),
  /** The owner's licence balance (null: not metered). */
  balance: z.number().int().nullable(),
  /** The last comment of the moderators (shown on a returned draft). */
  moderation_comment: z.string().nullable(),
  report_id: z.string().nullable(),
  /** The quota link respondents take part through, once the test is started. */
  quota_link: z.string().nullable(),
  history: z.array(
    z.object({
      state: z.enum(SELF_SERVICE_STATES),
      actor: z.string().nullable(),
      comment: z.string().nullable(),
      at: z.string(),
    }),
  ),
  /** Why it cannot be sent to moderation or started now (message keys); empty when it can. */
  problems: z.array(z.string()),
  can: z.object({
    edit: z.boolean(),
    submit: z.boolean(),
    moderate: z.boolean(),
    start: z.boolean(),
    complete: z.boolean(),
    archive: z.boolean(),
    delete: z.boolean(),
  }),
});
export type SelfServiceTest = z.infer<typeof selfServiceTest>;
