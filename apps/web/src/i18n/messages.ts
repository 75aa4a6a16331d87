import {
  formatMessage,
  isLanguage,
  MESSAGES,
  type MessageKey,
  type MessageRef,
  parseMessage,
} from '@emolens/contracts';
import i18n from 'i18next';
import type { ApiRequestError } from '../api/client.ts';
import { type LocaleTree, lookup } from './locale-tree.ts';
import { resources } from './resources.ts';

/** The template of a catalogue key in a language (the `messages` namespace), English when missing. */
function templateOf(key: MessageKey, language: string): string {
  const tree = isLanguage(language) ? (resources[language].messages as LocaleTree) : undefined;
  return (tree && lookup(tree, key)) ?? MESSAGES[key];
}

/**
 * A message in the interface language: a catalogue reference (from the server's answer) or a zod
 * issue's message (from the shared schemas, a reference written with `msg()`). Any other text is
 * shown as it came.
 */
export function translateMessage(message: string | MessageRef, language: string = i18n.language): string {
  const ref = typeof message === 'string' ? parseMessage(message) : message;
  if (!ref) return message as string;
  return formatMessage(templateOf(ref.key, language), ref.params, language);
}

/** The field messages of a failed call, translated; a field without a known key keeps the server's text. */
export function translateFields(error: ApiRequestError, language: string = i18n.language): Record<string, string> {
  return Object.fromEntries(
    Object.entries(error.fields ?? {}).map(([path, text]) => {
      const ref = error.fieldRefs[path];
      return [path, ref ? translateMessage(ref, language) : text];
    }),
  );
}

/** The messages of a failed zod check by field path (the first of each field), translated, for under the fields. */
export function issueMessages(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }) {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    if (path && !(path in errors)) errors[path] = translateMessage(issue.message);
  }
  return errors;
}
