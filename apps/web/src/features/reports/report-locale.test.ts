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
import { englishT, missingKeys } from '../../i18n/locale-tree.ts';
import { translateMessage } from '../../i18n/messages.ts';
import { exclusionSource, OWN_EXCLUSIONS } from './report-view.ts';

/** Keys the report page builds from the contracts' values (the locale test sees literal keys only). */
const DYNAMIC_KEYS = [
  ...REPORT_TYPES.map((type) => `types.${type}`),
  ...REPORT_TYPES.map((type) => `typeHints.${type}`),
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
