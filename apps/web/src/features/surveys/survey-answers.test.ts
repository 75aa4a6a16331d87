import {
  CONDITION_OPERATORS,
  LANGUAGES,
  OPTION_RULES,
  parseMessage,
  QUESTION_TYPES,
  type Question,
  SURVEY_SLOTS,
  SURVEY_TYPES,
  textIn,
} from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { englishT, missingKeys } from '../../i18n/locale-tree.ts';
import { completeProblems, shownAnswers, shuffled, withAnswer } from './survey-answers.ts';
import { testQuestion } from './test-question.ts';

const text = (en: string, ru = '') => ({ ru, en, id: '', ko: '' });

const q = (id: string, extra: Partial<Question> = {}) => testQuestion(id, text, extra, (o) => o.toUpperCase());

describe('the respondent form helpers', () => {
  it('shows a missing translation in English, then Russian', () => {
    expect(textIn(text('Brand', 'Бренд'), 'ru')).toBe('Бренд');
    expect(textIn(text('Brand', 'Бренд'), 'ko')).toBe('Brand');
    expect(textIn(text('', 'Бренд'), 'id')).toBe('Бренд');
    expect(textIn(undefined, 'en')).toBe('');
  });

  it('a random order is fixed by its seed, differs between seeds, and keeps every item', () => {
    const items = Array.from({ length: 12 }, (_, i) => i);
    expect(shuffled(items, 'session-1:q1')).toEqual(shuffled(items, 'session-1:q1'));
    expect(shuffled(items, 'session-1:q1')).not.toEqual(shuffled(items, 'session-2:q1'));
    expect([...shuffled(items, 'x')].sort((a, b) => a - b)).toEqual(items);
    // Over many seeds, every item comes first sometimes.
    const firsts = new Set(Array.from({ length: 200 }, (_, s) => shuffled(items, `s${s}`)[0]));
    expect(firsts.size).toBe(items.length);
  });

  it('an emptied answer is removed, so that a required question stays unanswered', () => {
    let answers = withAnswer({}, 'brand', { choices: ['a'] });
    expect(answers).toEqual({ brand: { choices: ['a'] } });
    answers = withAnswer(answers, 'brand', { choices: [] });
    expect(answers).toEqual({});
    expect(withAnswer({}, 'why', { text: '' })).toEqual({});
    expect(withAnswer({}, 'age', null)).toEqual({});
    expect(withAnswer({}, 'age', { number: 0 })).toEqual({ age: { number: 0 } });
  });

  it('submits only the answers of the questions shown, and checks them complete', () => {
    const questions = [
      q('brand', { other: true }),
      q('why', { type: 'text', options: [], conditions: [{ question: 'brand', operator: 'selected', value: 'b' }] }),
      q('age', { type: 'number', options: [], min: 18, max: 99 }),
    ];
    // `why` was answered while `b` was chosen, then the respondent chose `a`: the answer is not sent.
    const answers = { brand: { choices: ['a'] }, why: { text: 'because' }, age: { number: 30 } };
    expect(shownAnswers(questions, answers)).toEqual({ brand: { choices: ['a'] }, age: { number: 30 } });
    expect(completeProblems(questions, answers)).toEqual(new Map());

    const problems = completeProblems(questions, { brand: { choices: ['other'] }, age: { number: 12 } });
    expect(parseMessage(problems.get('brand') ?? '')?.key).toBe('survey.otherText');
    expect(parseMessage(problems.get('age') ?? '')).toEqual({
      key: 'validation.between',
      params: { first: 18, second: 99 },
    });
    const missing = completeProblems(questions, { brand: { choices: ['b'] } });
    expect([...missing.keys()]).toEqual(['why', 'age']);
  });
});

/** Keys the questionnaire pages build from the contracts' values (the locale test sees literal keys only). */
const DYNAMIC_KEYS = [
  ...SURVEY_TYPES.flatMap((type) => [`types.${type}`, `create.about.${type}`, `list.typeFilter.${type}`]),
  ...QUESTION_TYPES.flatMap((type) => [`questionTypes.${type}`, `questionTypeHints.${type}`]),
  ...OPTION_RULES.map((rule) => `rules.${rule}`),
  ...CONDITION_OPERATORS.map((op) => `logic.operators.${op}`),
  ...SURVEY_SLOTS.map((slot) => `links.slots.${slot}`),
  ...LANGUAGES.map((language) => `languages.${language}`),
  ...['and', 'or'].map((op) => `logic.joiner.${op}`),
  ...['option', 'row', 'column'].flatMap((kind) => ['Add', 'Label', 'Remove'].map((what) => `question.${kind}${what}`)),
];

describe('surveys locale', () => {
  it.each(LANGUAGES)('%s has every key built from the contracts', (language) => {
    expect(missingKeys(language, 'surveys', DYNAMIC_KEYS)).toEqual([]);
  });

  it('the sortable texts of questions, options and rows exist in every language', () => {
    const keys = ['question', 'option', 'row'].flatMap((kind) =>
      ['handle', 'instructions', 'picked', 'over', 'dropped', 'cancelled'].map((k) => `sortable.${kind}.${k}`),
    );
    for (const language of LANGUAGES) expect(missingKeys(language, 'common', keys), language).toEqual([]);
  });

  it('the load error follows the spec’s wording for loads', () => {
    expect(englishT('surveys')('load.error')).toBe('Unable to get the questionnaire. Please, reload the page.');
  });
});
