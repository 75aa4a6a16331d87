import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { openDeleteConfirm } from '../../components/confirm-delete.tsx';
import { useCopySurvey, useDeleteSurvey } from './api.ts';

/**
 * A questionnaire's copy and its confirmed delete, each told in a green notification: `onCopied` after the copy's,
 * `onDeleted` before the delete's (the editor leaves the page). The list and the editor both use them.
 */
export function useSurveyActions(
  survey: { id: string; title: string },
  then: { onCopied?: (id: string) => void; onDeleted?: () => void } = {},
) {
  const { t } = useTranslation('surveys');
  const copy = useCopySurvey();
  const remove = useDeleteSurvey();

  const makeCopy = () =>
    copy.mutate(survey.id, {
      onSuccess: (created) => {
        notifications.show({ color: 'green', message: t('copy.done', { title: created.title }), autoClose: 5000 });
        then.onCopied?.(created.id);
      },
    });

  const confirmDelete = () =>
    openDeleteConfirm({
      t,
      title: survey.title,
      testId: 'confirm-delete',
      onConfirm: () =>
        remove.mutateAsync(survey.id, {
          onSuccess: () => {
            then.onDeleted?.();
            notifications.show({ color: 'green', message: t('delete.done', { title: survey.title }), autoClose: 4000 });
          },
        }),
    });

  return { makeCopy, confirmDelete, copying: copy.isPending, removing: remove.isPending };
}
