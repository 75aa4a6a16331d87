import {
  CAMPAIGN_MESSAGES,
  CAMPAIGN_STATUSES,
  CONTENT_TYPES,
  campaignDataInput,
  categoriesSchema,
  LANGUAGES,
  ORIENTATIONS,
} from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { resources } from '../../i18n/resources.ts';
import { campaignValidator, emptyCampaignValues, serverFieldErrors } from './campaign-form.ts';
import { translateValidation, VALIDATION_KEYS } from './messages.ts';

type Tree = { [key: string]: string | Tree };

function lookup(tree: Tree, path: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** Keys the research pages build from the contracts' values (the locale test sees literal keys only). */
const DYNAMIC_KEYS = [
  ...CONTENT_TYPES.map((c) => `contentTypes.${c}`),
  ...CAMPAIGN_STATUSES.map((s) => `status.${s}`),
  ...ORIENTATIONS.map((o) => `orientations.${o}`),
  ...LANGUAGES.map((l) => `languages.${l}`),
  ...Object.keys(categoriesSchema.shape).map((c) => `categories.${c}`),
  ...['complete', 'quota_full', 'screen_out'].map((k) => `settings.cint.${k}`),
  ...Object.values(VALIDATION_KEYS),
];

const en = (key: string, options?: Record<string, unknown>) =>
  (lookup(resources.en.campaigns as Tree, key) ?? key).replace(/\{\{(\w+)\}\}/g, (_, name) => String(options?.[name]));

describe('campaigns locale', () => {
  it.each(LANGUAGES)('%s has every key built from the contracts', (language) => {
    const tree = resources[language].campaigns as Tree;
    expect(DYNAMIC_KEYS.filter((key) => !lookup(tree, key))).toEqual([]);
  });

  it('English validation messages are the contracts’ (and so the spec’s) texts', () => {
    for (const [message, key] of Object.entries(VALIDATION_KEYS)) expect(en(key)).toBe(message);
    for (const message of Object.values(CAMPAIGN_MESSAGES)) expect(VALIDATION_KEYS[message]).toBeDefined();
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
