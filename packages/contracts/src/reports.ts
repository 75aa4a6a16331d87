import { z } from 'zod';
import { fixationFilterUsedSchema, fixationSettingsInput, fixationSettingsSchema } from './fixation-filter.ts';
import { gazeDriftSchema } from './gaze-drift.ts';
import { LANGUAGES } from './languages.ts';
import { msg } from './messages.ts';
import { reportAreaInput, reportAreaOutline } from './report-areas.ts';
import { reportBenchmarkSchema } from './report-benchmarks.ts';
import { responseFilterSchema } from './response-filter.ts';
import { taskStatisticsSchema } from './task-statistics.ts';
import { CALIBRATION_CHECK_VERDICTS } from './validation-settings.ts';

export * from './fixation-filter.ts';

/**
 * A report (spec sections 2, 3, 8; design section 8): a saved definition on one research — name, type, filters,
 * step detail — that the `build-report` job turns into a stored snapshot. Its fixation filter: `fixation-filter.ts`.
 */
export const REPORT_NAME_MAX = 30;
export const REPORT_TYPES = ['shift', 'calibration_subtraction'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
/** The spec's report states; a failed build is `canceled` with `failed` set (the spec's "the last report failed"). */
export const REPORT_STATUSES = ['in_progress', 'done', 'canceled'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
/**
 * Every curve of a report: the engine's three summary metrics, its smile index (measured from each respondent's own
 * rest, the expression measure docs/validation.md checks against known truth) and its seven expressions.
 */
export const REPORT_METRICS = [
  'engagement',
  'valence',
  'attention',
  'smile',
  'neutral',
  'happy',
  'surprise',
  'sad',
  'angry',
  'disgust',
  'fear',
] as const;
export type ReportMetric = (typeof REPORT_METRICS)[number];
/**
 * Where each metric's per-second value lies as the engine gives it: valence −1..1, engagement, attention, the smile
 * index and the seven expressions 0..1 (issue 28, item 2). The one definition the report's bands are clamped to and
 * its axes drawn over.
 */
export const METRIC_RANGES: Record<ReportMetric, { min: number; max: number }> = {
  engagement: { min: 0, max: 1 },
  valence: { min: -1, max: 1 },
  attention: { min: 0, max: 1 },
  smile: { min: 0, max: 1 },
  neutral: { min: 0, max: 1 },
  happy: { min: 0, max: 1 },
  surprise: { min: 0, max: 1 },
  sad: { min: 0, max: 1 },
  angry: { min: 0, max: 1 },
  disgust: { min: 0, max: 1 },
  fear: { min: 0, max: 1 },
};
/**
 * Whether a calibration-subtracted report takes the respondent's resting level from a metric: not from attention (a
 * share of frames) nor the smile index (the engine already measures it from the respondent's rest).
 */
export const isCorrectedMetric = (metric: ReportMetric): metric is Exclude<ReportMetric, 'attention' | 'smile'> =>
  metric !== 'attention' && metric !== 'smile';
/**
 * The range of a report's curve of a metric: the metric's own, or — a calibration-subtracted report, whose values are
 * differences from the respondent's resting level — ± its width (a 0..1 metric −1..1, valence −2..2) where the metric
 * is corrected (`isCorrectedMetric`).
 */
export function metricRange(metric: ReportMetric, type: ReportType): { min: number; max: number } {
  const range = METRIC_RANGES[metric];
  if (type !== 'calibration_subtraction' || !isCorrectedMetric(metric)) return range;
  const width = range.max - range.min;
  return { min: -width, max: width };
}
/** Below this many respondents a point's interval is drawn faint: too few for it to mean much (issue 28, item 2). */
export const SMALL_N = 5;
/** Seconds per point of a curve (the spec's step detail). */
export const REPORT_STEPS = [1, 2, 5] as const;
/** The spec's happy filter range (section 8) and what a respondent's resting happy score may be (decision 015). */
export const HAPPY_FILTER_DEFAULT = { min: 0, max: 0.13 } as const;
/** "% of people": a respondent shows an expression in a second when its score there is above this. */
export const SHARE_THRESHOLD = 0.5;
export const REPORT_LIMITS = { processIds: 1000, accuracyPx: { min: 1, max: 2000 } } as const;

export const reportNameSchema = z
  .string(msg('validation.required'))
  .trim()
  .min(1, msg('validation.required'))
  .max(REPORT_NAME_MAX, msg('report.nameLength'))
  .regex(/^[\p{L}\p{N} ]+$/u, msg('report.nameLetters'));

const isoDate = z
  .string(msg('report.dateInvalid'))
  .regex(/^\d{4}-\d{2}-\d{2}$/, msg('report.dateInvalid'))
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), msg('report.dateInvalid'))
  .nullable()
  .default(null);

