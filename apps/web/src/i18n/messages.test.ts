import {
  createProjectInput,
  LANGUAGES,
  MESSAGES,
  type MessageKey,
  msg,
  ref,
  researchSettingsSchema,
} from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../api/client.ts';
import type { LocaleTree } from './locale-tree.ts';
import { translateFields, translateMessage } from './messages.ts';
import { resources } from './resources.ts';

function flatten(tree: LocaleTree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flatten(value, path));
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the messages locale namespace', () => {
  it('is, in English, the catalogue of the contracts word for word', () => {
    expect(flatten(resources.en.messages as LocaleTree)).toEqual({ ...MESSAGES });
  });

  it.each(LANGUAGES)('%s has every catalogue key, translated, with the same parameters', (language) => {
    const texts = flatten(resources[language].messages as LocaleTree);
    expect(Object.keys(texts).sort()).toEqual(Object.keys(MESSAGES).sort());
    for (const [key, english] of Object.entries(MESSAGES)) {
      expect(texts[key]?.trim(), `${language}:${key}`).not.toBe('');
      expect(placeholders(texts[key] ?? ''), `${language}:${key}`).toEqual(placeholders(english));
    }
  });
});

describe('translateMessage', () => {
  it('shows the messages of the shared schemas in the interface language, with their parameters', () => {
    const settings = researchSettingsSchema.partial().safeParse({ badFramesPercent: 140 });
    const message = settings.error?.issues[0]?.message ?? '';
    expect(translateMessage(message, 'en')).toBe('must be between 0 and 100');
    expect(translateMessage(message, 'ru')).toBe('значение должно быть от 0 до 100');
    expect(translateMessage(message, 'ko')).toBe('0에서 100 사이여야 합니다');

    const project = createProjectInput.safeParse({ title: '', flow_type: 'new' });
    const platform = project.error?.issues.find((issue) => issue.path[0] === 'platform')?.message ?? '';
    expect(translateMessage(platform, 'en')).toBe('Select a platform, do not leave the field empty');
    expect(translateMessage(platform, 'ru')).toBe('Выберите платформу, не оставляйте поле пустым');
  });

  it('shows references and numbers as the language writes them', () => {
    expect(translateMessage(ref('validation.atMost', { max: 1_000_000 }), 'ru')).toBe('Не более 1\u00a0000\u00a0000');
    expect(translateMessage(msg('validation.required'), 'id')).toBe('Kolom ini wajib diisi. Jangan biarkan kosong');
    expect(translateMessage({ key: 'errors.validation_failed' }, 'en')).toBe('Fill in the required fields');
  });

  it('shows other text as it came, and English for a language it does not know', () => {
    expect(translateMessage('Some text from elsewhere', 'ru')).toBe('Some text from elsewhere');
    expect(translateMessage(ref('media.tooLarge'), 'xx')).toBe('File is too large');
  });
});

describe('server errors', () => {
  const answer = {
    code: 'validation_failed' as const,
    message: "User doesn't exist",
    key: 'user.doesNotExist' as MessageKey,
    fields: { public_user_id: "User doesn't exist", quota: 'At least 1', legacy: 'Old server text' },
    field_keys: {
      public_user_id: { key: 'user.doesNotExist' as MessageKey },
      quota: { key: 'validation.atLeast' as MessageKey, params: { min: 1 } },
    },
  };

  it('are translated by their keys, field by field', () => {
    const error = new ApiRequestError(400, answer);
    expect(translateMessage(error.ref, 'ru')).toBe('Пользователь не существует');
    expect(translateFields(error, 'ru')).toEqual({
      public_user_id: 'Пользователь не существует',
      quota: 'Не менее 1',
      legacy: 'Old server text',
    });
    expect(translateFields(error, 'en')).toEqual(answer.fields);
  });

  it('without a key show the message of their code; keys of another catalogue are ignored', () => {
    const unknown = new ApiRequestError(400, { ...answer, key: 'nothing.here' as MessageKey, field_keys: {} });
    expect(translateMessage(unknown.ref, 'en')).toBe('Fill in the required fields');
    const offline = new ApiRequestError(0, { code: 'service_unavailable' });
    expect(translateMessage(offline.ref, 'ru')).toBe('Сервер недоступен. Проверьте подключение и попробуйте снова.');
    const throttled = new ApiRequestError(429, { code: 'too_many_login_attempts', retry_after: 600 });
    expect(translateMessage(throttled.ref, 'en')).toBe('Too many login attempts. Try again in 10 min.');
  });
});
