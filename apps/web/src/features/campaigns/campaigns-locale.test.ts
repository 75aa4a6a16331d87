import {
  CAMPAIGN_MESSAGES,
  CAMPAIGN_STATUSES,
  CONTENT_MESSAGES,
  CONTENT_TYPES,
  campaignDataInput,
  categoriesSchema,
  LANGUAGES,
  ORIENTATIONS,
} from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { englishT, missingKeys } from '../../i18n/locale-tree.ts';
import { campaignValidator, emptyCampaignValues, serverFieldErrors } from './campaign-form.ts';
import { translateValidation, VALIDATION_KEYS } from './messages.ts';

/** Keys the research pages build from the contracts' values (the locale test sees literal keys only). */
const DYNAMIC_KEYS = [
  ...CONTENT_TYPES.map((c) => `contentTypes.${c}`),
  ...CONTENT_TYPES.map((c) => `form.created.${c}`),
  ...CAMPAIGN_STATUSES.map((s) => `status.${s}`),
  ...ORIENTATIONS.map((o) => `orientations.${o}`),
  ...LANGUAGES.map((l) => `languages.${l}`),
  ...Object.keys(categoriesSchema.shape).map((c) => `categories.${c}`),
  ...['complete', 'quota_full', 'screen_out'].map((k) => `settings.cint.${k}`),
  ...Object.values(VALIDATION_KEYS),
];

const en = englishT('campaigns');

describe('campaigns locale', () => {
  it.each(LANGUAGES)('%s has every key built from the contracts', (language) => {
    expect(missingKeys(language, 'campaigns', DYNAMIC_KEYS)).toEqual([]);
  });

  it('English validation messages are the contracts’ (and so the spec’s) texts', () => {
    for (const [message, key] of Object.entries(VALIDATION_KEYS)) expect(en(key)).toBe(message);
    for (const message of [...Object.values(CAMPAIGN_MESSAGES), ...Object.values(CONTENT_MESSAGES)]) {
      expect(VALIDATION_KEYS[message]).toBeDefined();
    }
    expect(en('load.error')).toBe('Unable to get campaign data. Please, reload the page.');
    expect(translateValidation('must be between 5 and 3600', en)).toBe('must be between 5 and 3600');
  });
});

describe('research form', () => {
  it('starts from the spec defaults', () => {
    const values = emptyCampaignValues('p', null);
    expect(values.settings.badFramesPercent).toBe(25);
    expect(values.settings.bannerTime).toBe(10);
    expect(values.settings.taskTimeLimitSeconds).toBe(60);
  });

  it('mirrors the server title rule and checks the settings', () => {
    const validate = campaignValidator('create', en);
    const values = { ...emptyCampaignValues('p', 'video'), title: '<b>x</b>' };
    values.settings = { ...values.settings, badFramesPercent: 140, bannerTime: '' };
    const errors = validate(values);
    expect(errors.title).toBe(CAMPAIGN_MESSAGES.titleInvalid);
    expect(errors['settings.badFramesPercent']).toBe('must be between 0 and 100');
    expect(errors['settings.bannerTime']).toBe("This is a required field. Don't leave it empty");
    expect(validate({ ...emptyCampaignValues('p', 'video'), title: 'Spot «Лето» #2, 30%' })).toEqual({});
    expect(campaignDataInput.safeParse({ title: '<b>x</b>', content_type: 'video' }).success).toBe(false);
  });

  it('puts the server field errors of create and update on the form fields', () => {
    expect(
      serverFieldErrors(
        { 'campaigns_data.0.settings.badFramesPercent': 'must be between 0 and 100', 'settings.bannerTime': 'x' },
        en,
      ),
    ).toEqual({ 'settings.badFramesPercent': 'must be between 0 and 100', 'settings.bannerTime': 'x' });
  });
});
