import { LANGUAGES } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { missingKeys } from '../../i18n/locale-tree.ts';
import { fold, matchesAll, queryTerms, segments } from './search.ts';
import { CABINET_TOPICS } from './topics.ts';

describe('the FAQ search', () => {
  it('ignores case and ё/е, and keeps positions', () => {
    expect(fold('Отчёт ПО Квоте')).toBe('отчет по квоте');
    expect(fold('İstanbul')).toHaveLength('İstanbul'.length);
  });

  it('takes the words of a query, without punctuation at their ends, each once', () => {
    expect(queryTerms('  Quota, link?  quota ')).toEqual(['quota', 'link']);
    expect(queryTerms('— /report_builder/api')).toEqual(['report_builder/api']);
    expect(queryTerms('   ')).toEqual([]);
  });

  it('finds a question when every word is in its question or its answer', () => {
    expect(matchesAll(['How do I connect Cint?', 'Give Cint the quota link.'], ['cint', 'quota'])).toBe(true);
    expect(matchesAll(['How do I connect Cint?', 'Give Cint the quota link.'], ['cint', 'toloka'])).toBe(false);
    expect(matchesAll(['Как построить отчёт?'], queryTerms('ОТЧЕТ'))).toBe(true);
    expect(matchesAll(['쿼터 링크란 무엇인가요?'], queryTerms('쿼터'))).toBe(true);
  });

  it('marks every occurrence, overlapping ones as one stretch', () => {
    expect(segments('Quota links: a quota', ['quota'])).toEqual([
      { text: 'Quota', match: true },
      { text: ' links: a ', match: false },
      { text: 'quota', match: true },
    ]);
    expect(segments('calibration', ['cali', 'libr'])).toEqual([
      { text: 'calibr', match: true },
      { text: 'ation', match: false },
    ]);
    expect(segments('Отчёт', ['отчет'])).toEqual([{ text: 'Отчёт', match: true }]);
    expect(segments('text', [])).toEqual([{ text: 'text', match: false }]);
    expect(segments('Open Quota links now', ['quota', 'links'])).toEqual([
      { text: 'Open ', match: false },
      { text: 'Quota links', match: true },
      { text: ' now', match: false },
    ]);
  });
});

describe('the cabinet topics', () => {
  const keys = CABINET_TOPICS.flatMap(({ id, questions }) => [
    `topics.${id}.title`,
    ...questions.flatMap((q) => [`topics.${id}.${q}Q`, `topics.${id}.${q}A`]),
  ]);

  it.each(LANGUAGES)('are all translated in %s', (language) => {
    expect(missingKeys(language, 'faq', keys)).toEqual([]);
  });

  it('have 4 to 6 questions each', () => {
    for (const topic of CABINET_TOPICS) expect(topic.questions.length, topic.id).toBeGreaterThanOrEqual(4);
    for (const topic of CABINET_TOPICS) expect(topic.questions.length, topic.id).toBeLessThanOrEqual(6);
  });
});
