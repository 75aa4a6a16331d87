/**
 * Questionnaires (issue 12): screeners and surveys, their questions, display logic and screener rules, and the
 * respondent's answers. One home for the domain's rules, used by the cabinet's editor, the server and the
 * respondent flow:
 *
 * - `surveyInput` / `surveyOutput`: what the editor saves and reads (cabinet, authenticated);
 * - `respondentAnswersInput`: what a respondent sends (anonymous, strict, small);
 * - `visibleQuestions`, `checkAnswers`, `screenerOutcome`, `surveyProblems`: pure functions both sides run.
 */
import { z } from 'zod';
import { LANGUAGES, type Language } from './languages.ts';
import { type Message, msg } from './messages.ts';

export const SURVEY_TYPES = ['screener', 'survey'] as const;
export type SurveyType = (typeof SURVEY_TYPES)[number];

/** Question kinds: single and multiple choice, scale, number, open text, matrix (rows × one choice each), information. */
export const QUESTION_TYPES = ['single', 'multiple', 'scale', 'number', 'text', 'matrix', 'info'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** What choosing a screener option does: nothing (pass), screens out (dropout), or fills the option's quota share. */
export const OPTION_RULES = ['pass', 'dropout', 'quota'] as const;
export type OptionRule = (typeof OPTION_RULES)[number];

/** Display-logic operators between conditions (spec: AND / OR) and per condition. */
export const LOGIC_OPERATORS = ['and', 'or'] as const;
export const CONDITION_OPERATORS = ['selected', 'not_selected', 'answered', 'equals', 'greater', 'less'] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];
/**
 * What a question tells about the respondent, for the sex and age filters of statistics and reports: `sex` on a
 * single choice whose options say which sex they mean, `age` on a number question (years).
 */
export const QUESTION_PROFILES = ['sex', 'age'] as const;
export type QuestionProfile = (typeof QUESTION_PROFILES)[number];
export const SEXES = ['man', 'woman'] as const;
export type Sex = (typeof SEXES)[number];
/** The question types that can tell the respondent's sex (single choice) or age (number). */
export const profileFits = (profile: QuestionProfile, type: QuestionType) =>
  profile === 'sex' ? type === 'single' : type === 'number';

export const SURVEY_LIMITS = {
  titleChars: 200,
  questionChars: 2000,
  optionChars: 300,
  questions: 100,
  options: 50,
  rows: 30,
  conditions: 10,
  /** An open answer or an "other" text. */
  answerChars: 5000,
  scaleSteps: 11,
} as const;

/** A scale's bounds are whole, rising and within SURVEY_LIMITS.scaleSteps steps. */
export const scaleFits = ({ min, max }: { min: number | null; max: number | null }) =>
  min !== null &&
  max !== null &&
  Number.isInteger(min) &&
  Number.isInteger(max) &&
  max > min &&
  max - min + 1 <= SURVEY_LIMITS.scaleSteps;

export const idSchema = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, msg('validation.invalid'));

/** A text in each respondent language; a missing language is an empty string (flagged before launch). */
const localized = (max: number) =>
  z.strictObject(
    Object.fromEntries(
      LANGUAGES.map((l) => [l, z.string().trim().max(max, msg('validation.maxChars', { max })).default('')]),
    ) as Record<Language, z.ZodDefault<z.ZodString>>,
  );
export type LocalizedText = Record<Language, string>;

export const optionSchema = z.strictObject({
  id: idSchema,
  text: localized(SURVEY_LIMITS.optionChars),
  /** Screener questions only: pass, dropout or quota (with `share`, % of the sample). */
  rule: z.enum(OPTION_RULES).default('pass'),
  share: z
    .number(msg('validation.number'))
    .min(0, msg('validation.nonNegative'))
    .max(100, msg('validation.atMost', { max: 100 }))
    .nullable()
    .default(null),
  /** On the question that gives the respondent's sex: the sex this option means (none: neither, e.g. "rather not say"). */
  sex: z.enum(SEXES).nullable().default(null),
});
export type SurveyOption = z.infer<typeof optionSchema>;

