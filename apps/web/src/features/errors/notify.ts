import { notifications } from '@mantine/notifications';
import { ApiRequestError } from '../../api/client.ts';
import i18n from '../../i18n/index.ts';

/** The user-facing text of an error, in the current language. */
export function errorMessage(error: unknown, fallbackKey = 'errors.internal'): string {
  if (error instanceof ApiRequestError) {
    const wait = error.retryAfter ?? 60;
    // A wait under a minute is said in seconds where the message has such a variant (`<key>_seconds`).
    return i18n.t(`errors.${error.code}`, {
      defaultValue: error.message,
      minutes: Math.ceil(wait / 60),
      seconds: wait,
      context: wait < 60 ? 'seconds' : undefined,
    });
  }
  return i18n.t(fallbackKey);
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
