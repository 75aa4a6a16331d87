import {
  CONTENT_TYPES,
  LANGUAGES,
  REPORT_EXPORTS,
  REPORT_METRICS,
  REPORT_TYPES,
  RESPONDENT_SESSION_STATUSES,
  SEXES,
} from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { englishT, type LocaleTree, missingKeys } from '../../i18n/locale-tree.ts';
import { translateMessage } from '../../i18n/messages.ts';
import { resources } from '../../i18n/resources.ts';
import { exclusionSource, OWN_EXCLUSIONS } from './report-view.ts';

/** Keys the report page builds from the contracts' values (the locale test sees literal keys only). */
const DYNAMIC_KEYS = [
  ...REPORT_EXPORTS.map((kind) => `export.kinds.${kind}`),
  ...CONTENT_TYPES.map((timeline) => `items.${timeline}`),
  ...REPORT_METRICS.map((metric) => `metrics.${metric}`),
  ...RESPONDENT_SESSION_STATUSES.map((status) => `people.statuses.${status}`),
  ...SEXES.map((sex) => `people.sexes.${sex}`),
  ...SEXES.map((sex) => `sex.${sex}`),
  ...['A', 'B', 'C'].map((grade) => `people.grades.${grade}`),
  ...OWN_EXCLUSIONS.map((reason) => `excluded.${reason}`),
  ...['colour', 'dark'].map((theme) => `heatmap.themes.${theme}`),
];

const en = englishT('reportView');

describe('report view locale', () => {
  it.each(LANGUAGES)('%s has every key built from the contracts', (language) => {
    expect(missingKeys(language, 'reportView', DYNAMIC_KEYS)).toEqual([]);
  });

  it('states the method and the report’s own exclusions in the spec’s words', () => {
    expect(en('method')).toBe(
      "Mean across respondents with a 95% confidence band (Student's t-interval); N = respondents behind each second.",
    );
    expect(en('excluded.accuracy')).toBe('Calibration less accurate than the filter');
    expect(en('excluded.happy')).toBe('Smiling already during calibration (happy filter)');
    expect(en('items.pictures', { n: 2, label: 'pack.png' })).toBe('Picture 2 · pack.png');
  });

  it('names the engine’s exclusions from the messages catalogue', () => {
    const source = exclusionSource('no_face');
    expect(source.source).toBe('messages');
    if (source.source === 'messages') {
      expect(translateMessage({ key: source.key }, 'en')).toBe('No face was found in the recording');
    }
    expect(translateMessage({ key: 'validation.between', params: { first: 0.1, second: 1 } }, 'en')).toBe(
      'must be between 0.1 and 1',
    );
  });
});

/** Every text of a namespace, flattened. */
const texts = (tree: LocaleTree): string[] =>
  Object.values(tree).flatMap((v) => (typeof v === 'string' ? [v] : texts(v)));

describe('report texts (issue 28, item 7)', () => {
  it.each(LANGUAGES)('%s names each report type once: the reports list’s key, on the list and the report page', (l) => {
    expect(
      missingKeys(l, 'reports', [
        ...REPORT_TYPES.map((t) => `types.${t}`),
        ...REPORT_TYPES.map((t) => `typeHints.${t}`),
      ]),
    ).toEqual([]);
    const view = resources[l].reportView as LocaleTree;
    expect(view.types).toBeUndefined();
    expect(view.typeHints).toBeUndefined();
  });

  it('calls the unprocessed type the same in Russian everywhere, without an English word', () => {
    const reports = resources.ru.reports as { types: Record<string, string> };
    expect(reports.types.shift).toBe('Исходные значения');
  });

  it('says "пикс." for pixels in Russian, never "px"', () => {
    const russian = [...texts(resources.ru.reportView as LocaleTree), ...texts(resources.ru.reports as LocaleTree)];
    expect(russian.filter((text) => /\bpx\b/.test(text.replace(/\{\{\s*\w+\s*\}\}/g, '')))).toEqual([]);
    expect(russian.filter((text) => text.includes('пикс.')).length).toBeGreaterThanOrEqual(4);
  });

  it.each(LANGUAGES)('%s speaks of the video, not an image, in the areas panel of a video report', (l) => {
    expect(missingKeys(l, 'reportView', ['areas.hintVideo', 'areas.emptyVideo'])).toEqual([]);
  });

  it('names the video in English and Russian', () => {
    const view = (l: 'en' | 'ru') => (resources[l].reportView as { areas: Record<string, string> }).areas;
    for (const key of ['hintVideo', 'emptyVideo']) {
      expect(view('en')[key]).toMatch(/video/);
      expect(view('en')[key]).not.toMatch(/image|picture/);
      expect(view('ru')[key]).toMatch(/видео/);
      expect(view('ru')[key]).not.toMatch(/изображени/);
    }
  });
});
