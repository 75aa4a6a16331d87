import { z } from 'zod';
import { LANGUAGES } from './languages.ts';
import { msg } from './messages.ts';
import { responseFilterSchema } from './response-filter.ts';
import { QUESTION_TYPES, SURVEY_SLOTS, surveyOutput } from './surveys.ts';

/**
 * Questionnaire statistics of a research (issue 12 item 5): per question of its screener or survey, over the
 * respondents the filter takes.
 */

/** POST /api/cabinet/campaigns/{id}/survey-statistics/ */
export const surveyStatisticsInput = z.strictObject({
  slot: z.enum(SURVEY_SLOTS),
  filter: responseFilterSchema.default(() => responseFilterSchema.parse({})),
  /** Only the respondents a built report of the research counts (issue 13 item 5); null: everyone. */
  report_id: z.uuid(msg('validation.invalid')).nullable().default(null),
});
export type SurveyStatisticsInput = z.input<typeof surveyStatisticsInput>;

/** POST /api/cabinet/campaigns/{id}/survey-statistics/export/ — one row per respondent, one column per answer. */
export const SURVEY_EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export const surveyExportInput = surveyStatisticsInput.extend({
  format: z.enum(SURVEY_EXPORT_FORMATS),
  /** The language of the questions' and options' texts in the file (a missing text falls back). */
  language: z.enum(LANGUAGES),
});
export type SurveyExportInput = z.input<typeof surveyExportInput>;

/** Open answers sent per question at most; the export has them all. */
export const OPEN_ANSWERS_SHOWN = 2000;

const share = z.number().describe('Share of the respondents who answered the question, 0..1');
const count = z.object({ count: z.number().int(), share });

const numberSummary = z.object({
  mean: z.number().nullable(),
  median: z.number().nullable(),
  sd: z.number().nullable().describe('Sample standard deviation (n − 1)'),
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** Counts per value (scale: every step; number: every value given, or ten equal bins when more than 20). */
  distribution: z.array(count.extend({ label: z.string(), from: z.number(), to: z.number() })),
});

export const questionStatisticsSchema = z.object({
  id: z.string(),
  type: z.enum(QUESTION_TYPES),
  /** Respondents who were shown the question (its display logic held) and who answered it. */
  shown: z.number().int(),
  answered: z.number().int(),
  /** Single and multiple choice: per option, and "other" with its texts; matrix: the columns. */
  options: z.array(count.extend({ id: z.string() })),
  other: count.extend({ texts: z.array(z.string()) }).nullable(),
  numbers: numberSummary.nullable(),
  /** Open text: the answers, latest first (at most OPEN_ANSWERS_SHOWN), with the respondent's session. */
  texts: z.array(z.object({ session_id: z.string(), text: z.string() })),
  /** Matrix: per row, the count per column (in the order of `options`), and how many answered the row. */
  rows: z.array(z.object({ id: z.string(), answered: z.number().int(), counts: z.array(count) })),
});
export type QuestionStatistics = z.infer<typeof questionStatisticsSchema>;

export const surveyStatisticsOutput = z.object({
  /** The research's questionnaires (its scenario's slots): what may be asked for. */
  slots: z.object({
    screener: z.object({ id: z.string(), title: z.string() }).nullable(),
    survey: z.object({ id: z.string(), title: z.string() }).nullable(),
  }),
  /** The questionnaire asked for, whole (texts for the charts, questions for answer filters); null: none linked. */
  survey: surveyOutput.pick({ id: true, type: true, title: true, questions: true }).nullable(),
  /** The other slot's questionnaire, for filters by its answers (e.g. the screener's while viewing the survey). */
  other: surveyOutput.pick({ id: true, type: true, title: true, questions: true }).nullable(),
  /** Respondents the filter takes who answered the questionnaire (any answer saved). */
  respondents: z.number().int(),
  /** Of them, respondents who sent their final answers. */
  finished: z.number().int(),
  questions: z.array(questionStatisticsSchema),
});
export type SurveyStatistics = z.infer<typeof surveyStatisticsOutput>;
