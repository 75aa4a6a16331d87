import {
  isMessageKey,
  METRIC_COLORS,
  REPORT_EXPORTS,
  REPORT_METRICS,
  type ReportItem,
  type ReportMetric,
  type ReportOutput,
  type ReportSnapshot,
  SMALL_N,
} from '@emolens/contracts';
import {
  type CurveMode,
  clock,
  curveLines,
  curvesOption,
  pointLabel,
  timeSpan,
  valueRange,
} from '@emolens/contracts/charts';
import {
  Alert,
  Badge,
  Box,
  Button,
  Center,
  Chip,
  Grid,
  Group,
  Loader,
  Menu,
  Paper,
  Progress,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconAlertTriangle,
  IconDownload,
  IconFileSpreadsheet,
  IconFileTypeCsv,
  IconPlayerPlay,
  IconPlayerStop,
  IconPresentation,
  IconRefresh,
} from '@tabler/icons-react';
import { Fragment, type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { apiDownload } from '../../api/client.ts';
import { openConfirm } from '../../components/confirm.ts';
import { CurvesChart } from '../../components/curves-chart.tsx';
import { InlineLoadError, isNotFound } from '../../components/load-states.tsx';
import { BackLink } from '../../components/page-notices.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { translateMessage } from '../../i18n/messages.ts';
import { useCampaignContext } from '../campaigns/campaign-context.ts';
import { notifyError } from '../errors/notify.ts';
import { mediaFileUrl } from '../media/api.ts';
import { SurveyStatisticsPanel } from '../surveys/survey-statistics-panel.tsx';
import { type ReportExportKind, reportExportPath, useGazePlot, useReport, useReportAction } from './api.ts';
import { BenchmarkCard } from './benchmark-card.tsx';
import { GazePlotOverlay, GazePlotPicker } from './gaze-plot.tsx';
import { HeatmapFacts, HeatmapOverlay, HeatmapPicture, HeatmapSettingsFields, MediaFrame } from './heatmap-view.tsx';
import { AreaOutlines, AreasPanel } from './report-areas.tsx';
import { PlaybackModal } from './report-playback.tsx';
import { RespondentsPanel } from './report-respondents.tsx';
import { exportFileName, frameIndex, HEATMAP_DEFAULTS, type HeatmapSettings, segmentName } from './report-view.ts';
import { TaskCard } from './task-statistics-panel.tsx';

/**
 * campaign/{id}/report/{reportId} (issue 13): one report — its state while it builds or after it failed, and once
 * done its curves with their 95% bands (the video beside them sharing a time cursor), the gaze heatmap, the
 * respondents it counts and leaves out, and the exports.
 */
export function ReportPage() {
  const { t } = useTranslation('reportView');
  const { campaign } = useCampaignContext();
  const { reportId = '' } = useParams();
  const query = useReport(reportId);
  if (!campaign) return null;
  const report = query.data;

  let body: ReactNode;
  if (report) body = <ReportBody report={report} campaignId={campaign.id} />;
  else if (isNotFound(query.error)) {
    body = (
      <Alert color="gray" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="report-not-found">
        {translateMessage({ key: 'report.notFound' })}
      </Alert>
    );
  } else if (query.isError) {
    body = (
      <InlineLoadError
        text={t('loadError')}
        retryLabel={t('retry')}
        onRetry={() => void query.refetch()}
        testId="report-load-error"
      />
    );
  } else {
    body = (
      <Center py={64} data-testid="report-loading">
        <Loader />
      </Center>
    );
  }

  return (
    <Stack gap="lg" maw={1280} data-testid="report-page">
      <Stack gap={6}>
        <BackLink to={`/cabinet/campaign/${campaign.id}/statistic`} label={t('back')} />
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={6} miw={0} style={{ flex: '1 1 320px' }}>
            <Title order={2} style={{ overflowWrap: 'anywhere' }} data-testid="report-title">
              {report?.name ?? t('title')}
            </Title>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {t('research', { title: campaign.title, project: campaign.project.title })}
            </Text>
          </Stack>
          {report && <HeaderActions report={report} campaignId={campaign.id} />}
        </Group>
        {report && <ReportBadges report={report} />}
        {report?.status === 'done' && report.snapshot && (
          <Text size="sm" data-testid="report-method">
            {t('method')}
          </Text>
        )}
      </Stack>
      {body}
    </Stack>
  );
}

/** Type, step detail, N respondents, engine version(s) and when it was built. */
function ReportBadges({ report }: { report: ReportOutput }) {
  const { t, i18n } = useTranslation('reportView');
  // The report type is named once, by the reports list's namespace (issue 28, item 7).
  const { t: reportsT } = useTranslation('reports');
  const language = i18n.resolvedLanguage;
  const number = new Intl.NumberFormat(language);
  const snapshot = report.snapshot;
  const built =
    report.status === 'done' && report.built_at
      ? new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(report.built_at))
      : null;
  return (
    <Group gap={6} data-testid="report-badges">
      <Tooltip label={reportsT(`typeHints.${report.type}`)} withArrow multiline maw={300}>
        <Badge variant="light" color="indigo" tt="none" data-testid="report-type">
          {reportsT(`types.${report.type}`)}
        </Badge>
      </Tooltip>
      <Badge variant="light" color="gray" tt="none" data-testid="report-step">
        {t('step', { step: number.format(report.step) })}
      </Badge>
      {snapshot && (
        <Badge variant="light" color="teal" tt="none" data-testid="report-n">
          {t('respondents', { count: number.format(snapshot.respondents) })}
        </Badge>
      )}
      {snapshot && snapshot.researches.length > 1 && (
        <Tooltip
          label={snapshot.researches
            .map((r) => t('pooledOne', { title: r.title, count: number.format(r.respondents) }))
            .join(' · ')}
          withArrow
          multiline
          maw={360}
        >
          <Badge variant="light" color="violet" tt="none" data-testid="report-researches">
            {t('pooled', { count: number.format(snapshot.researches.length) })}
          </Badge>
        </Tooltip>
      )}
      {snapshot && snapshot.engine_versions.length > 0 && (
        <Badge variant="outline" color="gray" tt="none" ff="monospace" data-testid="report-engine">
          {t('engine', { version: snapshot.engine_versions.join(', ') })}
        </Badge>
      )}
      {built && (
        <Text size="xs" c="dimmed">
          {t('builtAt', { date: built })}
        </Text>
      )}
    </Group>
  );
}

