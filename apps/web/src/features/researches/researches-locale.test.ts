import {
  CONTENT_TYPES,
  categoriesSchema,
  LANGUAGES,
  ORIENTATIONS,
  RESEARCH_STATUSES,
  researchDataInput,
} from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../api/client.ts';
import { englishT, missingKeys } from '../../i18n/locale-tree.ts';
import { translateFields } from '../../i18n/messages.ts';
import { emptyResearchValues, researchValidator, serverFieldErrors } from './research-form.ts';

/** Keys the research pages build from the contracts' values (the locale test sees literal keys only). */
const DYNAMIC_KEYS = [
  ...CONTENT_TYPES.map((c) => `contentTypes.${c}`),
  ...CONTENT_TYPES.map((c) => `form.created.${c}`),
  ...RESEARCH_STATUSES.map((s) => `status.${s}`),
  ...ORIENTATIONS.map((o) => `orientations.${o}`),
  ...LANGUAGES.map((l) => `languages.${l}`),
  ...Object.keys(categoriesSchema.shape).map((c) => `categories.${c}`),
  ...['complete', 'quota_full', 'screen_out'].map((k) => `settings.cint.${k}`),
];

const en = englishT('researches');

describe('campaigns locale', () => {
  it.each(LANGUAGES)('%s has every key built from the contracts', (language) => {
    expect(missingKeys(language, 'researches', DYNAMIC_KEYS)).toEqual([]);
  });

  it('the load error is the spec’s text', () => {
    expect(en('load.error')).toBe('Unable to get campaign data. Please, reload the page.');
  });
});

describe('research form', () => {
  it('starts from the spec defaults', () => {
    const values = emptyResearchValues('p', null);
    expect(values.settings.badFramesPercent).toBe(25);
    expect(values.settings.bannerTime).toBe(10);
    expect(values.settings.taskTimeLimitSeconds).toBe(60);
  });

  it('mirrors the server title rule and checks the settings', () => {
    const validate = researchValidator('create');
    const values = { ...emptyResearchValues('p', 'video'), title: '<b>x</b>' };
    values.settings = { ...values.settings, badFramesPercent: 140, bannerTime: '' };
    const errors = validate(values);
    expect(errors.title).toBe('The title contains invalid characters');
    expect(errors['settings.badFramesPercent']).toBe('must be between 0 and 100');
    expect(errors['settings.bannerTime']).toBe("This is a required field. Don't leave it empty");
    expect(validate({ ...emptyResearchValues('p', 'video'), title: 'Spot «Лето» #2, 30%' })).toEqual({});
    expect(researchDataInput.safeParse({ title: '<b>x</b>', content_type: 'video' }).success).toBe(false);
  });

  it('puts the server field errors of create and update on the form fields, translated', () => {
    const error = new ApiRequestError(400, {
      code: 'validation_failed',
      fields: { 'campaigns_data.0.settings.badFramesPercent': 'must be between 0 and 100', 'settings.bannerTime': 'x' },
      field_keys: {
        'campaigns_data.0.settings.badFramesPercent': { key: 'validation.between', params: { first: 0, second: 100 } },
      },
    });
    expect(serverFieldErrors(translateFields(error, 'ru'))).toEqual({
      'settings.badFramesPercent': 'значение должно быть от 0 до 100',
      'settings.bannerTime': 'x',
    });
  });
});
