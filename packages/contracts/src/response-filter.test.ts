import { describe, expect, it } from 'vitest';
import { parseMessage } from './messages.ts';
import { activeFilterCount, EMPTY_RESPONSE_FILTER, responseFilterSchema } from './response-filter.ts';

const issues = (input: unknown) => {
  const parsed = responseFilterSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join('.'), parseMessage(i.message)?.key]);
};

describe('the response filter', () => {
  it('takes everyone when empty, and counts the parts that narrow it', () => {
    expect(EMPTY_RESPONSE_FILTER).toEqual({ sex: 'off', age_min: null, age_max: null, statuses: [], answers: [] });
    expect(activeFilterCount(EMPTY_RESPONSE_FILTER)).toBe(0);
    const survey_id = '6f1c2b8e-3d4a-4f5b-9c6d-7e8f9a0b1c2d';
    const full = responseFilterSchema.parse({
      sex: 'woman',
      age_max: 40,
      statuses: ['completed'],
      answers: [
        { survey_id, question: 'q1', operator: 'selected', value: 'a' },
        { survey_id, question: 'q2', operator: 'greater', value: 3 },
      ],
    });
    expect(activeFilterCount(full)).toBe(5);
  });

  it('refuses what it cannot read, with a message per field', () => {
    expect(issues({ age_min: 40, age_max: 30 })).toEqual([['age_max', 'filter.ageRange']]);
    expect(issues({ age_min: -1 })).toEqual([['age_min', 'validation.between']]);
    expect(issues({ age_max: 121 })).toEqual([['age_max', 'validation.between']]);
    expect(issues({ sex: 'x' })).toEqual([['sex', 'validation.choice']]);
    expect(issues({ statuses: ['nope'] })).toEqual([['statuses.0', 'validation.choice']]);
    expect(issues({ answers: [{ survey_id: 'x', question: 'q', operator: 'answered', value: null }] })).toEqual([
      ['answers.0.survey_id', 'validation.invalid'],
    ]);
    const many = Array.from({ length: 11 }, () => ({
      survey_id: '6f1c2b8e-3d4a-4f5b-9c6d-7e8f9a0b1c2d',
      question: 'q',
      operator: 'answered',
      value: null,
    }));
    expect(issues({ answers: many })).toEqual([['answers', 'validation.maxItems']]);
    expect(responseFilterSchema.safeParse({ city: 'Oslo' }).success).toBe(false);
  });
});