/** Exports (once done) and Rebuild (when the server allows it) beside the title. */
function HeaderActions({ report, campaignId }: { report: ReportOutput; campaignId: string }) {
  const { t } = useTranslation('reportView');
  const action = useReportAction(campaignId);
  const done = report.status === 'done' && !!report.snapshot;
  if (!done) return null;
  const confirmRebuild = () =>
    openConfirm({
      title: t('rebuild.title'),
      children: <Text size="sm">{t('rebuild.text')}</Text>,
      labels: { confirm: t('rebuild.confirm'), cancel: t('rebuild.cancel') },
      confirmProps: { 'data-testid': 'confirm-rebuild' },
      centered: true,
      onConfirm: () => action.mutateAsync({ reportId: report.id, action: 'rebuild' }),
    });
  return (
    <Group gap="xs">
      <ExportMenu report={report} />
      <Button
        component={Link}
        to={`/cabinet/campaign/${campaignId}/report/${report.id}/presentation`}
        size="xs"
        variant="default"
        leftSection={<IconPresentation size={14} />}
        data-testid="report-files"
      >
        {t('files.button')}
      </Button>
      {report.can.rebuild && (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconRefresh size={14} />}
          loading={action.isPending}
          onClick={confirmRebuild}
          data-testid="report-rebuild"
        >
          {t('rebuild.button')}
        </Button>
      )}
    </Group>
  );
}

