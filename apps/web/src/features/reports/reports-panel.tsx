import type { MessageKey, ReportSummary } from '@emolens/contracts';
import { ActionIcon, Badge, Box, Button, Group, Paper, Progress, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconChartLine, IconPlayerStop, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { openConfirm } from '../../components/confirm.ts';
import { DataTable } from '../../components/data-table.tsx';
import { SectionCard, SectionTitle } from '../../components/list-card.tsx';
import { FirstLoadState } from '../../components/load-states.tsx';
import { translateMessage } from '../../i18n/messages.ts';
import { notifyError } from '../errors/notify.ts';
import { useProjectFormat } from '../projects/project-ui.tsx';
import { useReportAction, useReports } from './api.ts';
import { CreateReportModal } from './create-report-modal.tsx';
import { filterParts } from './report-filters.ts';

const STATUS_COLORS = { in_progress: 'blue', done: 'green', canceled: 'gray' } as const;

/**
 * The research's reports on its statistic page (spec section 3): name, status, filters, step detail, type, video
 * count, when it was built and last opened; a new report; open, rebuild, stop or delete as the server's `can`
 * flags allow. Polled while a build runs.
 */
export function ReportsPanel({ researchId }: { researchId: string }) {
  const { t } = useTranslation('reports');
  const list = useReports(researchId);
  const [creating, setCreating] = useState(false);
  const reports = list.data;

  return (
    <SectionCard testId="reports-panel">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <SectionTitle title={t('list.title')} hint={t('list.subtitle')} />
          <Button
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => setCreating(true)}
            data-testid="report-create"
          >
            {t('list.create')}
          </Button>
        </Group>
        <FirstLoadState query={list} text={t('list.loadError')} retryLabel={t('list.retry')} />
        {reports && reports.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="reports-empty">
            {t('list.empty')}
          </Text>
        )}
        {reports && reports.length > 0 && (
          <>
            <Box visibleFrom="md">
              <DataTable
                minWidth={900}
                verticalSpacing="xs"
                fz="sm"
                striped
                columns={[
                  t('list.name'),
                  t('list.status'),
                  t('list.filters'),
                  t('list.videos'),
                  t('list.built'),
                  t('list.accessed'),
                  '',
                ]}
              >
                {reports.map((r) => (
                  <ReportRow key={r.id} researchId={researchId} report={r} />
                ))}
              </DataTable>
            </Box>
            <Stack gap="sm" hiddenFrom="md">
              {reports.map((r) => (
                <ReportCard key={r.id} researchId={researchId} report={r} />
              ))}
            </Stack>
          </>
        )}
      </Stack>
      <CreateReportModal
        researchId={researchId}
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={() => setCreating(false)}
      />
    </SectionCard>
  );
}

function useCells(researchId: string, r: ReportSummary) {
  const { t } = useTranslation('reports');
  const format = useProjectFormat();
  const dash = (
    <Text span size="sm" c="dimmed">
      —
    </Text>
  );
  const name = r.can.open ? (
    <Text
      component={Link}
      to={`/cabinet/campaign/${researchId}/report/${r.id}`}
      size="sm"
      fw={600}
      c="blue"
      style={{ overflowWrap: 'anywhere' }}
      data-testid="report-open"
    >
      {r.name}
    </Text>
  ) : (
    <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
      {r.name}
    </Text>
  );
  return {
    name: (
      <Stack gap={2}>
        {name}
        <Text size="xs" c="dimmed">
          {t(`types.${r.type}`)} · {t('list.step', { count: r.step })}
        </Text>
      </Stack>
    ),
    status: (
      <Stack gap={4} data-testid="report-status" data-status={r.status} data-failed={r.failed}>
        <Badge color={r.failed ? 'red' : STATUS_COLORS[r.status]} variant="light" miw="max-content">
          {r.failed ? t('status.failed') : t(`status.${r.status}`)}
        </Badge>
        {r.status === 'in_progress' && (
          <Group gap={6} wrap="nowrap">
            <Progress value={r.progress} size="sm" w={90} animated aria-label={t('status.in_progress')} />
            <Text size="xs" c="dimmed">
              {r.progress}%
            </Text>
          </Group>
        )}
        {r.failed && r.error_key && (
          <Text size="xs" c="red" maw={240} data-testid="report-error">
            {translateMessage({ key: r.error_key as MessageKey })}
          </Text>
        )}
      </Stack>
    ),
    filters: (
      <Group gap={4} maw={360}>
        {filterParts(r.filters, r.researches).map((part) => (
          <Badge key={part.key} size="sm" variant="outline" color="gray" tt="none" fw={500}>
            {t(part.key, part.values)}
          </Badge>
        ))}
        {r.segment.by !== 'none' && (
          <Badge size="sm" variant="outline" color="violet" tt="none" fw={500}>
            {t(`filters.${SEGMENT_LABEL[r.segment.by]}`)}
          </Badge>
        )}
      </Group>
    ),
    videos: r.video_count === null ? dash : <Text size="sm">{format.number(r.video_count)}</Text>,
    built: r.built_at ? <Text size="sm">{format.dateTime(r.built_at)}</Text> : dash,
    accessed: r.last_accessed_at ? <Text size="sm">{format.dateTime(r.last_accessed_at)}</Text> : dash,
  };
}

