import {
  AUDIENCE_TYPES,
  CONTENT_TYPES,
  DELETION_IDENTIFIER_KINDS,
  DELETION_REASONS,
  DELETION_SCOPES,
  FLOW_TYPES,
  LANGUAGES,
  PLATFORMS,
  PROJECT_STATUSES,
  PROJECT_TABS,
  PROJECT_TRANSITIONS,
  RETENTION_MODES,
  retentionInput,
} from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { englishT, missingKeys } from '../../i18n/locale-tree.ts';
import {
  emptyProjectValues,
  newProjectInput,
  newProjectSchema,
  schemaValidator,
  toRetentionInput,
} from './project-form.ts';

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
  ...RETENTION_MODES.flatMap((mode) => [`data.retention.${mode}.label`, `data.retention.${mode}.text`]),
  ...DELETION_IDENTIFIER_KINDS.flatMap((kind) => [
    `data.kind.${kind}`,
    `data.kindHint.${kind}`,
    `data.kindPlaceholder.${kind}`,
  ]),
  ...DELETION_REASONS.map((reason) => `data.reason.${reason}`),
  ...DELETION_SCOPES.map((scope) => `data.history.${scope}`),
  ...['flowType', 'details', 'audience', 'research', 'review'].flatMap((step) =>
    ['label', 'description', 'title'].map((part) => `wizard.steps.${step}.${part}`),
  ),
];

describe('projects locale', () => {
  it.each(LANGUAGES)('%s has every key built from the contracts', (language) => {
    expect(missingKeys(language, 'projects', DYNAMIC_KEYS)).toEqual([]);
  });

  it('the load error is the spec’s text', () => {
    expect(englishT('projects')('project.loadError')).toBe(
      'Unable to get information about the project, try to reload the page',
    );
  });

  it('the project forms show the contract’s messages (English while no language is chosen)', () => {
    const validate = schemaValidator(newProjectSchema, newProjectInput);
    const errors = validate({ ...emptyProjectValues('new'), required_respondents: '2000000' });
    expect(errors).toEqual({
      title: "This is a required field. Don't leave it empty",
      platform: 'Select a platform, do not leave the field empty',
      respondent_language: "This is a required field. Don't leave it empty",
      audience_type: "This is a required field. Don't leave it empty",
      required_respondents: 'At most 1,000,000',
    });
  });
});

describe('the retention form', () => {
  const validate = schemaValidator(retentionInput, toRetentionInput);

  it('shows the contract’s messages for missing or out-of-range days', () => {
    expect(validate({ retention_mode: 'delete_after_days', retention_days: '' })).toEqual({
      retention_days: "This is a required field. Don't leave it empty",
    });
    expect(validate({ retention_mode: 'delete_after_days', retention_days: 0 })).toEqual({
      retention_days: 'must be between 1 and 3650',
    });
    expect(validate({ retention_mode: 'delete_after_days', retention_days: 30 })).toEqual({});
  });

  it('sends days only with the mode that needs them', () => {
    expect(toRetentionInput({ retention_mode: 'keep', retention_days: 30 })).toEqual({
      retention_mode: 'keep',
      retention_days: null,
    });
    expect(toRetentionInput({ retention_mode: 'delete_after_days', retention_days: '45' })).toEqual({
      retention_mode: 'delete_after_days',
      retention_days: 45,
    });
  });
});