export const conditionSchema = z.strictObject({
  /** An earlier question. */
  question: idSchema,
  operator: z.enum(CONDITION_OPERATORS, msg('validation.choice')),
  /** `selected` / `not_selected`: an option id (matrix: `row:option`); `equals` / `greater` / `less`: a number. */
  value: z.union([idSchema, z.string().regex(/^[A-Za-z0-9_-]{1,40}:[A-Za-z0-9_-]{1,40}$/), z.number()]).nullable(),
});
export type Condition = z.infer<typeof conditionSchema>;

export const questionSchema = z.strictObject({
  id: idSchema,
  type: z.enum(QUESTION_TYPES, msg('validation.choice')),
  text: localized(SURVEY_LIMITS.questionChars),
  required: z.boolean().default(false),
  /** Options shown in a random order (per respondent). */
  random_order: z.boolean().default(false),
  /** An "other, please specify" choice with a text (single and multiple choice). */
  other: z.boolean().default(false),
  /** Choices (single, multiple), or the columns of a matrix. */
  options: z
    .array(optionSchema)
    .max(SURVEY_LIMITS.options, msg('validation.maxItems', { max: SURVEY_LIMITS.options }))
    .default([]),
  /** Matrix rows. */
  rows: z
    .array(z.strictObject({ id: idSchema, text: localized(SURVEY_LIMITS.optionChars) }))
    .max(SURVEY_LIMITS.rows, msg('validation.maxItems', { max: SURVEY_LIMITS.rows }))
    .default([]),
  /** Scale: whole steps from `min` to `max`, labelled at both ends; number: the allowed range. */
  min: z.number(msg('validation.number')).nullable().default(null),
  max: z.number(msg('validation.number')).nullable().default(null),
  min_label: localized(SURVEY_LIMITS.optionChars).optional(),
  max_label: localized(SURVEY_LIMITS.optionChars).optional(),
  /** Shown only when the conditions hold (combined by `logic_operator`); no conditions: always shown. */
  conditions: z
    .array(conditionSchema)
    .max(SURVEY_LIMITS.conditions, msg('validation.maxItems', { max: SURVEY_LIMITS.conditions }))
    .default([]),
  logic_operator: z.enum(LOGIC_OPERATORS).default('and'),
  /** The question gives the respondent's sex or age (`QUESTION_PROFILES`). */
  profile: z.enum(QUESTION_PROFILES).nullable().default(null),
});
export type Question = z.infer<typeof questionSchema>;

const surveyFields = {
  type: z.enum(SURVEY_TYPES, msg('validation.choice')),
  title: z
    .string(msg('validation.required'))
    .trim()
    .min(1, msg('validation.required'))
    .max(SURVEY_LIMITS.titleChars, msg('validation.maxChars', { max: SURVEY_LIMITS.titleChars })),
  enabled: z.boolean(),
  questions: z
    .array(questionSchema)
    .max(SURVEY_LIMITS.questions, msg('validation.maxItems', { max: SURVEY_LIMITS.questions })),
};

/** A questionnaire as the editor saves it: checked for its structure here, for its meaning by `surveyProblems`. */
export const surveyBodySchema = z
  .strictObject({
    type: surveyFields.type,
    title: surveyFields.title,
    enabled: surveyFields.enabled.default(true),
    questions: surveyFields.questions.default([]),
  })
  .superRefine((survey, ctx) => {
    for (const problem of surveyProblems(survey)) {
      ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    }
  });
export type SurveyBody = z.infer<typeof surveyBodySchema>;

/** One problem of a questionnaire: where (zod path) and which message. */
export interface SurveyProblem {
  path: (string | number)[];
  message: Message;
}

const CHOICE_TYPES: readonly QuestionType[] = ['single', 'multiple'];

/**
 * What makes a questionnaire unusable, each with its place: repeated ids, choice questions with fewer than two
 * options, a scale or number range that runs backwards (a scale at most `scaleSteps` steps), display logic that
 * refers to a later or unknown question or option, quota shares on a survey, and a screener question whose quota
 * shares add up to less than 100% (spec section 5).
 */
