import { z } from 'zod';
import { msg } from './messages.ts';
import * as base from './recruiting-base.ts';
import type { Outcome } from './respondent.ts';

/**
 * A research's Prolific study (issue 33, item 2; docs/decisions/068-prolific.md): made from the research with the
 * user's active Prolific token, its `external_study_url` the research's quota link with Prolific's URL parameters
 * (`PROLIFIC_PID`, `STUDY_ID`, `SESSION_ID`), one completion code per outcome of a session (complete, screened out,
 * quota full) each with the action Prolific takes when a participant submits it, and published, paused, started again
 * and stopped through Prolific's study transitions. The reward is in the workspace's currency (Prolific takes it in
 * its hundredth part, cents or pence); Prolific's service fee is not a single published figure, so the cost shown
 * assumes PROLIFIC_FEE_SHARE, the higher of its published rates.
 */
export const PROLIFIC_FEE_SHARE = 0.428;
export const PROLIFIC_STUDY_LIMITS = {
  ...base.RECRUITING_JOB_LIMITS,
  places: { min: 1, max: 100_000 },
} as const;

/** The actions Prolific runs on a submission with the code of an outcome (its `completion_codes[].actions`). */
export const PROLIFIC_CODE_ACTIONS = ['MANUALLY_REVIEW', 'AUTOMATICALLY_APPROVE', 'REQUEST_RETURN'] as const;
export type ProlificCodeAction = (typeof PROLIFIC_CODE_ACTIONS)[number];
/** A complete session is reviewed or approved at once; it is never asked back. */
export const PROLIFIC_COMPLETE_ACTIONS = ['MANUALLY_REVIEW', 'AUTOMATICALLY_APPROVE'] as const;
/** The devices Prolific offers a study on (`device_compatibility`). */
export const PROLIFIC_DEVICES = ['desktop', 'tablet', 'mobile'] as const;
export type ProlificDevice = (typeof PROLIFIC_DEVICES)[number];
/** The study's transitions, as Emolens names them (Prolific's PUBLISH, PAUSE, START, STOP). */
export const PROLIFIC_ACTIONS = ['publish', 'pause', 'start', 'stop'] as const;

/** Where a participant goes at the end: Prolific's completion page with the code of the outcome. */
export const PROLIFIC_COMPLETE_URL = 'https://app.prolific.com/submissions/complete';

/** What a study of `places` places at `reward` each costs at most, Prolific's fee included. */
export function prolificCost(reward: number, places: number): number {
  return Math.round(reward * places * (1 + PROLIFIC_FEE_SHARE) * 100) / 100;
}

/** Prolific's completion page for a code. */
export function prolificCompletionUrl(code: string): string {
  return `${PROLIFIC_COMPLETE_URL}?cc=${encodeURIComponent(code)}`;
}

const choice = msg('validation.choice');
const otherAction = z.enum(PROLIFIC_CODE_ACTIONS, choice);

/** POST /api/cabinet/campaigns/{id}/prolific/ — the study, as the analyst sets it. */
export const createProlificStudyInput = z.strictObject({
  /** What participants see as the study's name. */
  title: base.jobTitle(255),
  description: z
    .string(msg('validation.required'))
    .trim()
    .min(1, msg('validation.required'))
    .max(10_000, msg('validation.maxChars', { max: 10_000 })),
  /** Per participant, in the workspace's currency, whole cents. */
  reward: base
    .rewardBetween(PROLIFIC_STUDY_LIMITS.reward)
    .refine((r) => Math.abs(r * 100 - Math.round(r * 100)) < 1e-6, msg('hit.cents')),
  /** Places (total_available_places); null: the quota link's quota. */
  places: base.respondentsBetween(PROLIFIC_STUDY_LIMITS.places),
  /** Estimated completion time, minutes. */
  minutes: base.minutesBetween(PROLIFIC_STUDY_LIMITS.minutes),
  /** What Prolific does with a submission of each outcome's code. */
  actions: z
    .strictObject({
      complete: z.enum(PROLIFIC_COMPLETE_ACTIONS, choice).default('MANUALLY_REVIEW'),
      screen_out: otherAction.default('REQUEST_RETURN'),
      quota_full: otherAction.default('REQUEST_RETURN'),
    })
    .prefault({}),
  devices: z
    .array(z.enum(PROLIFIC_DEVICES, choice))
    .min(1, msg('validation.minItems', { min: 1 }))
    .max(PROLIFIC_DEVICES.length, msg('validation.maxItems', { max: PROLIFIC_DEVICES.length }))
    .transform((d) => [...new Set(d)])
    .default(['desktop']),
  /** The study needs a webcam (Prolific's `peripheral_requirements: ["camera"]`); Emolens records one. */
  webcam: z.boolean(msg('validation.invalid')).default(true),
});
export type CreateProlificStudyInput = z.input<typeof createProlificStudyInput>;

const code = z.object({ code: z.string(), action: z.enum(PROLIFIC_CODE_ACTIONS) });
/** The study's completion codes by outcome. */
export type ProlificCodes = Record<Outcome, { code: string; action: ProlificCodeAction }>;

/** GET /api/cabinet/campaigns/{id}/prolific/ — the research's study as Prolific reports it now. */
export const prolificStudyOutput = z.object({
  study: z
    .object({
      study_id: z.string(),
      ...base.recruitingJobFields,
      places: z.number().int(),
      minutes: z.number().int(),
      /** UNPUBLISHED, PUBLISHING, ACTIVE, SCHEDULED, PAUSED, AWAITING REVIEW or COMPLETED, as Prolific last said. */
      status: z.string(),
      completion_codes: z.object({ complete: code, screen_out: code, quota_full: code }),
      devices: z.array(z.enum(PROLIFIC_DEVICES)),
      webcam: z.boolean(),
    })
    .nullable(),
  ...base.recruitingStateFields,
  can: z.object({
    create: z.boolean(),
    publish: z.boolean(),
    pause: z.boolean(),
    start: z.boolean(),
    stop: z.boolean(),
  }),
});
export type ProlificStudyOutput = z.infer<typeof prolificStudyOutput>;
