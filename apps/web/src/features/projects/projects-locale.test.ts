import {
  AUDIENCE_TYPES,
  CONTENT_TYPES,
  FLOW_TYPES,
  LANGUAGES,
  PLATFORMS,
  PROJECT_MESSAGES,
  PROJECT_STATUSES,
  PROJECT_TABS,
  PROJECT_TRANSITIONS,
} from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { englishT, missingKeys } from '../../i18n/locale-tree.ts';
import { VALIDATION_KEYS } from './messages.ts';

/** Keys the project pages build from the contracts' values (the locale test sees literal keys only). */
const DYNAMIC_KEYS = [
  ...PLATFORMS.map((p) => `platforms.${p}`),
  ...AUDIENCE_TYPES.map((a) => `audienceTypes.${a}`),
  ...LANGUAGES.map((l) => `languages.${l}`),
  ...PROJECT_STATUSES.map((s) => `status.${s}`),
  ...FLOW_TYPES.flatMap((f) => [`flowType.${f}.title`, `flowType.${f}.short`, `flowType.${f}.description`]),
  ...Object.keys(PROJECT_TABS).flatMap((tab) => [`tabs.${tab}`, `empty.${tab}.title`, `empty.${tab}.text`]),
  ...Object.keys(PROJECT_TRANSITIONS).flatMap((a) =>
    ['button', 'title', 'text', 'confirm', 'done'].map((part) => `lifecycle.${a}.${part}`),
  ),
  ...CONTENT_TYPES.map((type) => `wizard.research.hints.${type}`),
  ...['flowType', 'details', 'audience', 'research', 'review'].flatMap((step) =>
    ['label', 'description', 'title'].map((part) => `wizard.steps.${step}.${part}`),
  ),
  ...Object.values(VALIDATION_KEYS),
];

describe('projects locale', () => {
  it.each(LANGUAGES)('%s has every key built from the contracts', (language) => {
    expect(missingKeys(language, 'projects', DYNAMIC_KEYS)).toEqual([]);
  });

  it('English validation messages are the contracts’ (and so the spec’s) texts', () => {
    const en = englishT('projects');
    for (const [message, key] of Object.entries(VALIDATION_KEYS)) expect(en(key)).toBe(message);
    expect(en('validation.required')).toBe("This is a required field. Don't leave it empty");
    expect(en('validation.platformRequired')).toBe('Select a platform, do not leave the field empty');
    expect(en('validation.saveInvalid')).toBe('Fill in the required fields');
    expect(en('validation.userDoesNotExist')).toBe("User doesn't exist");
    expect(en('project.loadError')).toBe('Unable to get information about the project, try to reload the page');
  });

  it('every message of the contracts has a translation', () => {
    for (const message of Object.values(PROJECT_MESSAGES)) expect(VALIDATION_KEYS[message]).toBeDefined();
  });
});