export function surveyProblems(survey: Pick<SurveyBody, 'type' | 'questions'>): SurveyProblem[] {
  const problems: SurveyProblem[] = [];
  const seen = new Map<string, Question>();
  for (const [qi, q] of survey.questions.entries()) {
    const at = (...rest: (string | number)[]) => ['questions', qi, ...rest];
    if (seen.has(q.id)) problems.push({ path: at('id'), message: msg('survey.duplicateId') });
    const optionIds = new Set<string>();
    for (const [oi, o] of q.options.entries()) {
      if (optionIds.has(o.id)) problems.push({ path: at('options', oi, 'id'), message: msg('survey.duplicateId') });
      optionIds.add(o.id);
    }
    const rowIds = new Set<string>();
    for (const [ri, r] of q.rows.entries()) {
      if (rowIds.has(r.id)) problems.push({ path: at('rows', ri, 'id'), message: msg('survey.duplicateId') });
      rowIds.add(r.id);
    }
    if ((CHOICE_TYPES.includes(q.type) || q.type === 'matrix') && q.options.length < 2) {
      problems.push({ path: at('options'), message: msg('survey.optionsTooFew') });
    }
    if (q.type === 'matrix' && q.rows.length < 1)
      problems.push({ path: at('rows'), message: msg('survey.rowsTooFew') });
    if (q.type === 'scale') {
      if (!scaleFits(q))
        problems.push({ path: at('max'), message: msg('survey.scaleRange', { max: SURVEY_LIMITS.scaleSteps }) });
    }
    if (q.type === 'number' && q.min !== null && q.max !== null && q.max < q.min) {
      problems.push({ path: at('max'), message: msg('survey.numberRange') });
    }
    for (const [ci, c] of q.conditions.entries()) {
      const target = seen.get(c.question);
      if (!target) {
        problems.push({ path: at('conditions', ci, 'question'), message: msg('survey.logicEarlier') });
        continue;
      }
      if (!conditionFits(c, target)) {
        problems.push({ path: at('conditions', ci, 'value'), message: msg('validation.choice') });
      }
    }
    const shares = q.options.filter((o) => o.rule === 'quota');
    if (survey.type === 'survey' && q.options.some((o) => o.rule !== 'pass')) {
      problems.push({ path: at('options'), message: msg('survey.rulesScreenerOnly') });
    } else if (shares.length > 0) {
      for (const [oi, o] of q.options.entries()) {
        if (o.rule === 'quota' && (o.share === null || o.share <= 0)) {
          problems.push({ path: at('options', oi, 'share'), message: msg('survey.shareRequired') });
        }
      }
      const sum = quotaShareSum(q);
      if (sum < 100) problems.push({ path: at('options'), message: msg('survey.quotaSum', { sum }) });
    }
    if (q.profile === 'sex' && (q.type !== 'single' || !q.options.some((o) => o.sex !== null))) {
      problems.push({ path: at('profile'), message: msg('survey.profileSex') });
    }
    if (q.profile === 'age' && q.type !== 'number')
      problems.push({ path: at('profile'), message: msg('survey.profileAge') });
    if (q.profile && survey.questions.findIndex((other) => other.profile === q.profile) !== qi) {
      problems.push({ path: at('profile'), message: msg('survey.profileTwice') });
    }
    if (q.profile !== 'sex' && q.options.some((o) => o.sex !== null)) {
      problems.push({ path: at('options'), message: msg('survey.profileSex') });
    }
    seen.set(q.id, q);
  }
  return problems;
}

/** The quota shares of a question's options, added up (%), rounded to 0.01: what the editor shows live. */
export function quotaShareSum(question: Pick<Question, 'options'>): number {
  const sum = question.options.reduce((s, o) => s + (o.rule === 'quota' ? (o.share ?? 0) : 0), 0);
  return Math.round(sum * 100) / 100;
}

/** The condition operators a question of this type takes: none for an information block. */
export function conditionOperators(type: QuestionType): ConditionOperator[] {
  if (type === 'info') return [];
  if (CHOICE_TYPES.includes(type) || type === 'matrix') return ['selected', 'not_selected', 'answered'];
  if (type === 'scale' || type === 'number') return ['equals', 'greater', 'less', 'answered'];
  return ['answered'];
}

/**
 * Whether a condition suits the question it refers to: an operator of its type, and a value that names one of
 * its options (matrix: `row:option`; "other" when it has one) or, for the numeric operators, a number.
 */
