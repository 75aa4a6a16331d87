import { z } from 'zod';
import { privacySettingsFields } from './analysis-site.ts';
import {
  pictureGallerySchema,
  shelfContentScenarioSchema,
  shelfSettingSchema,
  webResourceScenarioSchema,
} from './content.ts';
import { driftSettingsFields } from './drift-settings.ts';
import { LANGUAGES } from './languages.ts';
import { msg } from './messages.ts';
import { PLATFORMS } from './projects.ts';
import { validationSettingsFields } from './validation-settings.ts';

/** Content types of spec section 1. */
export const CONTENT_TYPES = ['site', 'video', 'pictures', 'contentless', 'shelf'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** Research (campaign) states of spec section 4. */
export const RESEARCH_STATUSES = [
  'new',
  'draft',
  'active',
  'processing',
  'reprocessing',
  'paused',
  'done',
  'completed',
  'error',
  'archived',
] as const;
export type ResearchStatus = (typeof RESEARCH_STATUSES)[number];

export const ORIENTATIONS = ['vertical', 'horizontal', 'all'] as const;

/** Spec section 9 defaults. */
export const RESEARCH_DEFAULTS = {
  badFramesPercent: 25,
  bannerTime: 10,
  taskTimeLimitSeconds: 60,
  contentlessSeconds: 60,
} as const;

/**
 * The rates a research may have its respondents' faces and expressions analysed at, frames a second (the spec's
 * `contentVideoFps`; issue 31, item 1). Gaze is read at the recording's own rate up to 30 a second whatever this says
 * (decision 049); a higher rate here reads expressions and face quality more often and costs processing time.
 */
export const ANALYSIS_RATES = [10, 15, 30] as const;
export type AnalysisRate = (typeof ANALYSIS_RATES)[number];
/** The rate of a research that does not ask for another, and of one saved before the setting. */
export const DEFAULT_ANALYSIS_RATE: AnalysisRate = 10;

/** Letters of any script, digits, spaces and ordinary punctuation; no markup or control characters. */
const TITLE_PATTERN = /^[\p{L}\p{N}\s\-_.,:;!?'"«»()&/#+%№]+$/u;

const required = msg('validation.required');

const title = z
  .string({ error: required })
  .trim()
  .min(1, required)
  .max(255, msg('validation.maxChars', { max: 255 }))
  .regex(TITLE_PATTERN, msg('campaign.titleInvalid'));

const between = (first: number, second: number) => msg('validation.between', { first, second });
const redirect = z.url({ protocol: /^https?$/, error: msg('validation.url') }).or(z.literal(''));

const categoryValue = z
  .string()
  .trim()
  .max(255, msg('validation.maxChars', { max: 255 }));
const categoryFields = {
  brand: categoryValue,
  sub_brand: categoryValue,
  company: categoryValue,
  industry: categoryValue,
  sector: categoryValue,
  category: categoryValue,
  subtype: categoryValue,
};
export const categoriesSchema = z.strictObject(
  Object.fromEntries(Object.entries(categoryFields).map(([k, v]) => [k, v.default('')])) as {
    [K in keyof typeof categoryFields]: z.ZodDefault<typeof categoryValue>;
  },
);
/** A research's categories before any is set: every one ''. */
export const EMPTY_CATEGORIES = categoriesSchema.parse({});
/** An edit of some categories: those not named keep their value ('' clears one). */
const categoriesPatchSchema = z.strictObject(categoryFields).partial();

/** Fieldwork settings of a research (spec section 3), with the spec's defaults. */
export const researchSettingsSchema = z.strictObject({
  cint_options: z
    .strictObject({
      complete: redirect.default(''),
      quota_full: redirect.default(''),
      screen_out: redirect.default(''),
    })
    .default({ complete: '', quota_full: '', screen_out: '' }),
  isRandomOrder: z.boolean().default(false),
  currentTaskLang: z.enum(LANGUAGES).default('ru'),
  useTasksStatsInReport: z.boolean().default(false),
  multiFacesMode: z.boolean().default(false),
  contentVideoFps: z.literal(ANALYSIS_RATES).default(DEFAULT_ANALYSIS_RATE),
  badFramesPercent: z
    .number()
    .min(0, between(0, 100))
    .max(100, between(0, 100))
    .default(RESEARCH_DEFAULTS.badFramesPercent),
  researchOrientation: z.enum(ORIENTATIONS).default('all'),
  isBannerAnalysis: z.boolean().default(false),
  bannerTime: z.number().int().min(1, between(1, 600)).max(600, between(1, 600)).default(10),
  taskTimeLimitSeconds: z
    .number()
    .int()
    .min(5, between(5, 3600))
    .max(3600, between(5, 3600))
    .default(RESEARCH_DEFAULTS.taskTimeLimitSeconds),
  /** Contentless researches: how long the camera records with nothing shown (an interview), seconds. */
  contentVideoDuration: z
    .number()
    .int(msg('validation.wholeSeconds'))
    .min(5, between(5, 3600))
    .max(3600, between(5, 3600))
    .default(RESEARCH_DEFAULTS.contentlessSeconds),
  isFigma: z.boolean().default(false),
  isFigmaHand: z.boolean().default(false),
  isProtopie: z.boolean().default(false),
  gpuProcessing: z.boolean().default(false),
  showSurveyIdentifier: z.boolean().default(false),
  autoShowTaskDescription: z.boolean().default(true),
  dataPause: z.boolean().default(false),
  new_report_builder: z.boolean().default(true),
  embeddedSurveyId: z.string().max(64).nullable().default(null),
  screenerSurveyId: z.string().max(64).nullable().default(null),
  /** Website-prototype tasks (site researches). */
  webResourceScenario: webResourceScenarioSchema.default([]),
  /** The validation before the content: threshold and what a second failure does (decision 050). */
  ...validationSettingsFields,
  /** Drift checkpoints during the content: at natural breaks, and over a playing video (decision 055). */
  ...driftSettingsFields,
  /** Privacy mode: the video stays on the respondent's device, which uploads readings (decision 064). */
  ...privacySettingsFields,
});
export type ResearchSettings = z.infer<typeof researchSettingsSchema>;

/**
 * A research's settings as stored (JSON an earlier version wrote may lack fields): parsed with the defaults filled in,
 * or the defaults alone when they do not parse.
 */
export function storedResearchSettings(value: unknown): ResearchSettings {
  const parsed = researchSettingsSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : researchSettingsSchema.parse({});
}

/** A new research's settings: without a task language, it takes the project's respondent language. */
const newResearchSettingsSchema = researchSettingsSchema.extend({ currentTaskLang: z.enum(LANGUAGES).optional() });

export const researchDataInput = z.strictObject({
  title,
  description: z
    .string()
    .trim()
    .max(5000, msg('validation.maxChars', { max: 5000 }))
    .default(''),
  content_type: z.enum(CONTENT_TYPES, { error: required }),
  site_url: redirect.default(''),
  categories: categoriesSchema.default(EMPTY_CATEGORIES),
  settings: newResearchSettingsSchema.default(newResearchSettingsSchema.parse({})),
});
export type ResearchDataInput = z.input<typeof researchDataInput>;

/** POST /api/cabinet/projects/add-new-campaign/ (spec section 7). */
export const addNewResearchInput = z.strictObject({
  project_id: z.string({ error: required }).min(1, required),
  campaigns_data: z.array(researchDataInput).min(1, required).max(50),
  /** Shelf researches come only from the project wizard. */
  from_wizard: z.boolean().default(false),
});

/** PATCH /api/cabinet/campaigns/{id}/update-campaign-data/ — partial; settings merge key by key. */
/**
 * The settings a partial update names, and only those: `.partial()` keeps each field's default, so every setting the
 * update left out would come back at its default and overwrite the stored one.
 */
const settingsPatchSchema = z.strictObject(
  Object.fromEntries(
    Object.entries(researchSettingsSchema.shape).map(([key, field]) => [
      key,
      (field instanceof z.ZodDefault ? field.unwrap() : field).optional(),
    ]),
  ),
) as unknown as z.ZodType<Partial<ResearchSettings>, Partial<z.input<typeof researchSettingsSchema>>>;

export const updateResearchDataInput = z.strictObject({
  title: title.optional(),
  description: z
    .string()
    .trim()
    .max(5000, msg('validation.maxChars', { max: 5000 }))
    .optional(),
  site_url: redirect.optional(),
  categories: categoriesPatchSchema.optional(),
  settings: settingsPatchSchema.optional(),
  picture_gallery: pictureGallerySchema.optional(),
  shelf_content_scenario: shelfContentScenarioSchema.optional(),
  shelf_setting: shelfSettingSchema.optional(),
  updated_at: z.iso.datetime({ offset: true, error: msg('validation.versionRequired') }),
});

/** GET /api/cabinet/campaigns/ */
export const listResearchesQuery = z.strictObject({
  project_id: z.string().max(64).optional(),
  search: z.string().trim().max(255).optional(),
  content_type: z.enum(CONTENT_TYPES).optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

export const researchOutput = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  content_type: z.enum(CONTENT_TYPES),
  status: z.enum(RESEARCH_STATUSES),
  project: z.object({ id: z.string(), title: z.string(), status: z.string(), platform: z.enum(PLATFORMS) }),
  site_url: z.string(),
  categories: categoriesSchema,
  settings: researchSettingsSchema,
  /** Pictures researches: the gallery in showing order (every picture uploaded to the research). */
  picture_gallery: pictureGallerySchema,
  /** Shelf researches: the shelves in showing order, with their zones. */
  shelf_content_scenario: shelfContentScenarioSchema,
  shelf_setting: shelfSettingSchema,
  is_self_service: z.boolean(),
  is_new_user_flow: z.boolean(),
  created_by: z.string(),
  modified_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Columns of the research list that later work fills (videos, reports, engagement). */
  video_count: z.number(),
  report_count: z.number(),
  latest_engagement: z.number().nullable(),
  can_edit: z.boolean(),
});
export type Research = z.infer<typeof researchOutput>;

export const researchListOutput = z.object({
  items: z.array(researchOutput),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});
