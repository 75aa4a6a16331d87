import { parseMessage, type Question, surveyBodySchema } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import {
  createSurveyReducer,
  draftProblems,
  droppedConditions,
  missingCounts,
  type SurveyAction,
  type SurveyDraft,
} from './survey-draft.ts';
import { testOption, testQuestion } from './test-question.ts';

/** A reducer whose new ids count up (1, 2, 3, …), so that tests can name them. */
function counted() {
  let n = 0;
  return createSurveyReducer(() => String(++n));
}

const text = (en: string) => ({ ru: `ru ${en}`, en, id: `id ${en}`, ko: `ko ${en}` });
const option = (id: string) => testOption(id, text(id));

const question = (id: string, extra: Partial<Question> = {}) => testQuestion(id, text, extra);

/** brand (single a/b) → age (number) → why (shown when brand = b, or age > 30). */
function sample(): SurveyDraft {
  return {
    title: 'Habits',
    enabled: true,
    questions: [
      question('brand'),
      question('age', { type: 'number', options: [], min: 18, max: 99 }),
      question('why', {
        type: 'text',
        options: [],
        logic_operator: 'or',
        conditions: [
          { question: 'brand', operator: 'selected', value: 'b' },
          { question: 'age', operator: 'greater', value: 30 },
        ],
      }),
    ],
  };
}

const ids = (draft: SurveyDraft) => draft.questions.map((q) => q.id);
const run = (draft: SurveyDraft, ...actions: SurveyAction[]) => {
  const reduce = counted();
  return actions.reduce(reduce, draft);
};

