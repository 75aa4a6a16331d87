import { modals } from '@mantine/modals';

type OpenConfirmModal = Parameters<typeof modals.openConfirmModal>[0];

export type ConfirmOptions = Omit<OpenConfirmModal, 'onConfirm' | 'closeOnConfirm' | 'modalId'> & {
  /**
   * What the confirmation does. A promise (a mutation's `mutateAsync`) keeps the confirm button loading and disabled,
   * and the dialog open, until it settles, so that a second click cannot send the request again; then the dialog
   * closes, after a failure too: its message (a notification, or the form's fields) is outside the dialog. Anything
   * else closes the dialog at once.
   */
  onConfirm: () => unknown;
};

let opened = 0;

/**
 * The one confirmation dialog of the cabinet (issue 28 item 9): every "are you sure?" goes through it, so no
 * confirm button that changes something can be pressed twice while its request runs.
 */
export function openConfirm({ onConfirm, confirmProps, cancelProps, ...options }: ConfirmOptions): string {
  opened += 1;
  const modalId = `confirm-${opened}`;
  let running = false;
  /** While the request runs, nothing in the dialog answers: the confirm button shows it is working. */
  const busy = () =>
    modals.updateModal({
      modalId,
      confirmProps: { ...confirmProps, loading: true, disabled: true },
      cancelProps: { ...cancelProps, disabled: true },
      closeOnClickOutside: false,
      closeOnEscape: false,
    });
  return modals.openConfirmModal({
    ...options,
    modalId,
    confirmProps,
    cancelProps,
    closeOnConfirm: false,
    onConfirm: () => {
      if (running) return;
      running = true;
      let result: unknown;
      try {
        result = onConfirm();
      } catch (error) {
        running = false;
        throw error;
      }
      if (!(result instanceof Promise)) {
        modals.close(modalId);
        return;
      }
      busy();
      // A failure has been told by the mutation's own handlers (and the cabinet's): nothing more to do with it here.
      result.catch(() => undefined).finally(() => modals.close(modalId));
    },
  });
}
