import { VIDEO_PROCESS_STATUSES, type VideoProcess } from '@emolens/contracts';
import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconPlayerStop, IconRefresh, IconRotateClockwise } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { openConfirm } from '../../components/confirm.ts';
import { DataTable } from '../../components/data-table.tsx';
import { FactsGrid } from '../../components/facts-grid.tsx';
import { GazeDegrees } from '../../components/gaze-degrees.tsx';
import { GazeDriftFigure } from '../../components/gaze-drift.tsx';
import { GazePrecisionFigure } from '../../components/gaze-precision.tsx';
import { SectionCard, SectionTitle } from '../../components/list-card.tsx';
import { InlineLoadError } from '../../components/load-states.tsx';
import { BackLink } from '../../components/page-notices.tsx';
import { translateMessage } from '../../i18n/messages.ts';
import { useProjectFormat } from '../projects/project-ui.tsx';
import { ReportsPanel } from '../reports/reports-panel.tsx';
import { TaskStatisticsPanel } from '../reports/task-statistics-panel.tsx';
import { useResearchContext } from '../researches/research-context.ts';
import { SurveyStatisticsPanel } from '../surveys/survey-statistics-panel.tsx';
import {
  cintFileUrl,
  useProcessAction,
  useRefreshWhenSettled,
  useReprocessResearch,
  useVideoProcesses,
  useVideoProcessStatistic,
} from './api.ts';
import { DeviceAnalysisFigures } from './device-analysis-figures.tsx';
import { PhantomTruthsPanel } from './phantom-truths-panel.tsx';
import { formatDuration, isRunning, processPollInterval, processReasonKey, respondentLabel } from './process-view.ts';
import { PROCESS_STATUS_COLORS } from './quota-table.tsx';
import { SessionsList } from './sessions-list.tsx';

/** campaign/{id}/statistic: the research's video processes, live while they run, and its sessions with playback. */
export function ResearchStatisticPage() {
  const { t } = useTranslation('fieldwork');
  const { research } = useResearchContext();
  if (!research) return null;
  return (
    <Stack gap="lg" maw={1280} data-testid="campaign-statistic">
      <Stack gap={6}>
        <BackLink to={`/cabinet/campaign/${research.id}`} label={t('statistic.back')} />
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          {t('statistic.title', { title: research.title })}
        </Title>
        <Text size="sm" c="dimmed">
          {t('statistic.project', { title: research.project.title })}
        </Text>
      </Stack>
      <ProcessesPanel researchId={research.id} />
      <PhantomTruthsPanel researchId={research.id} />
      <ReportsPanel researchId={research.id} />
      {research.content_type === 'site' && <TaskStatisticsPanel researchId={research.id} />}
      <SurveyStatisticsPanel researchId={research.id} />
      <SectionCard>
        <SessionsList owner="campaigns" ownerId={research.id} />
      </SectionCard>
    </Stack>
  );
}

