import { notifications } from '@mantine/notifications';
import { ApiRequestError } from '../../api/client.ts';
import { translateFields } from '../../i18n/messages.ts';
import { errorMessage, notifyError } from '../errors/notify.ts';

export const toastOk = (message: string) => notifications.show({ color: 'green', message, autoClose: 4000 });

/**
 * A failed call that the page handles itself: the field messages go under the fields, and the red notification of
 * spec section 8 says the message once.
 */
export function failed(error: unknown, setErrors?: (errors: Record<string, string>) => void) {
  if (error instanceof ApiRequestError && error.isAuthError) return;
  const fields = error instanceof ApiRequestError ? translateFields(error) : {};
  if (setErrors && Object.keys(fields).length > 0) {
    setErrors(fields);
    notifications.show({ color: 'red', message: errorMessage(error) });
    return;
  }
  notifyError(error);
}
