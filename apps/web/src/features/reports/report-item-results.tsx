// One content item of a finished report: its curves (beside its video, for a video), its heatmap and playback.
import {
  METRIC_COLORS,
  REPORT_METRICS,
  type ReportItem,
  type ReportMetric,
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
  Badge,
  Box,
  Button,
  Chip,
  Grid,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CurvesChart } from '../../components/curves-chart.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { mediaFileUrl } from '../media/api.ts';
import { useGazePlot } from './api.ts';
import { FixationFilterFacts } from './fixation-filter-facts.tsx';
import { GazePlotOverlay, GazePlotPicker } from './gaze-plot.tsx';
import { HeatmapFacts, HeatmapOverlay, HeatmapPicture, HeatmapSettingsFields, MediaFrame } from './heatmap-view.tsx';
import { AreaOutlines } from './report-areas.tsx';
import { PlaybackModal } from './report-playback.tsx';
import { frameIndex, HEATMAP_DEFAULTS, type HeatmapSettings, segmentName } from './report-view.ts';

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

/** The curves' and the heatmap's settings (kept while the user moves between items). */
export interface ViewChoices {
  metrics: ReportMetric[];
  mode: CurveMode;
  compare: boolean;
  heatmap: HeatmapSettings;
}
export const DEFAULT_VIEW: ViewChoices = {
  metrics: ['engagement'],
  mode: 'mean',
  compare: false,
  heatmap: HEATMAP_DEFAULTS,
};

/** One content item: its curves (beside its video, for a video) and its heatmap. */
export function ItemResults({
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
            <Grid gap="md" align="flex-start">
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
            <Grid gap="lg">
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
                <Stack gap="lg">
                  <HeatmapFacts item={item} grid={item.heatmap} />
                  <FixationFilterFacts snapshot={snapshot} />
                </Stack>
              </Grid.Col>
            </Grid>
          ) : (
            <Grid gap="lg">
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
                  <FixationFilterFacts snapshot={snapshot} />
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