function ProcessesPanel({ researchId }: { researchId: string }) {
  const { t } = useTranslation('fieldwork');
  const list = useVideoProcesses(researchId);
  const live = processPollInterval(list.data) !== false;
  const stats = useVideoProcessStatistic(researchId, live);
  useRefreshWhenSettled(researchId, live);
  const reprocess = useReprocessResearch(researchId);
  const counts = stats.data;

  const confirmReprocess = () =>
    openConfirm({
      title: t('processes.reprocess.title'),
      children: (
        <Stack gap="xs">
          <Text size="sm">{t('processes.reprocess.text')}</Text>
          {/* Privacy mode (decision 064): no video exists; the uploaded readings are what is analysed again. */}
          {counts?.device_analysis && (
            <Text size="sm" data-testid="reprocess-on-device">
              {t('processes.reprocess.onDevice')}
            </Text>
          )}
        </Stack>
      ),
      labels: { confirm: t('processes.reprocess.confirm'), cancel: t('processes.reprocess.cancel') },
      confirmProps: { 'data-testid': 'confirm-reprocess' },
      centered: true,
      onConfirm: () =>
        reprocess.mutateAsync(undefined, {
          onSuccess: ({ restarted }) =>
            notifications.show({
              color: 'green',
              message: t('processes.reprocess.done', { count: restarted }),
              autoClose: 4000,
            }),
        }),
    });

  return (
    <SectionCard testId="processes-panel">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={2}>
            <SectionTitle title={t('processes.title')} />
            {live && (
              <Group gap={6} data-testid="processes-live">
                <Loader size={10} type="dots" />
                <Text size="xs" c="dimmed">
                  {t('processes.live')}
                </Text>
              </Group>
            )}
          </Stack>
          <Group gap="xs">
            <Button
              component="a"
              href={cintFileUrl(researchId)}
              download
              variant="default"
              size="xs"
              leftSection={<IconDownload size={14} />}
              data-testid="cint-download"
            >
              {t('processes.cint')}
            </Button>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconRefresh size={14} />}
              disabled={!counts?.can_reprocess}
              loading={reprocess.isPending}
              onClick={confirmReprocess}
              data-testid="reprocess"
            >
              {t('processes.reprocess.button')}
            </Button>
          </Group>
        </Group>
        {counts && (
          <Stack gap="xs">
            <SimpleGrid cols={{ base: 3, sm: 3 }} spacing="xs" maw={520} data-testid="processes-counts">
              <Count label={t('processes.counts.total')} value={counts.total} testId="processes-total" />
              <Count label={t('processes.counts.usable')} value={counts.usable} color="green" testId="count-usable" />
              <Count
                label={t('processes.counts.excluded')}
                value={counts.excluded}
                color="orange"
                testId="count-excluded"
              />
            </SimpleGrid>
            {counts.total > 0 && (
              <Group gap={6} data-testid="processes-by-status">
                {VIDEO_PROCESS_STATUSES.filter((status) => counts.by_status[status]).map((status) => (
                  <Badge key={status} color={PROCESS_STATUS_COLORS[status]} variant="light" tt="none">
                    {t(`processStatus.${status}`)}: {counts.by_status[status]}
                  </Badge>
                ))}
              </Group>
            )}
            {counts.device_analysis && <DeviceAnalysisFigures figures={counts.device_analysis} />}
          </Stack>
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
          <>
            <Box visibleFrom="md">
              <ProcessTable researchId={researchId} processes={list.data} />
            </Box>
            <Stack gap="sm" hiddenFrom="md" data-testid="process-cards">
              {list.data.map((p) => (
                <ProcessCard key={p.id} researchId={researchId} process={p} />
              ))}
            </Stack>
          </>
        )}
      </Stack>
    </SectionCard>
  );
}

function Count({ label, value, color, testId }: { label: string; value: number; color?: string; testId: string }) {
  const format = useProjectFormat();
  return (
    <Paper withBorder radius="md" px="sm" py={6} data-testid={testId}>
      <Text size="xs" c="dimmed" lh={1.3}>
        {label}
      </Text>
      <Text fw={700} size="lg" c={color}>
        {format.number(value)}
      </Text>
    </Paper>
  );
}

function ProcessTable({ researchId, processes }: { researchId: string; processes: VideoProcess[] }) {
  const { t } = useTranslation('fieldwork');
  return (
    <DataTable
      minWidth={1000}
      striped
      verticalSpacing="xs"
      fz="sm"
      columns={[
        t('processes.respondent'),
        t('processes.state'),
        t('processes.duration'),
        t('processes.face'),
        t('processes.badFrames'),
        t('processes.calibration'),
        t('processes.engine'),
        t('processes.reason'),
        '',
      ]}
    >
      {processes.map((p) => (
        <ProcessRow key={p.id} researchId={researchId} process={p} />
      ))}
    </DataTable>
  );
}

