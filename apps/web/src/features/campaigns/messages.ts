import { CAMPAIGN_MESSAGES, ERROR_MESSAGES, REQUIRED_MESSAGE } from '@emolens/contracts';

type T = (key: string, options?: Record<string, unknown>) => string;

/**
 * The English messages of the research contracts (client validation, the server's `fields` and its
 * 403/409 messages) and their keys in the `campaigns` namespace, whose English text is the message.
 */
export const VALIDATION_KEYS: Record<string, string> = {
  [REQUIRED_MESSAGE]: 'validation.required',
  [CAMPAIGN_MESSAGES.titleInvalid]: 'validation.titleInvalid',
  [CAMPAIGN_MESSAGES.shelfOnlyInWizard]: 'validation.shelfOnlyInWizard',
  [CAMPAIGN_MESSAGES.notInOwnProject]: 'validation.notInOwnProject',
  [CAMPAIGN_MESSAGES.frozen]: 'validation.frozen',
  [CAMPAIGN_MESSAGES.contentlessForbidden]: 'validation.contentlessForbidden',
  [ERROR_MESSAGES.validation_failed]: 'validation.saveInvalid',
  'At most 255 characters': 'validation.max255',
  'Enter a link starting with http:// or https://': 'validation.url',
};

/** Range messages of the settings schema: 'must be between 0 and 100'. */
const BETWEEN = /^must be between (-?\d+(?:\.\d+)?) and (-?\d+(?:\.\d+)?)$/;

/**
 * The message in the interface language (`translate` is the `t` of the `campaigns` namespace); a
 * message without a translation is shown as it came.
 */
export function translateValidation(message: string, translate: T): string {
  const key = VALIDATION_KEYS[message];
  if (key) return translate(key);
  const between = BETWEEN.exec(message);
  if (between) return translate('validation.between', { first: between[1], second: between[2] });
  return message;
}
