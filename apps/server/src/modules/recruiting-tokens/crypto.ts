import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption of the linked Toloka and Amazon tokens at rest: AES-256-GCM, stored as one value, the 12-byte IV,
 * the 16-byte tag, then the ciphertext. The token's row id is the associated data, so a ciphertext moved to
 * another row does not open. The key is RECRUITING_TOKENS_KEY, or derived with HKDF-SHA256 from the app secret
 * (APP_SECRET, else the one generated into the database), so the embedded setup works with nothing configured.
 */
export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ALGORITHM = 'aes-256-gcm';
const HKDF_SALT = 'emolens';
const HKDF_INFO = 'recruiting-tokens/aes-256-gcm/v1';

/** The key of the configuration, else one derived from the app's secret. */
export function recruitingTokensKey(configured: Buffer | undefined, appSecret: string): Buffer {
  if (configured) {
    if (configured.length !== KEY_BYTES) throw new RangeError(`the key must be ${KEY_BYTES} bytes`);
    return configured;
  }
  return Buffer.from(hkdfSync('sha256', appSecret, HKDF_SALT, HKDF_INFO, KEY_BYTES));
}

/** IV, tag and ciphertext of `plaintext`, bound to `aad`. */
export function encryptSecret(key: Buffer, plaintext: string, aad: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The plaintext; throws when the value was changed, was sealed for another `aad`, or under another key. */
export function decryptSecret(key: Buffer, sealed: Uint8Array, aad: string): string {
  const bytes = Buffer.from(sealed);
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('sealed value too short');
  const decipher = createDecipheriv(ALGORITHM, key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

/** Encryption with one key, as the repository uses it. */
export interface TokenCipher {
  encrypt(plaintext: string, aad: string): Buffer;
  decrypt(sealed: Uint8Array, aad: string): string;
}

export function createTokenCipher(key: Buffer): TokenCipher {
  if (key.length !== KEY_BYTES) throw new RangeError(`the key must be ${KEY_BYTES} bytes`);
  return {
    encrypt: (plaintext, aad) => encryptSecret(key, plaintext, aad),
    decrypt: (sealed, aad) => decryptSecret(key, sealed, aad),
  };
}
