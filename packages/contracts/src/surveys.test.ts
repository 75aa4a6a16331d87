import { describe, expect, it } from 'vitest';
import { parseMessage } from './messages.ts';
import {
  type Answers,
  checkAnswers,
  quotaCapacity,
  respondentAnswersInput,
  respondentProfile,
  screenerOutcome,
  visibleQuestions,
} from './survey-answers.ts';
import { missingTranslations, OTHER_OPTION, type Question, quotaShareSum, surveyBodySchema } from './surveys.ts';

const text = (en: string) => ({ en, ru: `ru ${en}` });
const option = (id: string, extra: Record<string, unknown> = {}) => ({ id, text: text(id), ...extra });

/** A questionnaire through the editor's schema, as the server stores it. */
function survey(type: 'screener' | 'survey', questions: Record<string, unknown>[]) {
  return surveyBodySchema.safeParse({ type, title: 'Q', questions });
}
function questions(type: 'screener' | 'survey', list: Record<string, unknown>[]): Question[] {
  const parsed = survey(type, list);
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues));
  return parsed.data.questions;
}
/** The issues of a refused questionnaire as (path, message key) pairs. */
function problems(type: 'screener' | 'survey', list: Record<string, unknown>[]) {
  const parsed = survey(type, list);
  if (parsed.success) return [];
  return parsed.error.issues.map((i) => [i.path.join('.'), parseMessage(i.message)?.key ?? i.message]);
}

const everyType = [
  { id: 'age', type: 'number', text: text('Age'), required: true, min: 18, max: 99 },
  {
    id: 'brand',
    type: 'single',
    text: text('Brand'),
    required: true,
    other: true,
    options: [option('a'), option('b')],
  },
  {
    id: 'why',
    type: 'text',
    text: text('Why b?'),
    required: true,
    conditions: [{ question: 'brand', operator: 'selected', value: 'b' }],
  },
  { id: 'like', type: 'scale', text: text('Like'), min: 1, max: 5, min_label: text('no'), max_label: text('yes') },
  { id: 'uses', type: 'multiple', text: text('Uses'), options: [option('x'), option('y'), option('z')] },
  {
    id: 'grid',
    type: 'matrix',
    text: text('Grid'),
    required: true,
    rows: [
      { id: 'r1', text: text('r1') },
      { id: 'r2', text: text('r2') },
    ],
    options: [option('good'), option('bad')],
  },
  { id: 'bye', type: 'info', text: text('Thanks') },
];

