import type { FormErrors } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ApiRequestError } from '../../api/client.ts';
import { translateFields, translateMessage } from '../../i18n/messages.ts';
import { notifyError } from './notify.ts';

/** Spec section 5: 'Fill in the required fields' on save, as a red notification. */
export function notifySaveInvalid(message = translateMessage({ key: 'errors.validation_failed' })): void {
  notifications.show({ color: 'red', message, autoClose: 7000 });
}

/** How a form takes a failed save. */
export interface SaveErrorTarget {
  setErrors: (errors: FormErrors) => void;
  /** The server's field messages (translated) on the form's own paths. Default: as they are. */
  fieldErrors?: (fields: Record<string, string>) => FormErrors;
  /** Whether a path is a field of the form; the others become notifications. Default: every path. */
  isOnForm?: (path: string) => boolean;
  /** The form's own words for an error (a rule of the domain, a frozen object), or undefined. */
  ownWords?: (error: ApiRequestError) => string | undefined;
}

/**
 * A failed create or save: the server's field messages go under their fields (with the spec's
 * notice), the form's own words for its rules, anything else the usual red notification. A lost
 * session is already handled by the cabinet.
 */
export function showSaveError(error: unknown, target: SaveErrorTarget): void {
  if (!(error instanceof ApiRequestError)) {
    notifyError(error);
    return;
  }
  if (error.isAuthError) return;
  const own = target.ownWords?.(error);
  if (own) {
    notifications.show({ color: 'red', message: own, autoClose: 10_000 });
    return;
  }
  if (error.fields && Object.keys(error.fields).length > 0) {
    const fields = translateFields(error);
    const errors = Object.entries(target.fieldErrors ? target.fieldErrors(fields) : fields);
    const isOnForm = target.isOnForm ?? (() => true);
    const onForm = errors.filter(([path]) => isOnForm(path));
    target.setErrors(Object.fromEntries(onForm));
    for (const [path, message] of errors) {
      if (!isOnForm(path)) notifications.show({ color: 'red', message: String(message), autoClose: 10_000 });
    }
    if (onForm.length > 0) notifySaveInvalid();
    return;
  }
  notifyError(error);
}
