import type { FormErrors } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ApiRequestError } from '../../api/client.ts';
import { translateFields, translateMessage } from '../../i18n/messages.ts';
import { notifyError } from './notify.ts';

/** The one 'Fill in the required fields' notice: a new failed attempt does not stack another. */
const SAVE_INVALID_ID = 'save-invalid';
/** The ids of the other notices of failed saves that may still be on screen. */
const shown = new Set<string>();
let next = 0;

/** Spec section 5: 'Fill in the required fields' on save, as a red notification. */
export function notifySaveInvalid(message = translateMessage({ key: 'errors.validation_failed' })): void {
  notifications.show({ id: SAVE_INVALID_ID, color: 'red', message, autoClose: 7000 });
}

function notifySaveFailed(message: string): void {
  next += 1;
  const id = `save-error-${next}`;
  shown.add(id);
  notifications.show({ id, color: 'red', message, autoClose: 10_000, onClose: () => shown.delete(id) });
}

/**
 * A save succeeded: the notices of the earlier failed attempts are out of date, and they would
 * cover the page's heading. Call it on every successful create or save of a form.
 */
export function closeSaveErrors(): void {
  notifications.hide(SAVE_INVALID_ID);
  for (const id of [...shown]) notifications.hide(id);
  shown.clear();
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
    notifySaveFailed(own);
    return;
  }
  if (error.fields && Object.keys(error.fields).length > 0) {
    const fields = translateFields(error);
    const errors = Object.entries(target.fieldErrors ? target.fieldErrors(fields) : fields);
    const isOnForm = target.isOnForm ?? (() => true);
    const onForm = errors.filter(([path]) => isOnForm(path));
    target.setErrors(Object.fromEntries(onForm));
    for (const [path, message] of errors) {
      if (!isOnForm(path)) notifySaveFailed(String(message));
    }
    if (onForm.length > 0) notifySaveInvalid();
    return;
  }
  notifyError(error);
}