const share01 = z
  .number(msg('validation.number'))
  .min(0, msg('validation.between', { first: 0, second: 1 }))
  .max(1, msg('validation.between', { first: 0, second: 1 }));

/**
 * What a report counts: the questionnaires' response filter (sex, age, statuses, answers) and the report's own
 * parts — quality, calibration accuracy, the sessions' dates, chosen video processes, the happy filter.
 */
export const reportFiltersSchema = z.strictObject({
  respondents: responseFilterSchema.default(() => responseFilterSchema.parse({})),
  /** `usable`: only sessions the quality rules keep; `all`: excluded ones too. */
  quality: z.enum(['usable', 'all'], msg('validation.choice')).default('usable'),
  /** Only respondents calibrated at least this well (px); null: any. */
  accuracy_max_px: z
    .number(msg('validation.number'))
    .min(
      REPORT_LIMITS.accuracyPx.min,
      msg('validation.between', { first: REPORT_LIMITS.accuracyPx.min, second: REPORT_LIMITS.accuracyPx.max }),
    )
    .max(
      REPORT_LIMITS.accuracyPx.max,
      msg('validation.between', { first: REPORT_LIMITS.accuracyPx.min, second: REPORT_LIMITS.accuracyPx.max }),
    )
    .nullable()
    .default(null),
  /** Sessions started on these days (UTC), both included. */
  date_from: isoDate,
  date_to: isoDate,
  /** Only these video processes (the spec's comma-separated list); empty: all. */
  process_ids: z
    .array(z.uuid(msg('report.processIdsInvalid')))
    .max(REPORT_LIMITS.processIds, msg('validation.maxItems', { max: REPORT_LIMITS.processIds }))
    .default([]),
  /** The happy filter: the respondent's resting happy score (calibration) within [min, max]; null: off. */
  happy: z
    .strictObject({ min: share01, max: share01 })
    .refine((h) => h.min <= h.max, { message: msg('validation.between', { first: 0, second: 1 }), path: ['max'] })
    .nullable()
    .default(null),
});
export type ReportFilters = z.infer<typeof reportFiltersSchema>;

/**
 * What the curves may be split by: nobody, the respondent's sex, a single-choice answer, or (a report over several
 * researches) the research.
 */
export const reportSegmentSchema = z
  .discriminatedUnion('by', [
    z.strictObject({ by: z.literal('none') }),
    z.strictObject({ by: z.literal('sex') }),
    z.strictObject({ by: z.literal('research') }),
    z.strictObject({
      by: z.literal('answer'),
      survey_id: z.uuid(msg('validation.invalid')),
      question: z.string().max(64),
    }),
  ])
  .default({ by: 'none' });
export type ReportSegment = z.infer<typeof reportSegmentSchema>;

/** At most this many other researches pooled into one report. */
export const REPORT_RESEARCH_LIMIT = 10;