/** The three exports, each as XLSX or CSV: a download, or a red notification saying why not. */
function ExportMenu({ report }: { report: ReportOutput }) {
  const { t } = useTranslation('reportView');
  const [pending, setPending] = useState<string | null>(null);
  const download = async (kind: ReportExportKind, format: 'xlsx' | 'csv') => {
    setPending(`${kind}:${format}`);
    try {
      await apiDownload(
        'GET',
        reportExportPath(report.id, kind, format, currentLanguage()),
        undefined,
        exportFileName(report.name, kind, format),
        'builder',
      );
    } catch (error) {
      notifyError(error);
    } finally {
      setPending(null);
    }
  };
  return (
    <Menu position="bottom-end" shadow="md" width={260}>
      <Menu.Target>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconDownload size={14} />}
          loading={pending !== null}
          data-testid="report-export"
        >
          {t('export.button')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {REPORT_EXPORTS.map((kind, i) => (
          <Fragment key={kind}>
            {i > 0 && <Menu.Divider />}
            <Menu.Label style={{ whiteSpace: 'normal' }}>{t(`export.kinds.${kind}`)}</Menu.Label>
            <Menu.Item
              leftSection={<IconFileSpreadsheet size={14} />}
              onClick={() => void download(kind, 'xlsx')}
              data-testid={`export-${kind}-xlsx`}
            >
              XLSX
            </Menu.Item>
            <Menu.Item
              leftSection={<IconFileTypeCsv size={14} />}
              onClick={() => void download(kind, 'csv')}
              data-testid={`export-${kind}-csv`}
            >
              CSV
            </Menu.Item>
          </Fragment>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** What the report's state allows to show: its progress, why it stopped, or its results. */
function ReportBody({ report, campaignId }: { report: ReportOutput; campaignId: string }) {
  const { t } = useTranslation('reportView');
  const action = useReportAction(campaignId);
  const rebuild = report.can.rebuild ? (
    <Button
      size="xs"
      variant="light"
      color={report.failed ? 'red' : 'gray'}
      leftSection={<IconRefresh size={14} />}
      loading={action.isPending}
      onClick={() => action.mutate({ reportId: report.id, action: 'rebuild' })}
      data-testid="report-rebuild"
    >
      {t('rebuild.button')}
    </Button>
  ) : null;

  if (report.status === 'in_progress') {
    return (
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="report-building">
        <Stack gap="sm">
          <Group gap="xs" wrap="nowrap">
            <Loader size="xs" type="dots" />
            <Text fw={500}>{t('state.building')}</Text>
          </Group>
          <Progress value={report.progress} size="lg" animated aria-label={t('state.progressLabel')} />
          <Text size="sm" c="dimmed" data-testid="report-progress">
            {t('state.progress', { percent: report.progress })}
          </Text>
        </Stack>
      </Paper>
    );
  }
  if (report.status === 'canceled' && report.failed) {
    const reason = report.error_key ? errorText(report.error_key) : null;
    return (
      <Alert
        color="red"
        variant="light"
        icon={<IconAlertTriangle size={18} />}
        title={translateMessage({ key: 'report.lastFailed' })}
        data-testid="report-failed"
      >
        <Stack gap="sm" align="flex-start">
          {reason && <Text size="sm">{reason}</Text>}
          {rebuild}
        </Stack>
      </Alert>
    );
  }
  if (report.status === 'canceled') {
    return (
      <Alert
        color="gray"
        variant="light"
        icon={<IconPlayerStop size={18} />}
        title={t('state.canceledTitle')}
        data-testid="report-canceled"
      >
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t('state.canceledText')}</Text>
          {rebuild}
        </Stack>
      </Alert>
    );
  }
  if (!report.snapshot) {
    return (
      <Alert color="gray" variant="light" data-testid="report-not-done">
        {translateMessage({ key: 'report.notDone' })}
      </Alert>
    );
  }
  // A rebuilt report starts over: its choices belong to the snapshot they were made on.
  return <ReportResults key={`${report.id}:${report.built_at ?? ''}`} report={report} snapshot={report.snapshot} />;
}

/** A server message key (or a `msg()` reference) in the interface language; other text as it came. */
function errorText(key: string): string {
  return isMessageKey(key) ? translateMessage({ key }) : translateMessage(key);
}

/** The video's current time, from its own events (`timeupdate` a few times a second, and every seek). */
function useVideoTime(video: HTMLVideoElement | null): [number, (seconds: number) => void] {
  const [time, setTime] = useState(0);
  useEffect(() => {
    if (!video) return;
    const update = () => setTime(video.currentTime);
    const events = ['timeupdate', 'seeked', 'seeking', 'loadedmetadata'] as const;
    for (const event of events) video.addEventListener(event, update);
    return () => {
      for (const event of events) video.removeEventListener(event, update);
    };
  }, [video]);
  const seek = useCallback(
    (seconds: number) => {
      if (!video) return;
      const end = Number.isFinite(video.duration) ? video.duration : seconds;
      video.currentTime = Math.min(Math.max(0, seconds), end);
      setTime(video.currentTime);
    },
    [video],
  );
  return [time, seek];
}

/** A finished report's results. */
function ReportResults({ report, snapshot }: { report: ReportOutput; snapshot: ReportSnapshot }) {
  const { t } = useTranslation('reportView');
  const [position, setPosition] = useState(0);
  // What the user chose to see stays while they move between items.
  const [view, setView] = useState<ViewChoices>(DEFAULT_VIEW);
  const item = snapshot.items[position] ?? snapshot.items[0];
  const labelOf = (i: number, it: ReportItem) =>
    t(`items.${snapshot.timeline}`, { n: i + 1, label: it.label, defaultValue: it.label });

  return (
    <Stack gap="lg" data-testid="report-results">
      {snapshot.benchmark && <BenchmarkCard benchmark={snapshot.benchmark} />}
      {snapshot.items.length > 1 && (
        <Select
          label={t('items.label')}
          value={String(position)}
          onChange={(value) => value !== null && setPosition(Number(value))}
          data={snapshot.items.map((it, i) => ({ value: String(i), label: labelOf(i, it) }))}
          allowDeselect={false}
          maw={560}
          comboboxProps={{ withinPortal: true }}
          data-testid="report-item"
        />
      )}
      {item ? (
        <ItemResults
          key={item.index}
          reportId={report.id}
          item={item}
          snapshot={snapshot}
          view={view}
          onView={setView}
        />
      ) : (
        <Text size="sm" c="dimmed" data-testid="report-no-items">
          {t('noItems')}
        </Text>
      )}
      {item && <AreasPanel report={report} item={item} timeline={snapshot.timeline} />}
      {snapshot.tasks.length > 0 && (
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="report-tasks">
          <Stack gap="md">
            <Title order={3} size="h4">
              {t('tasks.reportTitle')}
            </Title>
            {snapshot.tasks.map((task) => (
              <TaskCard key={task.task} task={task} />
            ))}
          </Stack>
        </Paper>
      )}
      <RespondentsPanel people={snapshot.people} researches={snapshot.researches} />
      <SurveyStatisticsPanel campaignId={report.campaign_id} reportId={report.id} />
    </Stack>
  );
}

/** The curves' and the heatmap's settings (kept while the user moves between items). */
interface ViewChoices {
  metrics: ReportMetric[];
  mode: CurveMode;
  compare: boolean;
  heatmap: HeatmapSettings;
}
const DEFAULT_VIEW: ViewChoices = { metrics: ['engagement'], mode: 'mean', compare: false, heatmap: HEATMAP_DEFAULTS };

/** One content item: its curves (beside its video, for a video) and its heatmap. */
function ItemResults({
  reportId,
  item,
  snapshot,
  view,
  onView,
}: {
  reportId: string;
  item: ReportItem;
  snapshot: ReportSnapshot;
  view: ViewChoices;
  onView: (change: (view: ViewChoices) => ViewChoices) => void;
}) {
  const { t, i18n } = useTranslation('reportView');
  // A respondent's gaze plot over the picture (none chosen: the heatmap alone).
  const [plotOf, setPlotOf] = useState<string | null>(null);
  const plot = useGazePlot(reportId, plotOf, item.index);
  // Whose recording plays beside the content with their gaze point (null: none).
  const [playing, setPlaying] = useState<string | null>(null);
  const personName = (sessionId: string | null) => {
    const person = snapshot.people.find((p) => p.session_id === sessionId);
    return person?.participant_id ?? sessionId?.slice(0, 8) ?? '';
  };
  const playButton = (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconPlayerPlay size={14} />}
      disabled={!plotOf}
      onClick={() => setPlaying(plotOf)}
      data-testid="playback-open"
    >
      {t('playback.open')}
    </Button>
  );
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  const language = currentLanguage();
  const resolved = i18n.resolvedLanguage ?? language;
  const isVideo = snapshot.timeline === 'video';
  const { metrics, mode, compare, heatmap } = view;
  const setMetrics = (value: ReportMetric[]) => onView((v) => ({ ...v, metrics: value }));
  const setMode = (value: CurveMode) => onView((v) => ({ ...v, mode: value }));
  const setCompare = (value: boolean) => onView((v) => ({ ...v, compare: value }));
  const setHeatmap = (value: HeatmapSettings) => onView((v) => ({ ...v, heatmap: value }));
  const [follow, setFollow] = useState(true);
  const [overlay, setOverlay] = useState(true);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [time, seek] = useVideoTime(video);
  const step = snapshot.step;
  const span = timeSpan(item.seconds, step);
  const canCompare = item.segments.length > 0;
  const threshold = new Intl.NumberFormat(resolved).format(snapshot.threshold);
  const score = new Intl.NumberFormat(resolved, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

  const chartText = useMemo(
    () => ({
      mean: t('chart.mean'),
      band: t('chart.band'),
      n: t('chart.n'),
      above: t('chart.above', { threshold }),
      peak: t('chart.peak'),
      drop: t('chart.drop'),
      nAxis: t('chart.nAxis'),
      smallN: t('chart.smallN', { min: SMALL_N }),
    }),
    [t, threshold],
  );
  // The value axis: the metrics' own range, named by the metric (or "Score" for several) or the share.
  const axis = useMemo(
    () => ({
      range: valueRange(metrics, snapshot.type),
      yName:
        mode === 'share'
          ? t('chart.share', { threshold })
          : metrics.length === 1
            ? t(`metrics.${metrics[0] as ReportMetric}`)
            : t('chart.axisValue'),
    }),
    [metrics, mode, snapshot.type, threshold, t],
  );
  const option = useMemo(() => {
    const number = new Intl.NumberFormat(resolved);
    const sexNames = { man: t('sex.man'), woman: t('sex.woman') };
    const lines = curveLines(item, metrics, compare && canCompare, {
      metric: (m) => t(`metrics.${m}`),
      segment: (s) =>
        t('chart.segment', { label: segmentName(s, language, sexNames), count: number.format(s.respondents) }),
    });
    return curvesOption({
      seconds: item.seconds,
      step,
      lines,
      mode,
      moments: item.moments,
      language: resolved,
      text: chartText,
      ...axis,
    });
  }, [item, metrics, compare, canCompare, mode, step, language, resolved, chartText, axis, t]);

  // A website task by its progress: the same metrics before the first step and after each step reached.
  const stepCurves = item.step_curves;
  const stepOption = useMemo(() => {
    if (!stepCurves) return null;
    const lines = curveLines({ ...item, curves: stepCurves, segments: [] }, metrics, false, {
      metric: (m) => t(`metrics.${m}`),
      segment: () => '',
    });
    const points = stepCurves.engagement.n.map((_, p) => p);
    return curvesOption({
      seconds: points,
      step: 1,
      categories: points.map((p) => (p === 0 ? t('chart.stepStart') : t('chart.stepReached', { count: p }))),
      lines,
      mode,
      moments: [],
      language: resolved,
      text: chartText,
      ...axis,
    });
  }, [item, stepCurves, metrics, mode, resolved, chartText, axis, t]);

  const frames = item.heatmap_frames ?? [];
  const frame = frameIndex(time, step, frames.length);
  const videoGrid = !overlay ? null : follow && frame !== null ? (frames[frame] ?? null) : item.heatmap;
  const hasHeatmap = !!item.heatmap && item.width !== null && item.height !== null;
  const showMoments = mode === 'mean' && !(compare && canCompare) && metrics.includes('engagement');

  const chart = (
    <CurvesChart
      option={option}
      cursor={isVideo ? time : null}
      onSeek={isVideo ? seek : undefined}
      span={span}
      height={phone ? 260 : 340}
      label={t('chart.label')}
      testId="report-chart"
    />
  );

  return (
    <>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="report-curves">
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" gap="sm">
            <Title order={3} size="h4">
              {t('chart.title')}
            </Title>
            <Group gap="md">
              <Switch
                checked={mode === 'share'}
                onChange={(event) => setMode(event.currentTarget.checked ? 'share' : 'mean')}
                label={t('chart.share', { threshold })}
                data-testid="report-share"
              />
              {canCompare && (
                <Switch
                  checked={compare}
                  onChange={(event) => setCompare(event.currentTarget.checked)}
                  label={t('chart.compare')}
                  data-testid="report-compare"
                />
              )}
            </Group>
          </Group>
          <Chip.Group
            multiple
            value={metrics}
            onChange={(value) => value.length > 0 && setMetrics(value as ReportMetric[])}
          >
            <Group gap={6} role="group" aria-label={t('chart.metrics')} data-testid="report-metrics">
              {REPORT_METRICS.map((m) => (
                <Chip key={m} value={m} size="xs" color={METRIC_COLORS[m]} data-testid={`metric-${m}`}>
                  {t(`metrics.${m}`)}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          {isVideo ? (
            <Grid gutter="md" align="flex-start">
              <Grid.Col span={{ base: 12, md: 5 }}>
                <Stack gap={6}>
                  <Paper radius="md" style={{ overflow: 'hidden', background: '#000' }}>
                    <MediaFrame width={item.width} height={item.height} maxHeight={420} background="#000">
                      {item.media_id && (
                        // biome-ignore lint/a11y/useMediaCaption: the research's own content has no captions
                        <video
                          ref={setVideo}
                          src={mediaFileUrl(item.media_id)}
                          controls
                          preload="metadata"
                          playsInline
                          data-testid="report-video"
                          style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'fill' }}
                        />
                      )}
                      {hasHeatmap && <HeatmapOverlay grid={videoGrid} settings={heatmap} />}
                      <AreaOutlines item={item} time={time} />
                    </MediaFrame>
                  </Paper>
                  <Text size="xs" c="dimmed" data-testid="report-video-time">
                    {t('chart.videoTime', { time: clock(time) })}
                    {hasHeatmap && overlay && follow && frame !== null
                      ? ` · ${t('heatmap.frame', { time: pointLabel(frame * step, step) })}`
                      : ''}
                  </Text>
                </Stack>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 7 }}>{chart}</Grid.Col>
            </Grid>
          ) : (
            chart
          )}
          {isVideo && (
            <Text size="xs" c="dimmed">
              {t('chart.seekHint')}
            </Text>
          )}
          {stepOption && stepCurves && (
            <Stack gap={4} data-testid="report-steps">
              <Text size="sm" fw={600}>
                {t('chart.steps')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('chart.stepsHint')}
              </Text>
              <CurvesChart
                option={stepOption}
                cursor={null}
                span={stepCurves.engagement.n.length}
                height={phone ? 220 : 260}
                label={t('chart.steps')}
                testId="report-steps-chart"
              />
            </Stack>
          )}
          {showMoments && item.moments.length > 0 && (
            <Group gap={6} align="center" data-testid="report-moments">
              <Text size="sm" fw={500}>
                {t('chart.moments')}
              </Text>
              {item.moments.map((m) => {
                const text = `${m.kind === 'peak' ? '▲' : '▼'} ${pointLabel(m.second, step)} · ${score.format(m.value)}`;
                const color = m.kind === 'peak' ? 'green' : 'red';
                return isVideo ? (
                  <Button
                    key={`${m.kind}:${m.second}`}
                    size="compact-xs"
                    variant="light"
                    color={color}
                    onClick={() => seek(m.second)}
                    aria-label={`${t(m.kind === 'peak' ? 'chart.peak' : 'chart.drop')} ${text}`}
                    data-testid="report-moment"
                  >
                    {text}
                  </Button>
                ) : (
                  <Badge
                    key={`${m.kind}:${m.second}`}
                    variant="light"
                    color={color}
                    tt="none"
                    data-testid="report-moment"
                  >
                    {text}
                  </Badge>
                );
              })}
            </Group>
          )}
        </Stack>
      </Paper>

      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="report-heatmap">
        <Stack gap="md">
          <Title order={3} size="h4">
            {t('heatmap.title')}
          </Title>
          {!hasHeatmap ? (
            <Text size="sm" c="dimmed" data-testid="report-heatmap-none">
              {snapshot.timeline === 'contentless' || item.width === null
                ? t('heatmap.contentless')
                : t('heatmap.none')}
            </Text>
          ) : isVideo ? (
            <Grid gutter="lg">
              <Grid.Col span={{ base: 12, md: 7 }}>
                <Stack gap="sm">
                  <Switch
                    checked={overlay}
                    onChange={(event) => setOverlay(event.currentTarget.checked)}
                    label={t('heatmap.show')}
                    data-testid="report-heatmap-show"
                  />
                  <SegmentedControl
                    value={follow ? 'follow' : 'whole'}
                    onChange={(value) => setFollow(value === 'follow')}
                    disabled={!overlay}
                    data={[
                      { value: 'follow', label: t('heatmap.follow') },
                      { value: 'whole', label: t('heatmap.whole') },
                    ]}
                    data-testid="report-heatmap-source"
                  />
                  <HeatmapSettingsFields value={heatmap} onChange={setHeatmap} />
                  <GazePlotPicker
                    people={snapshot.people}
                    value={plotOf}
                    onChange={setPlotOf}
                    label={t('playback.respondent')}
                  />
                  {playButton}
                </Stack>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 5 }}>
                <HeatmapFacts item={item} grid={item.heatmap} />
              </Grid.Col>
            </Grid>
          ) : (
            <Grid gutter="lg">
              <Grid.Col span={{ base: 12, md: 8 }}>
                <Box style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}>
                  <HeatmapPicture
                    item={item}
                    src={item.media_id ? mediaFileUrl(item.media_id) : null}
                    grid={item.heatmap}
                    settings={heatmap}
                  >
                    {plotOf && plot.data && <GazePlotOverlay item={item} plot={plot.data} />}
                  </HeatmapPicture>
                </Box>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 4 }}>
                <Stack gap="lg">
                  <HeatmapSettingsFields value={heatmap} onChange={setHeatmap} />
                  <GazePlotPicker people={snapshot.people} value={plotOf} onChange={setPlotOf} />
                  {playButton}
                  <HeatmapFacts item={item} grid={item.heatmap} />
                </Stack>
              </Grid.Col>
            </Grid>
          )}
        </Stack>
      </Paper>
      <PlaybackModal
        reportId={reportId}
        item={item}
        isVideo={isVideo}
        sessionId={playing}
        name={personName(playing)}
        onClose={() => setPlaying(null)}
      />
    </>
  );
}
