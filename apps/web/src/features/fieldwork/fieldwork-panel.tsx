import type { Project } from '@emolens/contracts';
import { Anchor, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { InlineLoadError } from '../../components/load-states.tsx';
import { useProjectFieldwork } from './api.ts';
import { QuotaTable } from './quota-table.tsx';
import { SessionsList } from './sessions-list.tsx';

/** The project page's fieldwork: quota statistics (live while collecting) and the sessions with their recordings. */
export function FieldworkPanel({ project }: { project: Project }) {
  const { t } = useTranslation('fieldwork');
  const live = project.status === 'active';
  const query = useProjectFieldwork(project.id, live);
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="fieldwork-panel">
      <Stack gap="lg">
        <Group justify="space-between" align="center">
          <Stack gap={2}>
            <Title order={3} size="h4">
              {t('panel.title')}
            </Title>
            {live && (
              <Group gap={4} c="dimmed">
                <IconRefresh size={14} />
                <Text size="xs">{t('panel.live')}</Text>
              </Group>
            )}
          </Stack>
          <Anchor
            href={`/quote/${project.id}`}
            target="_blank"
            rel="noopener"
            size="sm"
            data-testid="public-quota-link"
          >
            <Group gap={4} wrap="nowrap">
              {t('panel.publicLink')}
              <IconExternalLink size={14} />
            </Group>
          </Anchor>
        </Group>
        {query.data && <QuotaTable stats={query.data} />}
        {query.isError && !query.data && (
          <InlineLoadError text={t('panel.loadError')} retryLabel={t('panel.retry')} onRetry={() => query.refetch()} />
        )}
        <Divider />
        <SessionsList owner="projects" ownerId={project.id} live={live} />
      </Stack>
    </Paper>
  );
}
