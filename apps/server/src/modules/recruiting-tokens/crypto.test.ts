import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createTokenCipher, decryptSecret, encryptSecret, recruitingTokensKey } from './crypto.ts';

const SECRET = 'AQAAAAAtolokaOAuthToken-0123456789';

describe('recruiting token encryption', () => {
  it('opens what it sealed, with a fresh IV each time and no plaintext in the bytes', () => {
    const key = randomBytes(32);
    const a = encryptSecret(key, SECRET, 'row-1');
    const b = encryptSecret(key, SECRET, 'row-1');
    expect(a.equals(b)).toBe(false);
    expect(a.length).toBe(12 + 16 + Buffer.byteLength(SECRET));
    expect(a.toString('latin1')).not.toContain('tolokaOAuth');
    expect(decryptSecret(key, a, 'row-1')).toBe(SECRET);
    expect(createTokenCipher(key).decrypt(createTokenCipher(key).encrypt('ключ 🔑', 'x'), 'x')).toBe('ключ 🔑');
  });

  it('refuses a tampered value, another key, another row, a truncated value', () => {
    const key = randomBytes(32);
    const sealed = encryptSecret(key, SECRET, 'row-1');
    for (const at of [0, 12, 28, sealed.length - 1]) {
      const tampered = Buffer.from(sealed);
      tampered[at] = (tampered[at] ?? 0) ^ 1;
      expect(() => decryptSecret(key, tampered, 'row-1'), `byte ${at}`).toThrow();
    }
    expect(() => decryptSecret(randomBytes(32), sealed, 'row-1')).toThrow();
    expect(() => decryptSecret(key, sealed, 'row-2')).toThrow();
    expect(() => decryptSecret(key, sealed.subarray(0, 20), 'row-1')).toThrow();
  });

  it('uses the configured key, else derives a stable one from the app secret', () => {
    const configured = randomBytes(32);
    expect(recruitingTokensKey(configured, 'app-secret').equals(configured)).toBe(true);
    const derived = recruitingTokensKey(undefined, 'app-secret-'.repeat(4));
    expect(derived).toHaveLength(32);
    expect(recruitingTokensKey(undefined, 'app-secret-'.repeat(4)).equals(derived)).toBe(true);
    expect(recruitingTokensKey(undefined, 'other-secret-'.repeat(4)).equals(derived)).toBe(false);
    expect(() => createTokenCipher(randomBytes(16))).toThrow(RangeError);
  });

  it('reads RECRUITING_TOKENS_KEY as 32 bytes of base64 and refuses anything else', () => {
    const key = randomBytes(32);
    expect(loadConfig({ RECRUITING_TOKENS_KEY: key.toString('base64') }).recruitingTokensKey?.equals(key)).toBe(true);
    expect(loadConfig({}).recruitingTokensKey).toBeUndefined();
    expect(() => loadConfig({ RECRUITING_TOKENS_KEY: randomBytes(16).toString('base64') })).toThrow(
      /RECRUITING_TOKENS_KEY/,
    );
    expect(() => loadConfig({ RECRUITING_TOKENS_KEY: 'not base64 at all!' })).toThrow(/RECRUITING_TOKENS_KEY/);
  });
});