/** The list's badge of each way to split the curves. */
const SEGMENT_LABEL = {
  sex: 'segmentSex',
  answer: 'segmentAnswer',
  research: 'segmentResearch',
} as const;

function ReportRow({ researchId, report: r }: { researchId: string; report: ReportSummary }) {
  const cells = useCells(researchId, r);
  return (
    <Table.Tr data-testid="report-row">
      <Table.Td miw={180}>{cells.name}</Table.Td>
      <Table.Td>{cells.status}</Table.Td>
      <Table.Td>{cells.filters}</Table.Td>
      <Table.Td>{cells.videos}</Table.Td>
      <Table.Td>{cells.built}</Table.Td>
      <Table.Td>{cells.accessed}</Table.Td>
      <Table.Td>
        <ReportActions researchId={researchId} report={r} />
      </Table.Td>
    </Table.Tr>
  );
}

function ReportCard({ researchId, report: r }: { researchId: string; report: ReportSummary }) {
  const { t } = useTranslation('reports');
  const cells = useCells(researchId, r);
  const facts: [string, ReactNode][] = [
    [t('list.videos'), cells.videos],
    [t('list.built'), cells.built],
    [t('list.accessed'), cells.accessed],
  ];
  return (
    <Paper withBorder radius="md" p="sm" data-testid="report-card">
      <Stack gap={8}>
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          {cells.name}
          <ReportActions researchId={researchId} report={r} />
        </Group>
        {cells.status}
        {cells.filters}
        {facts.map(([label, value]) => (
          <Group key={label} gap="xs" justify="space-between">
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            {value}
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}

/** Open, rebuild, stop and delete, as the server's `can` flags say. */
function ReportActions({ researchId, report: r }: { researchId: string; report: ReportSummary }) {
  const { t } = useTranslation('reports');
  const action = useReportAction(researchId);
  const run = (kind: 'rebuild' | 'cancel' | 'delete') =>
    action.mutate({ reportId: r.id, action: kind }, { onError: (error) => notifyError(error) });
  const confirmDelete = () =>
    openConfirm({
      title: t('actions.deleteTitle'),
      children: <Text size="sm">{t('actions.deleteText', { name: r.name })}</Text>,
      labels: { confirm: t('actions.delete'), cancel: t('create.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete-report' },
      centered: true,
      onConfirm: () =>
        action.mutateAsync({ reportId: r.id, action: 'delete' }, { onError: (error) => notifyError(error) }),
    });
  const pending = action.isPending ? action.variables?.action : undefined;
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      {r.can.open && (
        <Tooltip label={t('actions.open')} withArrow>
          <ActionIcon
            component={Link}
            to={`/cabinet/campaign/${researchId}/report/${r.id}`}
            variant="light"
            aria-label={t('actions.open')}
          >
            <IconChartLine size={16} />
          </ActionIcon>
        </Tooltip>
      )}
      {r.can.rebuild && (
        <Tooltip label={t('actions.rebuild')} withArrow>
          <ActionIcon
            variant="light"
            aria-label={t('actions.rebuild')}
            loading={pending === 'rebuild'}
            onClick={() => run('rebuild')}
            data-testid="report-rebuild"
          >
            <IconRefresh size={16} />
          </ActionIcon>
        </Tooltip>
      )}
      {r.can.cancel && (
        <Tooltip label={t('actions.cancel')} withArrow>
          <ActionIcon
            variant="light"
            color="orange"
            aria-label={t('actions.cancel')}
            loading={pending === 'cancel'}
            onClick={() => run('cancel')}
            data-testid="report-cancel"
          >
            <IconPlayerStop size={16} />
          </ActionIcon>
        </Tooltip>
      )}
      {r.can.delete && (
        <Tooltip label={t('actions.delete')} withArrow>
          <ActionIcon
            variant="light"
            color="red"
            aria-label={t('actions.delete')}
            loading={pending === 'delete'}
            onClick={confirmDelete}
            data-testid="report-delete"
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