export function conditionFits(c: Condition, target: Question): boolean {
  if (!conditionOperators(target.type).includes(c.operator)) return false;
  if (c.operator === 'answered') return true;
  if (c.operator === 'selected' || c.operator === 'not_selected') {
    if (typeof c.value !== 'string') return false;
    if (target.type === 'matrix') {
      const [row, option] = c.value.split(':');
      return target.rows.some((r) => r.id === row) && target.options.some((o) => o.id === option);
    }
    if (c.value === OTHER_OPTION) return target.other;
    return target.options.some((o) => o.id === c.value);
  }
  return typeof c.value === 'number';
}

/** The option id under which an "other, please specify" answer is given. */
export const OTHER_OPTION = 'other';

/**
 * A text in a language, or, when it is missing there, in the first language that has it (the project's fallback
 * order: English, then Russian): what a preview shows of an unfinished translation.
 */
export function textIn(text: LocalizedText | undefined, language: Language): string {
  if (!text) return '';
  const value = text[language].trim();
  if (value) return value;
  for (const other of ['en', 'ru', ...LANGUAGES] as const) {
    const fallback = text[other].trim();
    if (fallback) return fallback;
  }
  return '';
}

/** Every text of a question to translate: the question, its options, its rows and a scale's bound labels. */
export function questionTexts(q: Question): (LocalizedText | undefined)[] {
  const labels = q.type === 'scale' ? [q.min_label, q.max_label] : [];
  return [q.text, ...q.options.map((o) => o.text), ...q.rows.map((r) => r.text), ...labels];
}

/** Languages (of `languages`) in which some text of the questionnaire is missing: flagged before launch. */
export function missingTranslations(survey: Pick<SurveyBody, 'title' | 'questions'>, languages: readonly Language[]) {
  const missing = new Set<Language>();
  const check = (text: LocalizedText | undefined) => {
    if (!text) return;
    for (const l of languages) if (!text[l]) missing.add(l);
  };
  for (const q of survey.questions) for (const text of questionTexts(q)) check(text);
  return LANGUAGES.filter((l) => missing.has(l));
}

// ---------------------------------------------------------------------------------------------------------------
// Cabinet API

/** POST /api/cabinet/surveys/ */
export const createSurveyInput = surveyBodySchema;

/**
 * PATCH /api/cabinet/surveys/{id}/ — the whole questionnaire as the editor holds it, with the `updated_at` it was
 * read at (a questionnaire changed meanwhile answers 409). The type never changes; `surveyProblems` runs in the
 * service with the stored type.
 */
export const updateSurveyInput = z.strictObject({
  title: surveyFields.title,
  enabled: surveyFields.enabled,
  questions: surveyFields.questions,
  updated_at: z.iso.datetime({ offset: true, error: msg('validation.versionRequired') }),
});

export const SURVEY_SLOTS = ['screener', 'survey'] as const;
export type SurveySlot = (typeof SURVEY_SLOTS)[number];

/** Where a questionnaire is used: a scenario's screener or survey slot. */
export const surveyLinkSchema = z.object({
  scenario_id: z.string(),
  scenario_order: z.number(),
  project_id: z.string(),
  project_title: z.string(),
  project_status: z.string(),
  slot: z.enum(SURVEY_SLOTS),
});

export const surveyOutput = z.object({
  id: z.string(),
  type: z.enum(SURVEY_TYPES),
  title: z.string(),
  enabled: z.boolean(),
  questions: z.array(questionSchema),
  links: z.array(surveyLinkSchema),
  /** Respondent languages of the linked projects in which a text is missing (flagged before launch). */
  missing_translations: z.array(z.enum(LANGUAGES)),
  /** Linked to a launched (or completed, archived) project: answers may exist, so it cannot change. */
  frozen: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  /** What the current user may do: edit (not frozen), delete (not linked), copy. */
  can: z.object({ edit: z.boolean(), delete: z.boolean(), copy: z.boolean() }),
});
export type Survey = z.infer<typeof surveyOutput>;

/** GET /api/cabinet/surveys/ — the user's questionnaires (staff: everyone's), newest change first. */
export const surveyListQuery = z.strictObject({ type: z.enum(SURVEY_TYPES).optional() });
export const surveyListItem = surveyOutput.omit({ questions: true }).extend({ question_count: z.number() });
export const surveyListOutput = z.object({ items: z.array(surveyListItem) });