function ProcessRow({ researchId, process: p }: { researchId: string; process: VideoProcess }) {
  const cells = useCells(p);
  return (
    <Table.Tr data-testid="process-row" data-status={p.status}>
      <Table.Td miw={150}>{cells.respondent}</Table.Td>
      <Table.Td miw={150}>{cells.state}</Table.Td>
      <Table.Td>{cells.duration}</Table.Td>
      <Table.Td data-testid="process-face">{cells.face}</Table.Td>
      <Table.Td>{cells.badFrames}</Table.Td>
      <Table.Td miw={120} data-testid="process-gaze">
        {cells.calibration}
      </Table.Td>
      <Table.Td data-testid="process-engine">{cells.engine}</Table.Td>
      <Table.Td miw={180} maw={260}>
        {cells.reason}
      </Table.Td>
      <Table.Td>
        <ProcessActions researchId={researchId} process={p} compact />
      </Table.Td>
    </Table.Tr>
  );
}

/** Phone width: one card per process, the state and the respondent first. */
function ProcessCard({ researchId, process: p }: { researchId: string; process: VideoProcess }) {
  const { t } = useTranslation('fieldwork');
  const cells = useCells(p);
  const facts: [string, ReactNode][] = [
    [t('processes.duration'), cells.duration],
    [t('processes.face'), cells.face],
    [t('processes.badFrames'), cells.badFrames],
    [t('processes.calibration'), cells.calibration],
  ];
  return (
    <Paper withBorder radius="md" p="sm" data-testid="process-card" data-status={p.status}>
      <Stack gap={8}>
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          {cells.respondent}
          <ProcessActions researchId={researchId} process={p} />
        </Group>
        <Group justify="space-between" align="flex-start" gap="xs">
          {cells.state}
          {(p.result?.engine_version ?? p.engine_version) && cells.engine}
        </Group>
        {/* Figures only once there is a result: a waiting recording has none to show. */}
        {p.result && <FactsGrid facts={facts} />}
        {processReasonKey(p) && cells.reason}
      </Stack>
    </Paper>
  );
}

