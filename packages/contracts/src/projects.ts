import { z } from 'zod';
import { REQUIRED_MESSAGE } from './auth.ts';
import { LANGUAGES } from './languages.ts';

/** Recruiting platforms of spec section 1. */
export const PLATFORMS = [
  'toloka',
  'cint',
  'amazon',
  'own_audience',
  'millward_brown',
  'armi_marketing',
  'tiburon',
  'omi',
  'onin',
  'anketolog',
  'yandex_tasks',
] as const;
export type Platform = (typeof PLATFORMS)[number];

/** Audience types of spec section 1. */
export const AUDIENCE_TYPES = ['without_recruiting', 'simple', 'hard'] as const;
export type AudienceType = (typeof AUDIENCE_TYPES)[number];

/**
 * Flow type, fixed at creation (spec section 2): new = improved neural network with a long 34-second
 * calibration; old = comparable with tests before 2024, short 12-second calibration.
 */
export const FLOW_TYPES = ['new', 'old'] as const;
export type FlowType = (typeof FLOW_TYPES)[number];
export const CALIBRATION_SECONDS: Record<FlowType, number> = { new: 34, old: 12 };

/** Project states of spec section 4; `new` is shown as draft. */
export const PROJECT_STATUSES = ['new', 'active', 'completed', 'archived'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** The list's tabs and the statuses behind them. */
export const PROJECT_TABS = { active: 'active', drafts: 'new', completed: 'completed', archive: 'archived' } as const;
export type ProjectTab = keyof typeof PROJECT_TABS;

export const PROJECT_MESSAGES = {
  titleRequired: REQUIRED_MESSAGE,
  platformRequired: 'Select a platform, do not leave the field empty',
  languageRequired: REQUIRED_MESSAGE,
  audienceRequired: REQUIRED_MESSAGE,
  saveInvalid: 'Fill in the required fields',
  userDoesNotExist: "User doesn't exist",
} as const;

const requiredEnum = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.enum(values, { error: message });

const title = z
  .string({ error: PROJECT_MESSAGES.titleRequired })
  .trim()
  .min(1, PROJECT_MESSAGES.titleRequired)
  .max(255, 'At most 255 characters');

const description = z.string().trim().max(5000, 'At most 5000 characters');

/** Fields an analyst edits on a project (create and update). */
export const projectFields = {
  title,
  description: description.default(''),
  platform: requiredEnum(PLATFORMS, PROJECT_MESSAGES.platformRequired),
  respondent_language: requiredEnum(LANGUAGES, PROJECT_MESSAGES.languageRequired),
  audience_type: requiredEnum(AUDIENCE_TYPES, PROJECT_MESSAGES.audienceRequired),
  required_respondents: z
    .number({ error: 'Enter a whole number' })
    .int('Enter a whole number')
    .min(0, 'Must be 0 or more')
    .max(1_000_000, 'At most 1 000 000')
    .nullable()
    .default(null),
};

/** POST /api/cabinet/projects/ */
export const createProjectInput = z.strictObject({
  ...projectFields,
  flow_type: requiredEnum(FLOW_TYPES, REQUIRED_MESSAGE),
});
export type CreateProjectInput = z.input<typeof createProjectInput>;

/**
 * PATCH /api/cabinet/projects/{id}/ — every field optional; `updated_at` is the version the editor
 * started from: a project changed since answers 409 instead of losing the other edit.
 */
export const updateProjectInput = z.strictObject({
  title: title.optional(),
  description: description.optional(),
  platform: projectFields.platform.optional(),
  respondent_language: projectFields.respondent_language.optional(),
  audience_type: projectFields.audience_type.optional(),
  required_respondents: projectFields.required_respondents.optional(),
  updated_at: z.iso.datetime({ offset: true, error: 'updated_at is required' }),
});
export type UpdateProjectInput = z.input<typeof updateProjectInput>;

/** POST /api/cabinet/projects/{id}/change-owner/ */
export const changeOwnerInput = z.strictObject({
  public_user_id: z.string({ error: REQUIRED_MESSAGE }).trim().min(1, REQUIRED_MESSAGE).max(32),
});

/** GET /api/cabinet/projects/ */
export const listProjectsQuery = z.strictObject({
  search: z.string().trim().max(255).optional(),
  tab: z.enum(Object.keys(PROJECT_TABS) as [ProjectTab, ...ProjectTab[]]).optional(),
  created_by_me: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export type ListProjectsQuery = z.input<typeof listProjectsQuery>;

const person = z.object({ public_user_id: z.string(), username: z.string(), name: z.string() });

export const projectOutput = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  platform: z.enum(PLATFORMS),
  respondent_language: z.enum(LANGUAGES),
  audience_type: z.enum(AUDIENCE_TYPES),
  flow_type: z.enum(FLOW_TYPES),
  status: z.enum(PROJECT_STATUSES),
  required_respondents: z.number().nullable(),
  owner: person,
  created_by: person,
  created_at: z.string(),
  updated_at: z.string(),
  launched_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  archived_at: z.string().nullable(),
  /** Counts of the project's parts (researches, scenarios and quota links come with later work). */
  counts: z.object({ researches: z.number(), scenarios: z.number(), quota_links: z.number(), sessions: z.number() }),
  /** What the current user may do with it now. */
  can: z.object({
    edit: z.boolean(),
    launch: z.boolean(),
    complete: z.boolean(),
    archive: z.boolean(),
    delete: z.boolean(),
    /** Add and reorder scenarios. */
    manage_scenarios: z.boolean(),
    /** Create quota links. */
    manage_quota_links: z.boolean(),
  }),
});
export type Project = z.infer<typeof projectOutput>;

export const projectListOutput = z.object({
  items: z.array(projectOutput),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
  /** Projects per tab for the same search and filter, for the tab badges. */
  tabs: z.object({ active: z.number(), drafts: z.number(), completed: z.number(), archive: z.number() }),
});
export type ProjectList = z.infer<typeof projectListOutput>;

/** Which lifecycle action leads from which status (spec section 4). */
export const PROJECT_TRANSITIONS = {
  launch: { from: ['new'], to: 'active' },
  complete: { from: ['active'], to: 'completed' },
  archive: { from: ['new', 'active', 'completed'], to: 'archived' },
} as const satisfies Record<string, { from: readonly ProjectStatus[]; to: ProjectStatus }>;
export type ProjectAction = keyof typeof PROJECT_TRANSITIONS;