/** POST /api/cabinet/campaigns/{id}/reports/ */
export const createReportInput = z
  .strictObject({
    name: reportNameSchema,
    type: z.enum(REPORT_TYPES, msg('validation.choice')).default('shift'),
    step: z
      .union(
        REPORT_STEPS.map((s) => z.literal(s)),
        msg('validation.choice'),
      )
      .default(1),
    filters: reportFiltersSchema.default(() => reportFiltersSchema.parse({})),
    segment: reportSegmentSchema,
    fixations: fixationSettingsInput.default(() => fixationSettingsSchema.parse({})),
    /** Place the research among its benchmark base (needs a subtype; shift reports only). */
    benchmark: z.boolean().default(false),
    /**
     * Other researches of the same project with the same content type whose respondents the report pools with the
     * research's own (decision 019): items matched by position, drawn over the research's own content.
     */
    researches: z
      .array(z.uuid(msg('validation.invalid')))
      .max(REPORT_RESEARCH_LIMIT, msg('validation.maxItems', { max: REPORT_RESEARCH_LIMIT }))
      .refine((ids) => new Set(ids).size === ids.length, msg('validation.invalid'))
      .default([]),
  })
  .refine((r) => !r.benchmark || r.type === 'shift', { path: ['benchmark'], message: msg('report.benchmarkShift') })
  .refine((r) => r.segment.by !== 'research' || r.researches.length > 0, {
    path: ['segment'],
    message: msg('report.segmentResearch'),
  });
export type CreateReportInput = z.input<typeof createReportInput>;
export type ReportDefinition = z.infer<typeof createReportInput>;

/**
 * GET /api/cabinet/campaigns/{id}/reports/researches/ — the researches a report on this one may pool: the project's
 * others with the same content type, with their processed sessions.
 */
export const poolableResearchesOutput = z.array(
  z.object({ id: z.uuid(), title: z.string(), processed: z.number().int() }),
);
export type PoolableResearch = z.infer<typeof poolableResearchesOutput>[number];

/** A report in the list (spec section 3): name, status, filters, step detail, type, video count, created file, last accessed. */
export const reportSummarySchema = z.object({
  id: z.uuid(),
  campaign_id: z.uuid(),
  name: z.string(),
  type: z.enum(REPORT_TYPES),
  step: z.number().int(),
  status: z.enum(REPORT_STATUSES),
  /** The build failed (status canceled): the message to show. */
  failed: z.boolean(),
  error_key: z.string().nullable(),
  filters: reportFiltersSchema,
  segment: reportSegmentSchema,
  fixations: fixationSettingsSchema,
  /** Areas of interest drawn on the report's images. */
  areas: z.array(reportAreaInput),
  benchmark: z.boolean(),
  /** The other researches the report pools with its own (ids). */
  researches: z.array(z.uuid()),
  /** Sessions whose recordings the snapshot counts; null until built. */
  video_count: z.number().int().nullable(),
  progress: z.number().int().min(0).max(100),
  created_at: z.string(),
  built_at: z.string().nullable(),
  last_accessed_at: z.string().nullable(),
  can: z.object({ rebuild: z.boolean(), cancel: z.boolean(), delete: z.boolean(), open: z.boolean() }),
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;
export const reportListOutput = z.array(reportSummarySchema);

/**
 * One curve: per point, N respondents behind it, mean and 95% t-band (clamped to the metric's range, `metricRange`),
 * and the share above SHARE_THRESHOLD with its 95% Wilson score interval.
 */
const curveSchema = z.object({
  n: z.array(z.number().int()),
  mean: z.array(z.number().nullable()),
  low: z.array(z.number().nullable()),
  high: z.array(z.number().nullable()),
  share_above: z.array(z.number().nullable()),
  share_low: z.array(z.number().nullable()),
  share_high: z.array(z.number().nullable()),
});
export type Curve = z.infer<typeof curveSchema>;

const curvesSchema = z.record(z.enum(REPORT_METRICS), curveSchema);

/** A density grid (heatmap): cells row by row, 0–255 relative to the grid's densest cell. */
export const heatmapGridSchema = z.object({
  cols: z.number().int(),
  rows: z.number().int(),
  cells: z.array(z.number().int()),
  /** Gaze samples behind the grid: those that fell on the content. */
  samples: z.number().int(),
});
export type HeatmapGrid = z.infer<typeof heatmapGridSchema>;

/**
 * An area of interest (a shelf zone, or drawn on the report) and what respondents' fixations did in it (design section 8): the share of the item's
 * respondents with gaze who fixated in it, time to the first fixation (s from the first gaze sample on the item),
 * dwell time (s) and its share of their fixation time, revisits, fixation count (means over respondents).
 */
export const reportAreaSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Where it comes from: a shelf zone of the research, or drawn on the report. */
  source: z.enum(['zone', 'drawn']),
  /** Item pixels: the rectangle around it, its shape and a moving area's key frames. */
  ...reportAreaOutline,
  /** A video's area: the window (s) it counts in; null: the whole item. */
  from: z.number().nullable(),
  to: z.number().nullable(),
  respondents: z.number().int(),
  looked: z.number().int(),
  looked_share: z.number(),
  time_to_first_fixation: z.number().nullable(),
  dwell_time: z.number(),
  dwell_share: z.number(),
  revisits: z.number().nullable(),
  fixation_count: z.number(),
  /** Website prototypes: the respondents' clicks in the area on the task's screenshot; null for other content. */
  clicks: z.number().int().nullable(),
});
export type ReportArea = z.infer<typeof reportAreaSchema>;

