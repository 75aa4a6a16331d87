import type { RecruitingService, RecruitingToken } from '@emolens/contracts';

/** A secret the link form asks for; typed once, never shown again (the access key id is not secret, but typed alike). */
export interface SecretField {
  name: string;
  /** Keys of `integrations`. */
  label: string;
  hint: string;
  /** Shown as typed (the access key id) or masked. */
  visible?: boolean;
  /** What the input keeps of what is typed. */
  normalise?: (value: string) => string;
  testId: string;
}

/**
 * The tokens page of one recruiting service (issue 29, item 3): its texts in `integrations` (`toloka`, `amazon`, `prolific`:
 * title, subtitle, service, descriptionPlaceholder), the secrets its link form asks for, and how a token's hint
 * reads. The rest of the page is the same for every service; the schema the form is checked with is the platform's
 * `linkToken` contract.
 */
export interface TokenPlatform {
  texts: 'toloka' | 'amazon' | 'prolific';
  /** The service has a sandbox to choose (Prolific has none). */
  sandbox: boolean;
  secrets: SecretField[];
  /** The label of the hint's column and line. */
  hintLabel: string;
  hint(token: RecruitingToken): string;
}

export const TOKEN_PLATFORMS: Record<RecruitingService, TokenPlatform> = {
  toloka: {
    texts: 'toloka',
    sandbox: true,
    secrets: [{ name: 'token', label: 'toloka.token', hint: 'toloka.tokenHint', testId: 'recruiting-token-secret' }],
    hintLabel: 'tokens.token',
    // The last characters of the OAuth token.
    hint: (token) => `••••${token.hint}`,
  },
  mturk: {
    texts: 'amazon',
    sandbox: true,
    secrets: [
      {
        name: 'access_key_id',
        label: 'amazon.accessKeyId',
        hint: 'amazon.accessKeyHint',
        visible: true,
        normalise: (value) => value.toUpperCase().replace(/\s+/g, ''),
        testId: 'recruiting-token-access-key',
      },
      {
        name: 'secret_access_key',
        label: 'amazon.secretAccessKey',
        hint: 'amazon.secretHint',
        testId: 'recruiting-token-secret',
      },
    ],
    hintLabel: 'amazon.accessKeyId',
    // The access key id, whole.
    hint: (token) => token.hint,
  },
  prolific: {
    texts: 'prolific',
    sandbox: false,
    secrets: [
      { name: 'token', label: 'prolific.token', hint: 'prolific.tokenHint', testId: 'recruiting-token-secret' },
    ],
    hintLabel: 'tokens.token',
    // The last characters of the API token.
    hint: (token) => `••••${token.hint}`,
  },
};
