import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isNotFound, LoadErrorState, LoadingState } from '../../components/load-states.tsx';
import { StatusBadge } from '../projects/project-ui.tsx';
import { usePublicQuota } from './api.ts';
import { QuotaTable } from './quota-table.tsx';

/** /quote/{projectId}: the public quota statistics of a project (no login, no personal data). */
export function QuotaPage() {
  const { t } = useTranslation('fieldwork');
  const { projectId = '' } = useParams();
  const query = usePublicQuota(projectId);

  if (query.data) {
    const stats = query.data;
    return (
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="lg" data-testid="quota-page">
        <Stack gap="lg">
          <Stack gap={4}>
            <Text size="sm" c="dimmed">
              {t('quotaPage.title')}
            </Text>
            <Group gap="sm">
              <Title order={2} style={{ overflowWrap: 'anywhere' }}>
                {stats.project.title}
              </Title>
              <StatusBadge status={stats.project.status} />
            </Group>
            <Group gap={4} c="dimmed">
              <IconRefresh size={14} />
              <Text size="xs">{t('quotaPage.updates')}</Text>
            </Group>
          </Stack>
          <QuotaTable stats={stats} />
        </Stack>
      </Paper>
    );
  }
  if (isNotFound(query.error)) {
    return (
      <Paper withBorder p="xl" radius="lg" data-testid="quota-not-found">
        <Stack gap="sm">
          <Title order={2}>{t('quotaPage.notFoundTitle')}</Title>
          <Text c="dimmed">{t('quotaPage.notFoundText')}</Text>
        </Stack>
      </Paper>
    );
  }
  if (query.isError) {
    return (
      <LoadErrorState
        text={t('quotaPage.loadError')}
        retryLabel={t('quotaPage.retry')}
        onRetry={() => query.refetch()}
        testId="quota-error"
      />
    );
  }
  return <LoadingState testId="quota-loading" />;
}
