import { z } from 'zod';
import { msg } from './messages.ts';
import { RESPONDENT_SESSION_STATUSES } from './respondent.ts';
import { conditionSchema, SEXES } from './surveys.ts';

/**
 * Which respondents a statistic or a report counts (issue 12 item 5; reports use the same): one definition, read
 * by one query builder on the server (`modules/responses`). Every part narrows; an empty filter takes every
 * respondent of the research (previews never count).
 */

/** The gender filter of the spec (section 2): man, woman, or off. */
export const SEX_FILTERS = [...SEXES, 'off'] as const;
export type SexFilter = (typeof SEX_FILTERS)[number];

export const RESPONSE_FILTER_LIMITS = { answers: 10, minAge: 0, maxAge: 120 } as const;

const age = z
  .number(msg('validation.number'))
  .int(msg('validation.wholeNumber'))
  .min(RESPONSE_FILTER_LIMITS.minAge, msg('validation.between', { first: 0, second: 120 }))
  .max(RESPONSE_FILTER_LIMITS.maxAge, msg('validation.between', { first: 0, second: 120 }))
  .nullable()
  .default(null);

/**
 * An answer condition: a question of a questionnaire (screener or survey), with the operators and values of the
 * display logic (`conditionSchema`), so "selected option x", "number greater than 30", "answered".
 */
export const answerFilterSchema = conditionSchema.extend({ survey_id: z.uuid(msg('validation.invalid')) });
export type AnswerFilter = z.infer<typeof answerFilterSchema>;

export const responseFilterSchema = z
  .strictObject({
    /** The respondent's sex as the questionnaires' sex question gives it; `off`: everyone. */
    sex: z.enum(SEX_FILTERS, msg('validation.choice')).default('off'),
    /** Age in whole years, both ends included, as the age question gives it; a bound set leaves out unknown ages. */
    age_min: age,
    age_max: age,
    /** Session statuses taken; none: all. */
    statuses: z
      .array(z.enum(RESPONDENT_SESSION_STATUSES, msg('validation.choice')))
      .max(5)
      .default([]),
    /** Answer conditions, all of which must hold. */
    answers: z
      .array(answerFilterSchema)
      .max(RESPONSE_FILTER_LIMITS.answers, msg('validation.maxItems', { max: RESPONSE_FILTER_LIMITS.answers }))
      .default([]),
  })
  .superRefine((f, ctx) => {
    if (f.age_min !== null && f.age_max !== null && f.age_min > f.age_max) {
      ctx.addIssue({ code: 'custom', path: ['age_max'], message: msg('filter.ageRange') });
    }
  });
export type ResponseFilter = z.infer<typeof responseFilterSchema>;
export type ResponseFilterInput = z.input<typeof responseFilterSchema>;

/** The filter that takes everyone. */
export const EMPTY_RESPONSE_FILTER: ResponseFilter = responseFilterSchema.parse({});

/** How many parts of a filter narrow it (what the filter button shows). */
export function activeFilterCount(f: ResponseFilter): number {
  return (
    (f.sex !== 'off' ? 1 : 0) +
    (f.age_min !== null || f.age_max !== null ? 1 : 0) +
    (f.statuses.length ? 1 : 0) +
    f.answers.length
  );
}
