import { CAMPAIGN_MESSAGES, CONTENT_MESSAGES, ERROR_MESSAGES, REQUIRED_MESSAGE } from '@emolens/contracts';

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
  // Content: pictures gallery and shelves
  [CONTENT_MESSAGES.pictureTwice]: 'validation.pictureTwice',
  [CONTENT_MESSAGES.zoneDescriptionsUnique]: 'validation.zoneDescriptionsUnique',
  [CONTENT_MESSAGES.zoneOutside]: 'validation.zoneOutside',
  [CONTENT_MESSAGES.imageRequired]: 'validation.imageRequired',
  [CONTENT_MESSAGES.imageUnknown]: 'validation.imageUnknown',
  'Enter a whole number of seconds': 'validation.wholeSeconds',
  'At most 100 characters': 'validation.max100',
  'At most 500 characters': 'validation.max500',
  'At most 2000 characters': 'validation.max2000',
  'At most 100 pictures': 'validation.maxPictures',
  'At most 50 shelves': 'validation.maxShelves',
  'At most 100 zones': 'validation.maxZones',
  // Content: website-prototype tasks and the Figma link
  [CONTENT_MESSAGES.stepTwice]: 'validation.stepTwice',
  [CONTENT_MESSAGES.nodeIdMissing]: 'validation.nodeIdMissing',
  [CONTENT_MESSAGES.nodeIdInvalid]: 'validation.nodeIdInvalid',
  [CONTENT_MESSAGES.finalStepMissing]: 'validation.finalStepMissing',
  [CONTENT_MESSAGES.anyClickHasNoSteps]: 'validation.anyClickHasNoSteps',
  [CONTENT_MESSAGES.screenshotRequired]: 'validation.screenshotRequired',
  [CONTENT_MESSAGES.finalPointRequired]: 'validation.finalPointRequired',
  [CONTENT_MESSAGES.figmaUrl]: 'validation.figmaUrl',
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
