import { PROJECT_MESSAGES } from '@emolens/contracts';
import type { FormErrors } from '@mantine/form';
import { notifySaveInvalid, showSaveError as show } from '../errors/save-errors.ts';

export { closeSaveErrors } from '../errors/save-errors.ts';

import { translateValidation } from './messages.ts';
import { serverFieldErrors } from './project-form.ts';

type T = (key: string) => string;

/** Spec section 5: 'Fill in the required fields' on save, as a red notification. */
export function notifyInvalid(t: T): void {
  notifySaveInvalid(translateValidation(PROJECT_MESSAGES.saveInvalid, t));
}

/** A failed create or save of a project: every field message of the server is a field of its forms. */
export function showSaveError(error: unknown, setErrors: (errors: FormErrors) => void, t: T): void {
  show(error, {
    setErrors,
    fieldErrors: (fields) => serverFieldErrors(fields, t),
    invalidMessage: translateValidation(PROJECT_MESSAGES.saveInvalid, t),
  });
}
