import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_CODES } from './errors.ts';
import {
  codeMessage,
  englishMessage,
  formatMessage,
  issueMessage,
  MESSAGES,
  type MessageKey,
  msg,
  parseMessage,
  ref,
} from './messages.ts';
import { createProjectInput } from './projects.ts';
import { researchSettingsSchema } from './researches.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

describe('message catalogue', () => {
  it('has English text for every key and every error code', () => {
    for (const [key, text] of Object.entries(MESSAGES)) {
      expect(text.trim(), key).not.toBe('');
      expect(key, key).toMatch(/^[a-z]+(\.[A-Za-z_]+)+$/);
    }
    for (const code of Object.keys(ERROR_CODES)) expect(MESSAGES).toHaveProperty([`errors.${code}`]);
  });

  it("keeps the spec's messages word for word", () => {
    const spec: Partial<Record<MessageKey, string>> = {
      'validation.required': "This is a required field. Don't leave it empty",
      'project.platformRequired': 'Select a platform, do not leave the field empty',
      'errors.validation_failed': 'Fill in the required fields',
      'user.doesNotExist': "User doesn't exist",
      'content.zoneDescriptionsUnique': 'Zone descriptions must be unique',
      'media.invalidFormat': 'Invalid file format',
      'media.tooLarge': 'File is too large',
      'campaign.notFound': 'Unable to get campaign data. Please, reload the page.',
      'errors.internal': 'Something went wrong...',
      'validation.between': 'must be between {first} and {second}',
      'oauth.descriptionRequired': 'token must have description',
      'oauth.notFound': 'no token found',
      'oauth.bindFirst': 'first bind the token',
      'oauth.amazonFieldsRequired': 'Amazon needs all fields',
    };
    for (const [key, text] of Object.entries(spec)) expect(MESSAGES[key as MessageKey]).toBe(text);
  });

  it('reads back every reference msg() writes, with its parameters', () => {
    for (const key of Object.keys(MESSAGES) as MessageKey[]) {
      const names = placeholders(MESSAGES[key]);
      const params = Object.fromEntries(names.map((name, i) => [name, i % 2 ? `v${i}` : i]));
      const written = (msg as (k: MessageKey, p?: object) => string)(key, names.length ? params : undefined);
      expect(parseMessage(written), key).toEqual(names.length ? { key, params } : { key });
    }
  });

  it('reads nothing into other text or into a reference to no message', () => {
    expect(parseMessage("This is a required field. Don't leave it empty")).toBeUndefined();
    expect(parseMessage('$msg:validation.nothing')).toBeUndefined();
    expect(parseMessage('$msg:validation.between{"first":')).toBeUndefined();
    expect(parseMessage('$msg:validation.between{"first":{"x":1}}')).toBeUndefined();
  });

  it('fills parameters, writing numbers the way the language writes them', () => {
    expect(englishMessage(ref('validation.between', { first: 0, second: 100 }))).toBe('must be between 0 and 100');
    expect(englishMessage(ref('validation.atMost', { max: 1_000_000 }))).toBe('At most 1,000,000');
    expect(englishMessage(ref('validation.maxChars', { max: 5000 }))).toBe('At most 5000 characters');
    expect(formatMessage('Не более {max}', { max: 1_000_000 }, 'ru')).toBe('Не более 1\u00a0000\u00a0000');
    expect(englishMessage(codeMessage('too_many_login_attempts', 61))).toBe(
      'Too many login attempts. Try again in 2 min.',
    );
    expect(codeMessage('not_found')).toEqual({ key: 'errors.not_found' });
  });
});

describe('messages of zod issues', () => {
  it('are the references the schemas give', () => {
    const settings = researchSettingsSchema.partial().safeParse({ badFramesPercent: 140 });
    expect(settings.error?.issues.map(issueMessage)).toEqual([
      { key: 'validation.between', params: { first: 0, second: 100 } },
    ]);
    const project = createProjectInput.safeParse({ title: '', flow_type: 'new' });
    const byField = Object.fromEntries(project.error?.issues.map((i) => [i.path.join('.'), issueMessage(i)]) ?? []);
    expect(byField.title).toEqual({ key: 'validation.required' });
    expect(byField.platform).toEqual({ key: 'project.platformRequired' });
  });

  it('are the catalogue messages of the rules written without one', () => {
    const schema = z.strictObject({
      text: z.string().max(64),
      count: z.number().int().max(5),
      list: z.array(z.string()).min(1),
      pick: z.enum(['a', 'b']),
      link: z.url(),
    });
    const result = schema.safeParse({ text: 'x'.repeat(65), count: 1.5, list: [], pick: 'c', link: 'no', extra: 1 });
    const byField = Object.fromEntries(result.error?.issues.map((i) => [i.path.join('.'), issueMessage(i)]) ?? []);
    expect(byField).toEqual({
      text: { key: 'validation.maxChars', params: { max: 64 } },
      count: { key: 'validation.wholeNumber' },
      list: { key: 'validation.required' },
      pick: { key: 'validation.choice' },
      link: { key: 'validation.url' },
      '': { key: 'validation.unknownField' },
    });
    expect(issueMessage({ code: 'custom', message: 'Some library text' })).toEqual({ key: 'validation.invalid' });
  });
});