describe('a questionnaire', () => {
  it('takes every question type', () => {
    expect(questions('survey', everyType).map((q) => q.type)).toEqual([
      'number',
      'single',
      'text',
      'scale',
      'multiple',
      'matrix',
      'info',
    ]);
  });

  it('refuses repeated ids, too few options, a backwards or too long scale, logic on later questions', () => {
    expect(
      problems('survey', [
        { id: 'q1', type: 'single', text: text('a'), options: [option('o'), option('o')] },
        { id: 'q1', type: 'multiple', text: text('b'), options: [option('o')] },
        { id: 's', type: 'scale', text: text('s'), min: 1, max: 20 },
        { id: 'n', type: 'number', text: text('n'), min: 5, max: 1 },
        {
          id: 'l',
          type: 'text',
          text: text('l'),
          conditions: [{ question: 'later', operator: 'answered', value: null }],
        },
        { id: 'later', type: 'text', text: text('later') },
        {
          id: 'm',
          type: 'text',
          text: text('m'),
          conditions: [{ question: 'q1', operator: 'selected', value: 'nope' }],
        },
      ]),
    ).toEqual([
      ['questions.0.options.1.id', 'survey.duplicateId'],
      ['questions.1.id', 'survey.duplicateId'],
      ['questions.1.options', 'survey.optionsTooFew'],
      ['questions.2.max', 'survey.scaleRange'],
      ['questions.3.max', 'survey.numberRange'],
      ['questions.4.conditions.0.question', 'survey.logicEarlier'],
      ['questions.6.conditions.0.value', 'validation.choice'],
    ]);
  });

  it('keeps screener rules to screeners, and wants the quota shares of a question to reach 100%', () => {
    const quotaQuestion = (shares: number[]) => ({
      id: 'sex',
      type: 'single',
      text: text('Sex'),
      options: shares.map((share, i) => option(`o${i}`, { rule: 'quota', share })),
    });
    expect(problems('screener', [quotaQuestion([50, 50])])).toEqual([]);
    expect(problems('screener', [quotaQuestion([40, 50])])).toEqual([['questions.0.options', 'survey.quotaSum']]);
    expect(problems('survey', [quotaQuestion([50, 50])])).toEqual([
      ['questions.0.options', 'survey.rulesScreenerOnly'],
    ]);
    expect(
      quotaShareSum({ options: questions('screener', [quotaQuestion([33.33, 33.33, 33.34])])[0]?.options ?? [] }),
    ).toBe(100);
    // A dropout question needs no shares.
    expect(
      problems('screener', [
        { id: 'q', type: 'single', text: text('q'), options: [option('yes'), option('no', { rule: 'dropout' })] },
      ]),
    ).toEqual([]);
  });

  it("lets one single choice give the respondent's sex (options saying which) and one number question the age", () => {
    const sex = {
      id: 'sex',
      type: 'single',
      text: text('Sex'),
      profile: 'sex',
      options: [option('m', { sex: 'man' }), option('f', { sex: 'woman' }), option('n')],
    };
    const age = { id: 'age', type: 'number', text: text('Age'), profile: 'age' };
    expect(problems('survey', [sex, age])).toEqual([]);
    expect(problems('survey', [{ ...sex, type: 'multiple' }])).toEqual([['questions.0.profile', 'survey.profileSex']]);
    expect(problems('survey', [{ ...sex, options: [option('m'), option('f')] }])).toEqual([
      ['questions.0.profile', 'survey.profileSex'],
    ]);
    expect(problems('survey', [{ ...sex, profile: null }])).toEqual([['questions.0.options', 'survey.profileSex']]);
    expect(problems('survey', [{ ...age, type: 'text' }])).toEqual([['questions.0.profile', 'survey.profileAge']]);
    expect(problems('survey', [age, { ...age, id: 'age2' }])).toEqual([['questions.1.profile', 'survey.profileTwice']]);

    const list = questions('survey', [sex, age]);
    expect(respondentProfile(list, { sex: { choices: ['f'] }, age: { number: 34 } })).toEqual({
      sex: 'woman',
      age: 34,
    });
    expect(respondentProfile(list, { sex: { choices: ['n'] }, age: { number: 34.5 } })).toEqual({
      sex: null,
      age: null,
    });
    // Only what the questionnaire asks: another questionnaire's answer stays.
    expect(respondentProfile(questions('survey', [age]), { age: { number: 150 } })).toEqual({ age: null });
    expect(respondentProfile(questions('survey', [everyType[0] as Record<string, unknown>]), {})).toEqual({});
  });

  it('names the respondent languages with a text missing', () => {
    const list = questions('survey', everyType);
    expect(missingTranslations({ title: 'Q', questions: list }, ['ru', 'en'])).toEqual([]);
    expect(missingTranslations({ title: 'Q', questions: list }, ['ru', 'en', 'ko'])).toEqual(['ko']);
  });
});

describe('display logic', () => {
  const list = () =>
    questions('survey', [
      { id: 'a', type: 'single', text: text('a'), options: [option('yes'), option('no')] },
      { id: 'n', type: 'number', text: text('n') },
      {
        id: 'both',
        type: 'text',
        text: text('both'),
        conditions: [
          { question: 'a', operator: 'selected', value: 'yes' },
          { question: 'n', operator: 'greater', value: 10 },
        ],
      },
      {
        id: 'either',
        type: 'text',
        text: text('either'),
        logic_operator: 'or',
        conditions: [
          { question: 'a', operator: 'selected', value: 'yes' },
          { question: 'n', operator: 'less', value: 0 },
        ],
      },
      // Shown when "both" was answered: hidden whenever "both" is.
      {
        id: 'cascade',
        type: 'text',
        text: text('c'),
        conditions: [{ question: 'both', operator: 'answered', value: null }],
      },
    ]);
  const shown = (answers: Answers) => visibleQuestions(list(), answers).map((q) => q.id);

  it('combines conditions with AND and OR, and hides what depends on a hidden question', () => {
    expect(shown({})).toEqual(['a', 'n']);
    expect(shown({ a: { choices: ['yes'] }, n: { number: 5 } })).toEqual(['a', 'n', 'either']);
    expect(shown({ a: { choices: ['yes'] }, n: { number: 11 } })).toEqual(['a', 'n', 'both', 'either']);
    expect(shown({ a: { choices: ['no'] }, n: { number: -1 } })).toEqual(['a', 'n', 'either']);
    expect(shown({ a: { choices: ['yes'] }, n: { number: 11 }, both: { text: 'x' } })).toContain('cascade');
    // The answer to "both" stays but "both" is hidden: "cascade" goes with it.
    expect(shown({ a: { choices: ['no'] }, n: { number: 11 }, both: { text: 'x' } })).toEqual(['a', 'n']);
  });
});

