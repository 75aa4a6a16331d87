import { z } from 'zod';
import { LANGUAGES } from './languages.ts';
import { type Message, msg } from './messages.ts';

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
  'prolific',
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

/**
 * What happens to respondent data of the project (design section 7): keep the recordings; delete a
 * session's recording once all its videos are processed (the measured features stay); or delete
 * everything of a session N days after it ended.
 */
export const RETENTION_MODES = ['keep', 'delete_after_processing', 'delete_after_days'] as const;
export type RetentionMode = (typeof RETENTION_MODES)[number];
export const RETENTION_DAYS = { min: 1, max: 3650 } as const;

/** The list's tabs and the statuses behind them. */
export const PROJECT_TABS = { active: 'active', drafts: 'new', completed: 'completed', archive: 'archived' } as const;
export type ProjectTab = keyof typeof PROJECT_TABS;

const required = msg('validation.required');

const requiredEnum = <T extends readonly [string, ...string[]]>(values: T, message: Message) =>
  z.enum(values, { error: message });

const title = z
  .string({ error: required })
  .trim()
  .min(1, required)
  .max(255, msg('validation.maxChars', { max: 255 }));

const description = z
  .string()
  .trim()
  .max(5000, msg('validation.maxChars', { max: 5000 }));

/** Fields an analyst edits on a project (create and update). */
export const projectFields = {
  title,
  description: description.default(''),
  platform: requiredEnum(PLATFORMS, msg('project.platformRequired')),
  respondent_language: requiredEnum(LANGUAGES, required),
  audience_type: requiredEnum(AUDIENCE_TYPES, required),
  required_respondents: z
    .number({ error: msg('validation.wholeNumber') })
    .int(msg('validation.wholeNumber'))
    .min(0, msg('validation.nonNegative'))
    .max(1_000_000, msg('validation.atMost', { max: 1_000_000 }))
    .nullable()
    .default(null),
};

/** POST /api/cabinet/projects/ */
export const createProjectInput = z.strictObject({
  ...projectFields,
  flow_type: requiredEnum(FLOW_TYPES, required),
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
  updated_at: z.iso.datetime({ offset: true, error: msg('validation.versionRequired') }),
});
export type UpdateProjectInput = z.input<typeof updateProjectInput>;

/**
 * PATCH /api/cabinet/projects/{id}/retention/ — a data-protection setting, so it stays editable in
 * every status (decision 011). Days are needed by `delete_after_days` only and dropped otherwise.
 */
export const retentionInput = z
  .strictObject({
    retention_mode: requiredEnum(RETENTION_MODES, required),
    retention_days: z
      .number({ error: msg('validation.wholeNumber') })
      .int(msg('validation.wholeNumber'))
      .min(RETENTION_DAYS.min, msg('validation.between', { first: RETENTION_DAYS.min, second: RETENTION_DAYS.max }))
      .max(RETENTION_DAYS.max, msg('validation.between', { first: RETENTION_DAYS.min, second: RETENTION_DAYS.max }))
      .nullable()
      .default(null),
  })
  .superRefine((value, issues) => {
    if (value.retention_mode === 'delete_after_days' && value.retention_days === null) {
      issues.addIssue({ code: 'custom', path: ['retention_days'], message: required });
    }
  })
  .transform((value) => ({
    retention_mode: value.retention_mode,
    retention_days: value.retention_mode === 'delete_after_days' ? value.retention_days : null,
  }));
export type RetentionInput = z.input<typeof retentionInput>;

/** POST /api/cabinet/projects/{id}/change-owner/ */
export const changeOwnerInput = z.strictObject({
  public_user_id: z.string({ error: required }).trim().min(1, required).max(32),
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

const stepCount = z.object({ done: z.number().int(), total: z.number().int() });

/**
 * The demo project while it is being made (issue 28 item 11): its respondents taking part, their recordings
 * processed, its report built — each done of all, and all steps together. `stopped`: the seeding gave up (or the
 * report failed), so it is no longer coming along.
 */
export const projectPreparation = z.object({
  respondents: stepCount,
  recordings: stepCount,
  report: stepCount,
  done: z.number().int(),
  total: z.number().int(),
  stopped: z.boolean(),
});
export type ProjectPreparation = z.infer<typeof projectPreparation>;

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
  retention: z.object({ mode: z.enum(RETENTION_MODES), days: z.number().nullable() }),
  /** The installation's demo project, seeded on its first start from real face photos (never in benchmarks). */
  is_demo: z.boolean(),
  /** The demo project's making until its report is built; null then, and for every other project. */
  preparation: projectPreparation.nullable(),
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
    /** Add, edit, reorder and delete scenarios and researches (a draft only: launch freezes them). */
    manage_scenarios: z.boolean(),
    /** Create quota links and change their options. */
    manage_quota_links: z.boolean(),
    /**
     * Change the retention setting and delete respondent data on request: data protection, so in
     * every status (decision 011).
     */
    manage_data: z.boolean(),
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
