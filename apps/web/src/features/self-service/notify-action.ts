import { notifications } from '@mantine/notifications';
import { errorDetails, errorMessage, notifyError } from '../errors/notify.ts';

/**
 * A refused change of state as the usual red notification; the server names the problem both as the message and as
 * a field of it (a send to moderation that misses something), so a detail that repeats the message is left out.
 */
export function notifyActionError(error: unknown): void {
  const message = errorMessage(error);
  if (errorDetails(error).some((detail) => detail !== message)) {
    notifyError(error);
    return;
  }
  notifications.show({ color: 'red', message, autoClose: 7000 });
}