describe('answers', () => {
  const list = () => questions('survey', everyType);
  const complete: Answers = {
    age: { number: 30 },
    brand: { choices: ['a'] },
    like: { number: 4 },
    uses: { choices: ['x', 'z'] },
    grid: { rows: { r1: 'good', r2: 'bad' } },
  };
  const check = (answers: Answers, done = true) =>
    checkAnswers(list(), answers, { complete: done }).map((p) => [p.question, parseMessage(p.message)?.key]);

  it('accepts a complete, consistent set', () => {
    expect(check(complete)).toEqual([]);
  });

  it('wants every shown required question, each matrix row included, but not hidden ones', () => {
    expect(check({ ...complete, age: { number: Number.NaN } }, false)).toEqual([]);
    expect(check({ brand: { choices: ['a'] } })).toEqual([
      ['age', 'validation.required'],
      ['grid', 'validation.required'],
    ]);
    expect(check({ ...complete, grid: { rows: { r1: 'good' } } })).toEqual([['grid', 'validation.required']]);
    // "why" is required but only shown for brand b.
    expect(check({ ...complete, brand: { choices: ['b'] } })).toEqual([['why', 'validation.required']]);
    expect(check({ ...complete, brand: { choices: ['b'] }, why: { text: '   ' } })).toEqual([
      ['why', 'validation.required'],
    ]);
    // While answering, missing answers are fine.
    expect(check({ brand: { choices: ['a'] } }, false)).toEqual([]);
  });

  it('refuses answers that do not fit the questionnaire', () => {
    expect(
      check(
        {
          ...complete,
          ghost: { text: 'x' },
          why: { text: 'hidden for brand a' },
          age: { number: 12 },
          like: { number: 3.5 },
          uses: { choices: ['x', 'x'] },
          grid: { rows: { r1: 'good', r9: 'bad' } },
          bye: { text: 'x' },
        },
        false,
      ),
    ).toEqual([
      ['age', 'validation.between'],
      ['like', 'validation.wholeNumber'],
      ['uses', 'validation.choice'],
      ['grid', 'validation.choice'],
      ['ghost', 'survey.unknownQuestion'],
      ['why', 'survey.hiddenQuestion'],
      ['bye', 'validation.invalid'],
    ]);
    expect(check({ ...complete, brand: { choices: ['a', 'b'] } }, false)).toEqual([['brand', 'validation.choice']]);
    expect(check({ ...complete, brand: { number: 1 } })).toEqual([['brand', 'validation.invalid']]);
    expect(check({ ...complete, brand: { choices: [OTHER_OPTION] } })).toEqual([['brand', 'survey.otherText']]);
    expect(check({ ...complete, brand: { choices: [OTHER_OPTION], other_text: 'c' } })).toEqual([]);
  });

  it('takes strict, small input from a respondent', () => {
    const ok = respondentAnswersInput.safeParse({ answers: complete });
    expect(ok.success).toBe(true);
    const bad = (body: unknown) => respondentAnswersInput.safeParse(body).success;
    expect(bad({ answers: { age: { text: 'x'.repeat(100_000) } } })).toBe(false);
    expect(bad({ answers: { age: { number: 1, text: 'both' } } })).toBe(false);
    expect(bad({ answers: { 'bad id!': { number: 1 } } })).toBe(false);
    expect(bad({ answers: {}, extra: true })).toBe(false);
    expect(bad({ answers: { age: { number: Number.POSITIVE_INFINITY } } })).toBe(false);
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`q${i}`, { number: 1 }]));
    expect(bad({ answers: many })).toBe(false);
  });
});

describe('screener outcome', () => {
  const list = () =>
    questions('screener', [
      { id: 'work', type: 'single', text: text('work'), options: [option('no'), option('ads', { rule: 'dropout' })] },
      {
        id: 'sex',
        type: 'single',
        text: text('sex'),
        options: [option('m', { rule: 'quota', share: 50 }), option('f', { rule: 'quota', share: 50 })],
      },
    ]);

  it('screens out on a dropout option, else names the quota options chosen', () => {
    expect(screenerOutcome(list(), { work: { choices: ['ads'] }, sex: { choices: ['m'] } })).toEqual({
      outcome: 'dropout',
      quotas: [],
    });
    expect(screenerOutcome(list(), { work: { choices: ['no'] }, sex: { choices: ['f'] } })).toEqual({
      outcome: 'pass',
      quotas: [{ question: 'sex', option: 'f', share: 50 }],
    });
  });

  it('gives each quota option its share of the sample, never rounding a share to nobody', () => {
    expect(quotaCapacity(50, 100)).toBe(50);
    expect(quotaCapacity(33.33, 100)).toBe(34);
    expect(quotaCapacity(1, 10)).toBe(1);
    expect(quotaCapacity(50, 3)).toBe(2);
  });
});
