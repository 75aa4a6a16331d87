import { Group, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionTitle } from '../../components/list-card.tsx';

/**
 * The head of a panel of the project's scenarios or quota links: its title and what it is for, then its action
 * when the project may still be changed, or the read-only mark.
 */
export function PanelHeader({
  title,
  subtitle,
  manage,
  action,
}: {
  title: string;
  subtitle: string;
  manage: boolean;
  action: ReactNode;
}) {
  const { t } = useTranslation('scenarios');
  return (
    <Group justify="space-between" align="center">
      <SectionTitle title={title} hint={subtitle} />
      {manage ? (
        action
      ) : (
        <Group gap={6} c="dimmed">
          <IconLock size={16} />
          <Text size="sm">{t('scenarios.readOnly')}</Text>
        </Group>
      )}
    </Group>
  );
}