/** One content item's part of a report: a video, a picture, a shelf image, a site task (or the whole recording). */
export const reportItemSchema = z.object({
  index: z.number().int(),
  /** Natural size of the item in pixels (null: contentless). */
  width: z.number().nullable(),
  height: z.number().nullable(),
  media_id: z.string().nullable(),
  label: z.string(),
  /** Seconds at the start of each point (`step` apart). */
  seconds: z.array(z.number()),
  curves: curvesSchema,
  /**
   * A website task's curves by its progress (null for other content): point p holds each respondent's seconds
   * after p of the task's steps were reached (0: before the first).
   */
  step_curves: curvesSchema.nullable(),
  /** Per segment (sex: `man` / `woman`; an answer: the option's id with its text in each language). */
  segments: z.array(
    z.object({
      key: z.string(),
      labels: z.record(z.enum(LANGUAGES), z.string()).nullable(),
      respondents: z.number().int(),
      curves: curvesSchema,
    }),
  ),
  moments: z.array(
    z.object({ second: z.number(), kind: z.enum(['peak', 'drop']), value: z.number(), prominence: z.number() }),
  ),
  /** The whole item's heatmap; a video also has one per point (`frames`). */
  heatmap: heatmapGridSchema.nullable(),
  heatmap_frames: z.array(heatmapGridSchema).nullable(),
  /** Kernel's standard deviation in item pixels: the widest of the included respondents' accuracy and 2% of the diagonal. */
  kernel_px: z.number().nullable(),
  /** Fixations found over the item, and respondents whose gaze was on it. */
  fixations: z.number().int(),
  gaze_respondents: z.number().int(),
  areas: z.array(reportAreaSchema),
});
export type ReportItem = z.infer<typeof reportItemSchema>;

/** A respondent of the report's research (those the quality, accuracy or happy filters left out are listed too). */
export const reportRespondentSchema = z.object({
  session_id: z.uuid(),
  /** The research the respondent took part in (a report may pool several). */
  campaign_id: z.uuid(),
  process_id: z.uuid(),
  participant_id: z.string().nullable(),
  status: z.string(),
  sex: z.string().nullable(),
  age: z.number().nullable(),
  started_at: z.string(),
  bad_frame_share: z.number(),
  accuracy_px: z.number().nullable(),
  accuracy_percent: z.number().nullable(),
  /** Degrees of visual angle at the estimated distance (decision 043); absent in reports built before it. */
  accuracy_degrees: z.number().nullable().optional(),
  /**
   * The gaze's precision on the validation dots (RMS sample to sample, decision 052): px, % of the diagonal, degrees
   * at the estimated distance; absent in reports built before it, null when not measured.
   */
  precision_px: z.number().nullable().optional(),
  precision_percent: z.number().nullable().optional(),
  precision_degrees: z.number().nullable().optional(),
  /**
   * The drift checkpoints' offsets during the content (decision 053); null: no checkpoint, absent in reports built
   * before it.
   */
  drift: gazeDriftSchema.nullable().optional(),
  /** The estimated distance to the camera, cm (from the iris's size); absent in reports built before it. */
  distance_cm: z.number().nullable().optional(),
  /**
   * The calibration check before the content (decision 050): passed, flagged (failed twice, went on), not_checked (it
   * could not run); null: the session was not checked; absent in reports built before it.
   */
  calibration_check: z.enum(CALIBRATION_CHECK_VERDICTS).nullable().optional(),
  /** A: calibrated within 5% of the diagonal and ≤ 10% bad frames; B: usable; C: excluded. */
  grade: z.enum(['A', 'B', 'C']),
  included: z.boolean(),
  /** Why the report leaves the respondent out: the engine's exclusion, or the report's accuracy / happy filter. */
  excluded_reason: z.string().nullable(),
  resting_happy: z.number().nullable(),
  mean_engagement: z.number().nullable(),
});
export type ReportRespondent = z.infer<typeof reportRespondentSchema>;

