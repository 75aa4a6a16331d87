import type { LocalizedText, Question, SurveyOption } from '@emolens/contracts';

/** A plain screener option for the surveys' tests: passes, no quota, no sex. */
export const testOption = (id: string, text: LocalizedText): SurveyOption => ({
  id,
  text,
  rule: 'pass',
  share: null,
  sex: null,
});

/**
 * A required single-choice question for the surveys' tests, with options a and b; `text` makes its texts (the
 * options' from `optionText`, by default their ids).
 */
export function testQuestion(
  id: string,
  text: (s: string) => LocalizedText,
  extra: Partial<Question> = {},
  optionText: (optionId: string) => string = (o) => o,
): Question {
  return {
    id,
    type: 'single',
    text: text(id),
    required: true,
    random_order: false,
    other: false,
    options: ['a', 'b'].map((o) => testOption(o, text(optionText(o)))),
    rows: [],
    min: null,
    max: null,
    conditions: [],
    logic_operator: 'and',
    profile: null,
    ...extra,
  };
}
