import {
  AUDIENCE_TYPES,
  FLOW_TYPES,
  LANGUAGES,
  PLATFORMS,
  PROJECT_MESSAGES,
  PROJECT_STATUSES,
  PROJECT_TABS,
  PROJECT_TRANSITIONS,
} from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { resources } from '../../i18n/resources.ts';
import { VALIDATION_KEYS } from './messages.ts';

type Tree = { [key: string]: string | Tree };

function lookup(tree: Tree, path: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of path.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

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
  ...['flowType', 'details', 'audience', 'review'].flatMap((step) =>
    ['label', 'description', 'title'].map((part) => `wizard.steps.${step}.${part}`),
  ),
  ...Object.values(VALIDATION_KEYS),
];

describe('projects locale', () => {
  it.each(LANGUAGES)('%s has every key built from the contracts', (language) => {
    const tree = resources[language].projects as Tree;
    expect(DYNAMIC_KEYS.filter((key) => !lookup(tree, key))).toEqual([]);
  });

  it('English validation messages are the contracts’ (and so the spec’s) texts', () => {
    const en = resources.en.projects as Tree;
    for (const [message, key] of Object.entries(VALIDATION_KEYS)) expect(lookup(en, key)).toBe(message);
    expect(lookup(en, 'validation.required')).toBe("This is a required field. Don't leave it empty");
    expect(lookup(en, 'validation.platformRequired')).toBe('Select a platform, do not leave the field empty');
    expect(lookup(en, 'validation.saveInvalid')).toBe('Fill in the required fields');
    expect(lookup(en, 'validation.userDoesNotExist')).toBe("User doesn't exist");
    expect(lookup(en, 'project.loadError')).toBe('Unable to get information about the project, try to reload the page');
  });

  it('every message of the contracts has a translation', () => {
    for (const message of Object.values(PROJECT_MESSAGES)) expect(VALIDATION_KEYS[message]).toBeDefined();
  });
});
