import { PROJECT_MESSAGES, REQUIRED_MESSAGE } from '@emolens/contracts';

/**
 * The English messages of the project contracts (client validation and the server's `fields`) and
 * their keys in the `projects` namespace, whose English text is the message itself.
 */
export const VALIDATION_KEYS: Record<string, string> = {
  // Also PROJECT_MESSAGES.titleRequired, languageRequired and audienceRequired (the same text).
  [REQUIRED_MESSAGE]: 'validation.required',
  [PROJECT_MESSAGES.platformRequired]: 'validation.platformRequired',
  [PROJECT_MESSAGES.saveInvalid]: 'validation.saveInvalid',
  [PROJECT_MESSAGES.userDoesNotExist]: 'validation.userDoesNotExist',
  'At most 255 characters': 'validation.max255',
  'At most 5000 characters': 'validation.max5000',
  'Enter a whole number': 'validation.wholeNumber',
  'Must be 0 or more': 'validation.nonNegative',
  'At most 1 000 000': 'validation.maxRespondents',
};

/** The message in the interface language; a message without a translation is shown as it came. */
export function translateValidation(message: string, t: (key: string) => string): string {
  const key = VALIDATION_KEYS[message];
  return key ? t(key) : message;
}