/** The cells of one process, shared by the table row and the phone card. */
function useCells(p: VideoProcess) {
  const { t, i18n } = useTranslation('fieldwork');
  const language = i18n.resolvedLanguage ?? 'en';
  const percent = (share: number, digits = 1) =>
    new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: digits }).format(share);
  const number = (value: number, digits = 0) =>
    new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value);
  const r = p.result;
  const dash = (
    <Text span size="sm" c="dimmed">
      —
    </Text>
  );
  const who = respondentLabel(p);
  const reasonKey = processReasonKey(p);
  const running = isRunning(p.status);

  return {
    respondent: (
      <Stack gap={0} miw={140}>
        <Text size="sm" fw={500} ff={who.isSession ? 'monospace' : undefined} style={{ overflowWrap: 'anywhere' }}>
          {who.text}
        </Text>
        {p.attempts > 1 && (
          <Text size="xs" c="dimmed">
            {t('processes.attempts', { count: p.attempts })}
          </Text>
        )}
      </Stack>
    ),
    state: (
      <Stack gap={4}>
        <Badge color={PROCESS_STATUS_COLORS[p.status]} variant="light" miw="max-content" data-testid="process-status">
          {t(`processStatus.${p.status}`)}
        </Badge>
        {running && (
          <Group gap={6} wrap="nowrap">
            <Progress
              value={p.progress}
              size="sm"
              w={96}
              animated={p.status !== 'collected' && p.status !== 'restarted'}
              aria-label={t('processes.progress')}
            />
            <Text size="xs" c="dimmed">
              {p.progress}%
            </Text>
          </Group>
        )}
        {running && r && (
          <Tooltip label={t('processes.keepsResultHint')} withArrow multiline maw={260}>
            <Text size="xs" c="dimmed" w="max-content">
              {t('processes.keepsResult')}
            </Text>
          </Tooltip>
        )}
      </Stack>
    ),
    duration: r ? <Text size="sm">{formatDuration(r.recording_seconds)}</Text> : dash,
    face: r ? (
      <Text size="sm" c={r.face_found ? undefined : 'red'} style={{ whiteSpace: 'nowrap' }}>
        {r.face_found ? t('processes.yes') : t('processes.no')}
      </Text>
    ) : (
      dash
    ),
    badFrames: r ? (
      <Text size="sm" c={r.excluded_reason === 'bad_frames' ? 'orange' : undefined}>
        {percent(r.bad_frame_share)}
      </Text>
    ) : (
      dash
    ),
    calibration:
      r && r.calibration_status === 'calibrated' && r.calibration_accuracy_px !== null ? (
        <Stack gap={0}>
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {t('processes.accuracyPx', { px: number(r.calibration_accuracy_px) })}
          </Text>
          {r.calibration_accuracy_percent !== null && (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {t('processes.accuracyShare', { percent: percent(r.calibration_accuracy_percent / 100) })}
            </Text>
          )}
          <GazeDegrees degrees={r.calibration_accuracy_degrees} distanceCm={r.distance_cm} testId="process-degrees" />
          <GazePrecisionFigure
            pixels={r.calibration_precision_px}
            percent={r.calibration_precision_percent}
            degrees={r.calibration_precision_degrees}
            distanceCm={r.distance_cm}
            testId="process-precision"
          />
          <GazeDriftFigure drift={r.drift} distanceCm={r.distance_cm} testId="process-drift" />
        </Stack>
      ) : r?.calibration_status === 'calibration_failed' ? (
        <Text size="sm" c="orange">
          {t('processes.calibrationFailed')}
        </Text>
      ) : r ? (
        <Text size="sm" c="dimmed">
          {t('processes.calibrationNotRun')}
        </Text>
      ) : (
        dash
      ),
    engine:
      (r?.engine_version ?? p.engine_version) ? (
        <Text size="xs" ff="monospace">
          {r?.engine_version ?? p.engine_version}
        </Text>
      ) : (
        dash
      ),
    reason: reasonKey ? (
      <Text size="sm" c={p.error ? 'red' : 'orange'} data-testid="process-reason">
        {translateMessage({ key: reasonKey })}
      </Text>
    ) : (
      dash
    ),
  };
}

/** Restart and cancel, offered exactly as the server's `can` flags say; icons only in the table. */
function ProcessActions({
  researchId,
  process: p,
  compact = false,
}: {
  researchId: string;
  process: VideoProcess;
  compact?: boolean;
}) {
  const { t } = useTranslation('fieldwork');
  const action = useProcessAction(researchId);
  const pending = action.isPending ? action.variables?.action : undefined;
  if (!p.can.restart && !p.can.cancel) return null;
  const buttons = [
    p.can.restart && {
      kind: 'restart' as const,
      label: t('processes.restart'),
      hint: t('processes.restartHint'),
      color: undefined,
      icon: IconRotateClockwise,
    },
    p.can.cancel && {
      kind: 'cancel' as const,
      label: t('processes.cancel'),
      hint: t('processes.cancelHint'),
      color: 'red',
      icon: IconPlayerStop,
    },
  ].filter((b) => b !== false);
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      {buttons.map(({ kind, label, hint, color, icon: Icon }) => (
        <Tooltip key={kind} label={compact ? `${label}: ${hint}` : hint} withArrow multiline maw={260}>
          {compact ? (
            <ActionIcon
              variant="light"
              color={color}
              aria-label={label}
              loading={pending === kind}
              onClick={() => action.mutate({ processId: p.id, action: kind })}
              data-testid={`process-${kind}`}
            >
              <Icon size={16} />
            </ActionIcon>
          ) : (
            <Button
              size="compact-xs"
              variant="light"
              color={color}
              leftSection={<Icon size={12} />}
              loading={pending === kind}
              onClick={() => action.mutate({ processId: p.id, action: kind })}
              data-testid={`process-${kind}`}
            >
              {label}
            </Button>
          )}
        </Tooltip>
      ))}
    </Group>
  );
}
