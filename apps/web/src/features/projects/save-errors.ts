import { PROJECT_MESSAGES } from '@emolens/contracts';
import type { FormErrors } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ApiRequestError } from '../../api/client.ts';
import { notifyError } from '../errors/notify.ts';
import { translateValidation } from './messages.ts';
import { serverFieldErrors } from './project-form.ts';

type T = (key: string) => string;

/** Spec section 5: 'Fill in the required fields' on save, as a red notification. */
export function notifyInvalid(t: T): void {
  notifications.show({ color: 'red', message: translateValidation(PROJECT_MESSAGES.saveInvalid, t), autoClose: 7000 });
}

/**
 * A failed create or save: the server's field messages go under their fields, anything else is a
 * red notification. A lost session is already handled by the cabinet.
 */
export function showSaveError(error: unknown, setErrors: (errors: FormErrors) => void, t: T): void {
  if (error instanceof ApiRequestError && error.isAuthError) return;
  if (error instanceof ApiRequestError && error.fields && Object.keys(error.fields).length > 0) {
    setErrors(serverFieldErrors(error.fields, t));
    notifyInvalid(t);
    return;
  }
  notifyError(error);
}
