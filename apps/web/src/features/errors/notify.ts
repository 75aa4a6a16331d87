import { notifications } from '@mantine/notifications';
import { createElement } from 'react';
import { ApiRequestError } from '../../api/client.ts';
import i18n from '../../i18n/index.ts';
import { translateFields, translateMessage } from '../../i18n/messages.ts';

/** The user-facing text of an error, in the current language. */
export function errorMessage(error: unknown): string {
  return translateMessage(error instanceof ApiRequestError ? error.ref : { key: 'errors.internal' });
}

/**
 * The messages of the parts an error names (e.g. what a launch is missing), translated; none when
 * it names none.
 */
export function errorDetails(error: unknown): string[] {
  return error instanceof ApiRequestError ? Object.values(translateFields(error)) : [];
}

/**
 * Spec section 8: errors appear as a red notification at the top of the screen. An error that names
 * its parts (and that no form shows under its fields) lists them under the message.
 */
export function notifyError(error: unknown, titleKey?: string): void {
  const details = errorDetails(error);
  const message = errorMessage(error);
  notifications.show({
    color: 'red',
    title: titleKey ? i18n.t(titleKey) : undefined,
    message: details.length
      ? createElement(
          'div',
          { 'data-testid': 'error-details' },
          message,
          createElement(
            'ul',
            { style: { margin: '4px 0 0', paddingLeft: 18 } },
            ...details.map((detail) => createElement('li', { key: detail }, detail)),
          ),
        )
      : message,
    autoClose: details.length ? 15_000 : 7000,
  });
}
