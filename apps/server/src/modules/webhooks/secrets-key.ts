import { hkdfSync } from 'node:crypto';
import { KEY_BYTES } from '../recruiting-tokens/crypto.ts';

const HKDF_SALT = 'emolens';
const HKDF_INFO = 'webhook-secrets/aes-256-gcm/v1';

/**
 * The key webhook signing secrets are sealed with (decision 066): derived with HKDF-SHA256 from RECRUITING_TOKENS_KEY
 * when the operator set one, else from the app secret, under its own label, so it is never the tokens' key itself.
 */
export function webhookSecretsKey(configured: Buffer | undefined, appSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', configured ?? appSecret, HKDF_SALT, HKDF_INFO, KEY_BYTES));
}
