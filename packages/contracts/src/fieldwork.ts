import { z } from 'zod';
import { ANALYSIS_SITES } from './analysis-site.ts';
import { PLATFORMS, PROJECT_STATUSES } from './projects.ts';
import { QUOTA_STATES, RESPONDENT_SESSION_STATUSES, RESPONDENT_STEPS } from './respondent.ts';
import { CALIBRATION_CHECK_VERDICTS } from './validation-settings.ts';

// Fieldwork statistics: /quote/{projectId} (public, no personal data) and the cabinet.

export const fieldworkCountsSchema = z.object({
  quota: z.number().nullable(),
  completes: z.number(),
  pending: z.number(),
  screened_out: z.number(),
  quota_full: z.number(),
  dropped_out: z.number(),
  /** Sessions ended before the content because the calibration failed its check twice (decision 050). */
  calibration_failed: z.number(),
  /** Privacy mode: sessions stopped because the device analysed too few frames a second (decision 064). */
  device_too_slow: z.number(),
  in_progress: z.number(),
});
export type FieldworkCounts = z.infer<typeof fieldworkCountsSchema>;
/** The counts of `FieldworkCounts` (all but the quota), in the order the cabinet shows them. */
export const FIELDWORK_COUNT_KEYS = [
  'completes',
  'pending',
  'screened_out',
  'quota_full',
  'dropped_out',
  'calibration_failed',
  'device_too_slow',
  'in_progress',
] as const satisfies readonly Exclude<keyof FieldworkCounts, 'quota'>[];

/** GET /r/quota/{projectId} and GET /api/cabinet/projects/{id}/fieldwork/ */
export const quotaStatisticsOutput = z.object({
  project: z.object({ id: z.string(), title: z.string(), status: z.enum(PROJECT_STATUSES) }),
  total: fieldworkCountsSchema,
  scenarios: z.array(
    z.object({
      id: z.string(),
      order_number: z.number(),
      description: z.string(),
      counts: fieldworkCountsSchema,
      links: z.array(z.object({ id: z.string(), counts: fieldworkCountsSchema })),
    }),
  ),
  /** Drop-outs by the step the respondent left at. */
  dropped_at: z.record(z.string(), z.number()),
});
export type QuotaStatistics = z.infer<typeof quotaStatisticsOutput>;

/** GET /api/cabinet/projects/{id}/respondent-sessions/ and …/campaigns/{id}/respondent-sessions/ */
export const respondentSessionListQuery = z.strictObject({
  status: z.enum(RESPONDENT_SESSION_STATUSES).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export const respondentSessionOutput = z.object({
  id: z.string(),
  link_id: z.string(),
  scenario_id: z.string(),
  participant_id: z.string().nullable(),
  platform: z.enum(PLATFORMS),
  status: z.enum(RESPONDENT_SESSION_STATUSES),
  step: z.enum(RESPONDENT_STEPS),
  quota_state: z.enum(QUOTA_STATES).nullable(),
  /** The calibration check before the content (decision 050): passed, flagged, failed, not_checked; null: none. */
  calibration_check: z.enum(CALIBRATION_CHECK_VERDICTS).nullable(),
  /** Where the face analysis ran (privacy mode, decision 064), and whether a device session fell back to video. */
  analysis_site: z.enum(ANALYSIS_SITES),
  fell_back: z.boolean(),
  preview: z.boolean(),
  started_at: z.string(),
  last_seen_at: z.string(),
  ended_at: z.string().nullable(),
  segments: z.array(z.object({ segment: z.number(), chunks: z.number(), bytes: z.number(), url: z.string() })),
});
export type RespondentSessionItem = z.infer<typeof respondentSessionOutput>;
export const respondentSessionListOutput = z.object({
  items: z.array(respondentSessionOutput),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
