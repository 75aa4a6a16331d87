import { z } from 'zod';

/**
 * The shapes of Prolific's API that Emolens sends and reads (sources at the top of client.ts). Answers are read
 * leniently (`z.object` keeps going past fields Emolens does not use); what is sent is typed exactly.
 */
export const PROLIFIC_STUDY_STATUSES = [
  'UNPUBLISHED',
  'PUBLISHING',
  'ACTIVE',
  'SCHEDULED',
  'PAUSED',
  'AWAITING REVIEW',
  'COMPLETED',
] as const;
/** The transitions of a study (POST /api/v1/studies/{id}/transition/ `{ action }`). */
export const PROLIFIC_STUDY_TRANSITIONS = ['PUBLISH', 'PAUSE', 'START', 'STOP'] as const;
export type ProlificStudyTransition = (typeof PROLIFIC_STUDY_TRANSITIONS)[number];
/** A submission's statuses; Prolific also shows a brief PROCESSING, read as any other string. */
export const PROLIFIC_SUBMISSION_STATUSES = [
  'ACTIVE',
  'AWAITING REVIEW',
  'APPROVED',
  'REJECTED',
  'RETURNED',
  'TIMED-OUT',
  'PARTIALLY APPROVED',
  'SCREENED OUT',
] as const;
/** Why a submission is rejected (`rejection_category`, required with REJECT). */
export const PROLIFIC_REJECTION_CATEGORIES = [
  'TOO_QUICKLY',
  'TOO_SLOWLY',
  'FAILED_INSTRUCTIONS',
  'INCOMP_LONGITUDINAL',
  'FAILED_CHECK',
  'LOW_EFFORT',
  'MALINGERING',
  'NO_CODE',
  'BAD_CODE',
  'NO_DATA',
  'UNSUPP_DEVICE',
  'OTHER',
] as const;
export type ProlificRejectionCategory = (typeof PROLIFIC_REJECTION_CATEGORIES)[number];
/** A rejection's message is at least this long (Prolific refuses shorter ones). */
export const PROLIFIC_REJECTION_MIN_CHARS = 100;
/** The code types of `completion_codes` (Prolific's enumeration). */
export const PROLIFIC_CODE_TYPES = [
  'COMPLETED',
  'FAILED_ATTENTION_CHECK',
  'FOLLOW_UP_STUDY',
  'GIVE_BONUS',
  'INCOMPATIBLE_DEVICE',
  'NO_CONSENT',
  'OTHER',
  'FIXED_SCREENOUT',
] as const;

export const UserSchema = z.object({ id: z.string(), email: z.string().optional() });
export type ProlificUser = z.infer<typeof UserSchema>;

const action = z.object({ action: z.string(), return_reason: z.string().optional() });
const completionCode = z.object({
  code: z.string(),
  code_type: z.string(),
  actor: z.string().optional(),
  actions: z.array(action),
});

export const StudySchema = z.object({
  id: z.string(),
  name: z.string(),
  internal_name: z.string().nullish(),
  status: z.string(),
  external_study_url: z.string().nullish(),
  total_available_places: z.number().int(),
  places_taken: z.number().int().nullish(),
  reward: z.number(),
  estimated_completion_time: z.number(),
  completion_codes: z.array(completionCode).nullish(),
  device_compatibility: z.array(z.string()).nullish(),
  peripheral_requirements: z.array(z.string()).nullish(),
});
export type ProlificStudy = z.infer<typeof StudySchema>;

/** POST /api/v1/studies/ — a draft study. */
export interface ProlificStudyInput {
  name: string;
  internal_name: string;
  description: string;
  external_study_url: string;
  prolific_id_option: 'url_parameters';
  completion_codes: {
    code: string;
    code_type: (typeof PROLIFIC_CODE_TYPES)[number];
    actor: 'participant';
    actions: (
      | { action: 'MANUALLY_REVIEW' | 'AUTOMATICALLY_APPROVE' }
      | { action: 'REQUEST_RETURN'; return_reason: string }
    )[];
  }[];
  total_available_places: number;
  /** Minutes. */
  estimated_completion_time: number;
  /** The hundredth part of the workspace's currency. */
  reward: number;
  device_compatibility: string[];
  peripheral_requirements: string[];
}

export const SubmissionSchema = z.object({
  id: z.string(),
  participant_id: z.string().optional(),
  participant: z.string().optional(),
  status: z.string(),
  study_code: z.string().nullish(),
  entered_code: z.string().nullish(),
  started_at: z.string().nullish(),
  completed_at: z.string().nullish(),
  return_requested: z.string().nullish(),
});
export type ProlificSubmission = z.infer<typeof SubmissionSchema>;

export const SubmissionPageSchema = z.object({
  results: z.array(SubmissionSchema),
  _links: z.object({ next: z.object({ href: z.string().nullish() }).nullish() }).nullish(),
  meta: z.object({ count: z.number().int().nullish() }).nullish(),
});

export const SubmissionTransitionSchema = z.object({ id: z.string(), status: z.string() });
/** The answer to a return request: its fields may each be null (as documented). */
export const ReturnRequestSchema = z.object({
  id: z.string().nullish(),
  status: z.string().nullish(),
  return_requested: z.string().nullish(),
});

/**
 * Prolific's error body: `{ error: { status, error_code, title, detail, additional_information, ... } }` where
 * `detail` is a text or an object of fields and their messages.
 */
export const ErrorBodySchema = z.object({
  error: z.object({
    status: z.number().int().optional(),
    error_code: z.number().int().optional(),
    title: z.string().optional(),
    detail: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
    additional_information: z.string().optional(),
  }),
});
