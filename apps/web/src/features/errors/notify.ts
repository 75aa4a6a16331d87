import { notifications } from '@mantine/notifications';
import { ApiRequestError } from '../../api/client.ts';
import i18n from '../../i18n/index.ts';
import { translateMessage } from '../../i18n/messages.ts';

/** The user-facing text of an error, in the current language. */
export function errorMessage(error: unknown): string {
  return translateMessage(error instanceof ApiRequestError ? error.ref : { key: 'errors.internal' });
}

/** Spec section 8: errors appear as a red notification at the top of the screen. */
export function notifyError(error: unknown, titleKey?: string): void {
  notifications.show({
    color: 'red',
    title: titleKey ? i18n.t(titleKey) : undefined,
    message: errorMessage(error),
    autoClose: 7000,
  });
}
