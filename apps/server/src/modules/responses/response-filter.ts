import { conditionFits, type MessageRef, type ResponseFilter } from '@emolens/contracts';
import type { SurveyRow } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';

/**
 * An answer filter must name a question of the research's questionnaires with an operator and value that suit it
 * (as display logic must): otherwise 400 with the field's message, never an SQL error or a silent empty result.
 * `prefix` is where the filter sits in the request body.
 */
export function checkAnswerFilters(
  filter: ResponseFilter,
  surveys: readonly (SurveyRow | undefined)[],
  prefix = 'filter',
): void {
  const fields: Record<string, MessageRef> = {};
  filter.answers.forEach((c, i) => {
    const survey = surveys.find((s) => s?.id === c.survey_id);
    const question = survey?.questions.find((q) => q.id === c.question);
    if (!question) fields[`${prefix}.answers.${i}.question`] = { key: 'survey.unknownQuestion' };
    else if (!conditionFits(c, question)) fields[`${prefix}.answers.${i}.value`] = { key: 'validation.choice' };
  });
  if (Object.keys(fields).length) throw new AppError('validation_failed', { fields });
}
