import type { FormErrors } from '@mantine/form';
import { notifySaveInvalid, showSaveError as show } from '../errors/save-errors.ts';

export { closeSaveErrors } from '../errors/save-errors.ts';

/** Spec section 5: 'Fill in the required fields' on save, as a red notification. */
export function notifyInvalid(): void {
  notifySaveInvalid();
}

/** A failed create or save of a project: every field message of the server is a field of its forms. */
export function showSaveError(error: unknown, setErrors: (errors: FormErrors) => void): void {
  show(error, { setErrors });
}
