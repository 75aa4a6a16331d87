import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../api/client.ts';

// The i18n module reads the page's address and storage when it loads; the tests run without a browser.
vi.stubGlobal('window', { location: { search: '' } });
vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined });
vi.stubGlobal('document', { documentElement: {} });

let i18n: typeof import('../../i18n/index.ts').default;
let errorMessage: typeof import('./notify.ts').errorMessage;
beforeAll(async () => {
  i18n = (await import('../../i18n/index.ts')).default;
  ({ errorMessage } = await import('./notify.ts'));
});

const throttled = (code: 'too_many_login_attempts' | 'too_many_requests', retry_after: number) =>
  errorMessage(new ApiRequestError(429, { code, message: 'x', retry_after }));

describe('the wait of a 429', () => {
  it('is said in seconds when under a minute, in minutes otherwise', async () => {
    await i18n.changeLanguage('en');
    expect(throttled('too_many_login_attempts', 8)).toBe('Too many login attempts. Try again in 8 s.');
    expect(throttled('too_many_login_attempts', 120)).toBe('Too many login attempts. Try again in 2 min.');
    await i18n.changeLanguage('ru');
    expect(throttled('too_many_login_attempts', 30)).toBe('Слишком много попыток входа. Попробуйте через 30 с.');
  });

  it('says the wait of any 429 the same way', async () => {
    await i18n.changeLanguage('en');
    expect(throttled('too_many_requests', 5)).toBe('Too many requests. Try again in 5 s.');
    expect(throttled('too_many_requests', 60)).toBe('Too many requests. Try again in 1 min.');
  });
});