export const reportSnapshotSchema = z.object({
  method: z.literal('t-interval'),
  timeline: z.string(),
  step: z.number().int(),
  threshold: z.number(),
  type: z.enum(REPORT_TYPES),
  respondents: z.number().int(),
  engine_versions: z.array(z.string()),
  /** The researches pooled, the report's own first, with the respondents each gave the report. */
  researches: z.array(z.object({ id: z.uuid(), title: z.string(), respondents: z.number().int() })),
  items: z.array(reportItemSchema),
  people: z.array(reportRespondentSchema),
  /** Website-prototype researches: each task over the report's respondents, marks applied. */
  tasks: z.array(taskStatisticsSchema),
  /** The research among its benchmark base; null when the report was made without one. */
  benchmark: reportBenchmarkSchema.nullable(),
  /** The filter and settings that made the fixations (decision 042); absent in reports built before it. */
  fixation_filter: fixationFilterUsedSchema.optional(),
});
export type ReportSnapshot = z.infer<typeof reportSnapshotSchema>;

/** GET /api/cabinet/reports/{id}/ — the report with its snapshot (null until done). */
export const reportOutput = reportSummarySchema.extend({ snapshot: reportSnapshotSchema.nullable() });
export type ReportOutput = z.infer<typeof reportOutput>;

export const REPORT_EXPORTS = ['curves', 'areas', 'respondents', 'series'] as const;
export const reportExportQuery = z.strictObject({
  kind: z.enum(REPORT_EXPORTS),
  format: z.enum(['xlsx', 'csv']),
  /** The language of every header (English: the column names scripts read) and of the questionnaires' answer texts. */
  language: z.enum(LANGUAGES).default('en'),
});

/** GET /api/cabinet/reports/{id}/gaze-plot/?session_id=&item= — one respondent's fixations on one item, in order. */
export const gazePlotQuery = z.strictObject({
  session_id: z.uuid(msg('validation.invalid')),
  item: z.coerce.number(msg('validation.number')).int().min(0).max(999),
});
export const gazePlotOutput = z.object({
  session_id: z.uuid(),
  item: z.number().int(),
  /** Seconds from the respondent's first gaze sample on the item; item pixels. */
  fixations: z.array(z.object({ start: z.number(), end: z.number(), x: z.number(), y: z.number() })),
});
export type GazePlot = z.infer<typeof gazePlotOutput>;
/**
 * GET /api/cabinet/reports/{id}/playback/?session_id=&item= — what plays one respondent's view of one item: their
 * gaze on it over time (at most 10 samples a second) and their recording's segments where still kept.
 */
export const playbackOutput = z.object({
  session_id: z.uuid(),
  item: z.number().int(),
  /** Session time (s) of the first gaze sample on the item: the gaze's `t` counts from it. */
  onset: z.number(),
  gaze: z.object({ t: z.array(z.number()), x: z.array(z.number()), y: z.array(z.number()) }),
  /** The recording's segments still stored, each starting `offset` s into the session. */
  segments: z.array(
    z.object({ segment: z.number().int(), offset: z.number(), mime_type: z.string(), url: z.string() }),
  ),
});
export type Playback = z.infer<typeof playbackOutput>;

export * from './report-areas.ts';
