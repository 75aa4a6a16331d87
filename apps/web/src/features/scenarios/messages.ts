/**
 * The English messages of the scenario and quota-link contracts (client validation and the
 * server's `fields`) and their keys in the `scenarios` namespace, whose English text is the message.
 */
export const VALIDATION_KEYS: Record<string, string> = {
  'Enter a link starting with http:// or https://': 'validation.url',
  'Enter a whole number': 'validation.wholeNumber',
  'Must be 0 or more': 'validation.nonNegative',
  'At least 1': 'validation.atLeastOne',
  'At most 2000 characters': 'validation.max2000',
  'Choose researches of this project, each once': 'validation.researchesOfProject',
};

/** The message in the interface language; a message without a translation is shown as it came. */
export function translateValidation(message: string, t: (key: string) => string): string {
  const key = VALIDATION_KEYS[message];
  return key ? t(key) : message;
}
