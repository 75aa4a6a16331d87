import { Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { openConfirm } from './confirm.ts';

/**
 * The confirmation of deleting an object: the texts `delete.title`, `delete.text` (naming the object by `title`),
 * `delete.confirm` and `actions.cancel` of the namespace `t` reads; a red confirm button with the test id `testId`.
 */
export function openDeleteConfirm({
  t,
  title,
  testId,
  onConfirm,
}: {
  t: TFunction;
  title: string;
  testId: string;
  onConfirm: () => unknown;
}): string {
  return openConfirm({
    title: t('delete.title'),
    children: <Text size="sm">{t('delete.text', { title })}</Text>,
    labels: { confirm: t('delete.confirm'), cancel: t('actions.cancel') },
    confirmProps: { color: 'red', 'data-testid': testId },
    centered: true,
    onConfirm,
  });
}
