import { z } from 'zod';

const redirect = z
  .url({ protocol: /^https?$/, error: 'Enter a link starting with http:// or https://' })
  .or(z.literal(''));
const uuidList = z.array(z.string().max(64)).max(200);

/** Where a respondent is sent at the end (spec section 3: redirect links), per outcome. */
export const redirectLinksSchema = z.strictObject({
  complete: redirect.default(''),
  quota_full: redirect.default(''),
  screen_out: redirect.default(''),
});

const scenarioFields = {
  description: z.string().trim().max(2000, 'At most 2000 characters'),
  campaign_ids: uuidList,
  is_random_order: z.boolean(),
  is_use_face_checker: z.boolean(),
  screener_survey_id: z.string().max(64).nullable(),
  embedded_survey_id: z.string().max(64).nullable(),
  redirect_links: redirectLinksSchema,
  quota: z.number().int('Enter a whole number').min(0, 'Must be 0 or more').max(1_000_000).nullable(),
  is_paid: z.boolean(),
};

/** POST /api/cabinet/projects/{id}/scenarios/ */
export const createScenarioInput = z.strictObject({
  description: scenarioFields.description.default(''),
  campaign_ids: scenarioFields.campaign_ids.default([]),
  is_random_order: scenarioFields.is_random_order.default(false),
  is_use_face_checker: scenarioFields.is_use_face_checker.default(true),
  screener_survey_id: scenarioFields.screener_survey_id.default(null),
  embedded_survey_id: scenarioFields.embedded_survey_id.default(null),
  redirect_links: redirectLinksSchema.default({ complete: '', quota_full: '', screen_out: '' }),
  quota: scenarioFields.quota.default(null),
  is_paid: scenarioFields.is_paid.default(false),
});

/** PATCH /api/cabinet/scenarios/{id}/ */
export const updateScenarioInput = z
  .strictObject(scenarioFields)
  .partial()
  .extend({ updated_at: z.iso.datetime({ offset: true, error: 'updated_at is required' }) });

/** POST /api/cabinet/projects/{id}/scenarios/reorder/ — every scenario of the project, in the new order. */
export const reorderScenariosInput = z.strictObject({ order: uuidList.min(1) });

export const scenarioOutput = z.object({
  id: z.string(),
  project_id: z.string(),
  order_number: z.number(),
  description: z.string(),
  campaigns: z.array(z.object({ id: z.string(), title: z.string(), content_type: z.string() })),
  is_random_order: z.boolean(),
  is_use_face_checker: z.boolean(),
  screener_survey_id: z.string().nullable(),
  embedded_survey_id: z.string().nullable(),
  redirect_links: redirectLinksSchema,
  quota: z.number().nullable(),
  is_paid: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  /** What the current user may do with it now: edit, duplicate and delete it. */
  can: z.object({ edit: z.boolean() }),
});
export type Scenario = z.infer<typeof scenarioOutput>;
export const scenarioListOutput = z.object({ items: z.array(scenarioOutput) });

/** Project accessor links (quota links) of spec sections 3 and 7. */
export const createAccessorLinkInput = z.strictObject({
  quota_size: z.number().int('Enter a whole number').min(1, 'At least 1').max(1_000_000).nullable().default(null),
  is_use_face_checker: z.boolean().default(true),
  is_request_payment_data: z.boolean().default(false),
  is_screener_first: z.boolean().default(false),
});
export const setQuotaSizeInput = z.strictObject({
  quota_size: z.number().int('Enter a whole number').min(1, 'At least 1').max(1_000_000).nullable(),
});
export const setFaceCheckerInput = z.strictObject({ is_use_face_checker: z.boolean() });
export const setPaymentInput = z.strictObject({ is_request_payment_data: z.boolean() });
export const setScreenerFirstInput = z.strictObject({ is_screener_first: z.boolean() });

export const accessorLinkOutput = z.object({
  id: z.string(),
  project_id: z.string(),
  scenario_id: z.string(),
  /** The respondent's address, to copy into the recruiting platform. */
  link: z.string(),
  token: z.string(),
  quota_size: z.number().nullable(),
  is_use_face_checker: z.boolean(),
  is_request_payment_data: z.boolean(),
  is_screener_first: z.boolean(),
  sessions_count: z.number(),
  created_at: z.string(),
  /** What the current user may do with it now: change its options. */
  can: z.object({ edit: z.boolean() }),
});
export type AccessorLink = z.infer<typeof accessorLinkOutput>;