describe('the questionnaire editor state', () => {
  it('adds questions of every type with what the type needs, valid for the contracts once worded', () => {
    const reduce = counted();
    let draft: SurveyDraft = { title: 'All', enabled: true, questions: [] };
    for (const type of ['single', 'multiple', 'scale', 'number', 'text', 'matrix', 'info'] as const) {
      draft = reduce(draft, { type: 'addQuestion', questionType: type });
    }
    const [single, , scale, , , matrix, info] = draft.questions;
    expect(new Set(ids(draft)).size).toBe(7);
    expect(single?.options).toHaveLength(2);
    expect(scale).toMatchObject({ min: 1, max: 5, min_label: { ru: '' }, max_label: { en: '' } });
    expect(matrix?.rows).toHaveLength(1);
    expect(matrix?.options).toHaveLength(2);
    expect(info?.required).toBe(false);
    expect(draftProblems('survey', draft)).toEqual(new Map());
    expect(surveyBodySchema.safeParse({ type: 'survey', ...draft }).success).toBe(true);
  });

  it('reorders questions, and drops the conditions that would refer to a later question', () => {
    const draft = sample();
    const moved = run(draft, { type: 'moveQuestion', from: 2, to: 0 });
    expect(ids(moved)).toEqual(['why', 'brand', 'age']);
    expect(moved.questions[0]?.conditions).toEqual([]);
    expect(droppedConditions(draft, { type: 'moveQuestion', from: 2, to: 0 }, moved)).toBe(2);

    // Moving `brand` below `why` drops only the condition on `brand`.
    const brandDown = run(draft, { type: 'moveQuestion', from: 0, to: 2 });
    expect(ids(brandDown)).toEqual(['age', 'why', 'brand']);
    expect(brandDown.questions[1]?.conditions).toEqual([{ question: 'age', operator: 'greater', value: 30 }]);

    // A move that keeps the order of the referred questions keeps the logic.
    const ageUp = run(draft, { type: 'moveQuestion', from: 1, to: 0 });
    expect(ids(ageUp)).toEqual(['age', 'brand', 'why']);
    expect(ageUp.questions[2]?.conditions).toHaveLength(2);
    // Out of range: nothing changes.
    expect(run(draft, { type: 'moveQuestion', from: 0, to: 5 })).toBe(draft);
  });

  it('deletes a question with the conditions that referred to it', () => {
    const draft = run(sample(), { type: 'removeQuestion', id: 'brand' });
    expect(ids(draft)).toEqual(['age', 'why']);
    expect(draft.questions[1]?.conditions).toEqual([{ question: 'age', operator: 'greater', value: 30 }]);
  });

  it('duplicates a question right after it, with new ids for it, its options and rows', () => {
    const base = sample();
    base.questions.push(
      question('grid', { type: 'matrix', rows: [{ id: 'r1', text: text('r1') }], options: [option('x'), option('y')] }),
    );
    const draft = run(base, { type: 'duplicateQuestion', id: 'brand' }, { type: 'duplicateQuestion', id: 'grid' });
    expect(ids(draft)).toEqual(['brand', 'q1', 'age', 'why', 'grid', 'q4']);
    const [brand, copy] = draft.questions;
    expect(copy?.text).toEqual(brand?.text);
    expect(copy?.text).not.toBe(brand?.text);
    expect(copy?.options.map((o) => o.id)).toEqual(['o2', 'o3']);
    expect(copy?.options.map((o) => o.text.en)).toEqual(['a', 'b']);
    expect(draft.questions[5]?.rows.map((r) => r.id)).toEqual(['r7']);
    expect(draft.questions[5]?.options.map((o) => o.id)).toEqual(['o5', 'o6']);
    // The condition on the original still refers to the original.
    expect(draft.questions[3]?.conditions[0]).toEqual({ question: 'brand', operator: 'selected', value: 'b' });
    // Editing the copy leaves the original alone.
    const edited = run(draft, { type: 'setQuestionText', id: 'q1', field: 'text', language: 'en', value: 'Copy' });
    expect(edited.questions[0]?.text.en).toBe('brand');
    expect(edited.questions[1]?.text).toEqual({ ...text('brand'), en: 'Copy' });
  });

  it('new ids never repeat one in use', () => {
    let n = 0;
    // The generator first offers ids that are taken.
    const reduce = createSurveyReducer(() => ['brand', 'brand', 'x'][n++] ?? String(n));
    const draft = reduce(
      { ...sample(), questions: [question('qbrand')] },
      { type: 'addQuestion', questionType: 'text' },
    );
    expect(ids(draft)).toEqual(['qbrand', 'qx']);
  });

  it('drops a condition when the option it names is removed, or "other" is turned off', () => {
    const base = sample();
    const why = base.questions[2];
    if (why) why.conditions.push({ question: 'brand', operator: 'selected', value: 'other' });
    const withOther = run(base, { type: 'setQuestionFlags', id: 'brand', flags: { other: true } });
    expect(withOther.questions[2]?.conditions).toHaveLength(3);
    const noOther = run(withOther, { type: 'setQuestionFlags', id: 'brand', flags: { other: false } });
    expect(noOther.questions[2]?.conditions).toHaveLength(2);
    const noB = run(noOther, { type: 'removeItem', id: 'brand', list: 'options', itemId: 'b' });
    expect(noB.questions[2]?.conditions).toEqual([{ question: 'age', operator: 'greater', value: 30 }]);
  });

  it('changes a question type keeping what applies, and drops conditions the new type cannot answer', () => {
    const draft = run(sample(), { type: 'setQuestionType', id: 'brand', questionType: 'multiple' });
    expect(draft.questions[0]?.options.map((o) => o.id)).toEqual(['a', 'b']);
    expect(draft.questions[2]?.conditions).toHaveLength(2);

    const scale = run(draft, { type: 'setQuestionType', id: 'age', questionType: 'scale' });
    // 18–99 is no scale: it starts again at 1–5, with labels.
    expect(scale.questions[1]).toMatchObject({ type: 'scale', min: 1, max: 5, min_label: { en: '' } });
    expect(scale.questions[2]?.conditions).toHaveLength(2);

    const asText = run(scale, { type: 'setQuestionType', id: 'brand', questionType: 'text' });
    expect(asText.questions[0]).toMatchObject({ type: 'text', options: [], other: false });
    expect(asText.questions[2]?.conditions).toEqual([{ question: 'age', operator: 'greater', value: 30 }]);
    const back = run(asText, { type: 'setQuestionType', id: 'age', questionType: 'number' });
    expect(back.questions[1]).not.toHaveProperty('min_label');
  });

  it('keeps a condition whose value is not chosen yet, and the problems say so', () => {
    const draft = run(sample(), { type: 'addCondition', id: 'why' });
    // The new condition is on the nearest earlier question.
    expect(draft.questions[2]?.conditions[2]).toEqual({ question: 'age', operator: 'equals', value: null });
    expect(draftProblems('survey', draft).get('questions.2.conditions.2.value')).toBeDefined();
    // The first question has nothing earlier to refer to.
    expect(run(draft, { type: 'addCondition', id: 'brand' }).questions[0]?.conditions).toEqual([]);
  });

  it('quota rules: a share is kept for quota only, and the sum below 100% is a problem of the options', () => {
    let draft = run(
      sample(),
      { type: 'setOptionRule', id: 'brand', optionId: 'a', rule: 'quota' },
      { type: 'setOptionShare', id: 'brand', optionId: 'a', share: 50 },
    );
    const sumProblem = () => parseMessage(draftProblems('screener', draft).get('questions.0.options') ?? '');
    expect(sumProblem()).toEqual({ key: 'survey.quotaSum', params: { sum: 50 } });
    draft = run(
      draft,
      { type: 'setOptionRule', id: 'brand', optionId: 'b', rule: 'quota' },
      { type: 'setOptionShare', id: 'brand', optionId: 'b', share: 50 },
    );
    expect(sumProblem()).toBeUndefined();
    draft = run(draft, { type: 'setOptionRule', id: 'brand', optionId: 'b', rule: 'dropout' });
    expect(draft.questions[0]?.options[1]).toMatchObject({ rule: 'dropout', share: null });
    // In a survey, rules are refused.
    expect(parseMessage(draftProblems('survey', draft).get('questions.0.options') ?? '')?.key).toBe(
      'survey.rulesScreenerOnly',
    );
  });

  it('reorders options and rows', () => {
    const draft = run(
      sample(),
      { type: 'addItem', id: 'brand', list: 'options' },
      { type: 'moveItem', id: 'brand', list: 'options', from: 2, to: 0 },
    );
    expect(draft.questions[0]?.options.map((o) => o.id)).toEqual(['o1', 'a', 'b']);
  });

  it('counts the missing texts per language and flags a missing title', () => {
    const draft = run(
      sample(),
      { type: 'setQuestionText', id: 'brand', field: 'text', language: 'ko', value: '' },
      { type: 'addItem', id: 'brand', list: 'options' },
      { type: 'setItemText', id: 'brand', list: 'options', itemId: 'o1', language: 'ru', value: 'Другое' },
      { type: 'setTitle', title: '  ' },
    );
    expect(missingCounts(draft)).toEqual({ ru: 0, en: 1, id: 1, ko: 2 });
    expect(parseMessage(draftProblems('survey', draft).get('title') ?? '')?.key).toBe('validation.required');
  });
});
