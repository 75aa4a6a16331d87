import { VIDEO_PROCESS_STATUSES, type VideoProcess } from '@emolens/contracts';
import { Badge, Group, Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { InlineLoadError } from '../../components/load-states.tsx';
import { BackLink } from '../../components/page-notices.tsx';
import { useCampaignContext } from '../campaigns/campaign-context.ts';
import { useProjectFormat } from '../projects/project-ui.tsx';
import { useVideoProcesses, useVideoProcessStatistic } from './api.ts';
import { PROCESS_STATUS_COLORS } from './quota-table.tsx';
import { SessionsList } from './sessions-list.tsx';

/** campaign/{id}/statistic: the research's video processes (states and counts) and its sessions with playback. */
export function CampaignStatisticPage() {
  const { t } = useTranslation('fieldwork');
  const { campaign } = useCampaignContext();
  if (!campaign) return null;
  return (
    <Stack gap="lg" maw={1200} data-testid="campaign-statistic">
      <Stack gap={6}>
        <BackLink to={`/cabinet/campaign/${campaign.id}`} label={t('statistic.back')} />
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          {t('statistic.title', { title: campaign.title })}
        </Title>
        <Text size="sm" c="dimmed">
          {t('statistic.project', { title: campaign.project.title })}
        </Text>
      </Stack>
      <ProcessesPanel campaignId={campaign.id} />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <SessionsList owner="campaigns" ownerId={campaign.id} />
      </Paper>
    </Stack>
  );
}

function ProcessesPanel({ campaignId }: { campaignId: string }) {
  const { t } = useTranslation('fieldwork');
  const stats = useVideoProcessStatistic(campaignId);
  const list = useVideoProcesses(campaignId);
  const counts = stats.data;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="processes-panel">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={3} size="h4">
            {t('processes.title')}
          </Title>
          {counts && (
            <Text size="sm" c="dimmed" data-testid="processes-total">
              {t('processes.total', { count: counts.total })}
            </Text>
          )}
        </Group>
        {counts && counts.total > 0 && (
          <Group gap="xs" data-testid="processes-counts">
            {VIDEO_PROCESS_STATUSES.filter((status) => counts.by_status[status]).map((status) => (
              <Badge key={status} color={PROCESS_STATUS_COLORS[status]} variant="light" tt="none">
                {t(`processStatus.${status}`)}: {counts.by_status[status]}
              </Badge>
            ))}
          </Group>
        )}
        {(list.isError || stats.isError) && !list.data && (
          <InlineLoadError
            text={t('processes.loadError')}
            retryLabel={t('processes.retry')}
            onRetry={() => {
              list.refetch();
              stats.refetch();
            }}
          />
        )}
        {list.data && list.data.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('processes.empty')}
          </Text>
        )}
        {list.data && list.data.length > 0 && (
          <Table.ScrollContainer minWidth={640}>
            <Table striped verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('processes.respondent')}</Table.Th>
                  <Table.Th>{t('processes.state')}</Table.Th>
                  <Table.Th>{t('processes.progress')}</Table.Th>
                  <Table.Th>{t('processes.attempts')}</Table.Th>
                  <Table.Th>{t('processes.created')}</Table.Th>
                  <Table.Th>{t('processes.updated')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.map((p) => (
                  <ProcessRow key={p.id} process={p} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}

/** Progress is a share (0–1); a percentage from another writer is shown as it is. */
const percent = (progress: number) => Math.round(progress <= 1 ? progress * 100 : Math.min(progress, 100));

function ProcessRow({ process: p }: { process: VideoProcess }) {
  const { t } = useTranslation('fieldwork');
  const format = useProjectFormat();
  return (
    <Table.Tr key={p.id} data-testid="process-row">
      <Table.Td>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {p.respondent}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge color={PROCESS_STATUS_COLORS[p.status]} variant="light" miw="max-content">
          {t(`processStatus.${p.status}`)}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Progress value={percent(p.progress)} w={80} size="sm" />
          <Text size="xs">{percent(p.progress)}%</Text>
        </Group>
      </Table.Td>
      <Table.Td>{p.attempts}</Table.Td>
      <Table.Td>
        <Text size="sm">{format.dateTime(p.created_at)}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{format.dateTime(p.updated_at)}</Text>
      </Table.Td>
    </Table.Tr>
  );
}
