import type { DemoResult } from '@emolens/contracts';
import { clock, type TimeLine, timeLinesOption } from '@emolens/contracts/charts';
import { Anchor, Badge, Box, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CurvesChart } from '../../components/curves-chart.tsx';
import { demoFramesUrl, demoVideoUrl } from './api.ts';

const EXPRESSIONS = ['neutral', 'happy', 'surprise', 'sad', 'angry', 'disgust', 'fear'] as const;
const EXPRESSION_COLORS: Record<(typeof EXPRESSIONS)[number], string> = {
  neutral: '#868e96',
  happy: '#f59f00',
  surprise: '#15aabf',
  sad: '#4c6ef5',
  angry: '#e03131',
  disgust: '#2f9e44',
  fear: '#9c36b5',
};
/** One colour per tracked person, in track order. */
const PERSON_COLORS = ['#1c7ed6', '#e8590c', '#2b8a3e', '#c2255c', '#7048e8', '#0b7285', '#5c940d', '#862e9c'];

/** The index of the last analysed frame at or before `t` (binary search on the sorted times). */
function frameAt(times: number[], t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  if (hi < 0 || (times[0] ?? 0) > t) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((times[mid] ?? 0) <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The video's current time, followed every animation frame while it plays. */
function useVideoTime(video: HTMLVideoElement | null): number {
  const [time, setTime] = useState(0);
  useEffect(() => {
    if (!video) return;
    let raf = 0;
    const tick = () => {
      setTime(video.currentTime);
      if (!video.paused && !video.ended) raf = requestAnimationFrame(tick);
    };
    const start = () => {
      cancelAnimationFrame(raf);
      raf = requestAnimationFrame(tick);
    };
    const once = () => setTime(video.currentTime);
    video.addEventListener('play', start);
    video.addEventListener('seeked', once);
    video.addEventListener('timeupdate', once);
    return () => {
      cancelAnimationFrame(raf);
      video.removeEventListener('play', start);
      video.removeEventListener('seeked', once);
      video.removeEventListener('timeupdate', once);
    };
  }, [video]);
  return time;
}

const percent = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${Math.round(v * 100)}%`);
const signed = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(2));
const decimal = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(1));

/** A finished analysis: the video with the face box, the synced curves, the summary and the downloads. */
export function ResultView({ result }: { result: DemoResult }) {
  const { t } = useTranslation('demo');
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const time = useVideoTime(video);
  const { analysis, boxes, sampling, series } = result;
  const duration =
    analysis.recording_seconds ?? analysis.duration_seconds ?? Math.max(1, (series.second.at(-1) ?? 0) + 1);
  const interview = analysis.kind === 'interview';

  const seek = useCallback(
    (seconds: number) => {
      if (!video) return;
      video.currentTime = seconds;
    },
    [video],
  );

  const expressionLines = useMemo<TimeLine[]>(
    () =>
      EXPRESSIONS.map((name) => ({
        key: name,
        label: t(`expressions.${name}`),
        color: EXPRESSION_COLORS[name],
        values: series.expressions[name] ?? [],
        seconds: series.second,
      })),
    [series, t],
  );
  const metricLines = useMemo<TimeLine[]>(
    () => [
      {
        key: 'engagement',
        label: t('metrics.engagement'),
        color: '#e64980',
        values: series.engagement,
        seconds: series.second,
      },
      { key: 'valence', label: t('metrics.valence'), color: '#37b24d', values: series.valence, seconds: series.second },
      {
        key: 'attention',
        label: t('metrics.attention'),
        color: '#1098ad',
        values: series.attention,
        seconds: series.second,
      },
    ],
    [series, t],
  );
  const faceLines = useMemo<TimeLine[]>(
    () => [
      { key: 'smile', label: t('metrics.smile'), color: '#f08c00', values: series.smile, seconds: series.second },
      {
        key: 'distracted',
        label: t('metrics.distracted'),
        color: '#868e96',
        values: series.distracted,
        seconds: series.second,
      },
    ],
    [series, t],
  );
  const headLines = useMemo<TimeLine[]>(
    () => [
      {
        key: 'head',
        label: t('metrics.headMotion'),
        color: '#7048e8',
        values: series.head_motion,
        seconds: series.second,
      },
    ],
    [series, t],
  );
  // Degrees per second: at least 0–30 (a calm viewer stays under a few), more when someone moved faster.
  const headTop = Math.max(30, Math.ceil(Math.max(0, ...series.head_motion.map((v) => v ?? 0)) / 10) * 10);
  const personLines = useMemo<TimeLine[]>(
    () =>
      result.people.map((person, i) => ({
        key: String(person.track),
        label: t('people.person', { n: i + 1 }),
        color: PERSON_COLORS[i % PERSON_COLORS.length] ?? '#000',
        values: person.series.engagement,
        seconds: person.series.second,
      })),
    [result.people, t],
  );
  const moments = useMemo(
    () =>
      result.people
        .flatMap((person, i) => person.moments.map((m) => ({ ...m, person: i })))
        .sort((a, b) => b.engagement - a.engagement)
        .slice(0, 20),
    [result.people],
  );

  const index = frameAt(boxes.time, time);
  const near = index >= 0 && Math.abs((boxes.time[index] ?? 0) - time) <= 0.25;
  const box = near
    ? { x: boxes.x[index], y: boxes.y[index], w: boxes.w[index], h: boxes.h[index] }
    : { x: null, y: null, w: null, h: null };
  const summary = analysis.summary;
  const timing = { duration, current: time, onSeek: seek };

  return (
    <Stack gap="md" data-testid="demo-result">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder radius="md" p={0} style={{ overflow: 'hidden', background: '#000', alignSelf: 'start' }}>
          <Box
            pos="relative"
            style={{ aspectRatio: `${sampling.width} / ${sampling.height}`, maxHeight: 420 }}
            mx="auto"
          >
            {/* biome-ignore lint/a11y/useMediaCaption: the user's own recording has no captions */}
            <video
              ref={setVideo}
              src={demoVideoUrl(analysis.id)}
              controls
              preload="metadata"
              playsInline
              data-testid="demo-video"
              style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'contain' }}
            />
            <svg
              viewBox={`0 0 ${sampling.width} ${sampling.height}`}
              preserveAspectRatio="xMidYMid meet"
              style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', pointerEvents: 'none' }}
              aria-hidden
            >
              {box.x !== null && box.y !== null && box.w !== null && box.h !== null && (
                <rect
                  data-testid="face-box"
                  x={box.x}
                  y={box.y}
                  width={box.w}
                  height={box.h}
                  fill="none"
                  stroke="#40c057"
                  strokeWidth={Math.max(2, sampling.width / 200)}
                  rx={4}
                />
              )}
            </svg>
          </Box>
        </Paper>
        <Stack gap="xs">
          <Title order={4}>{t('summary.title')}</Title>
          <Table withRowBorders={false} verticalSpacing={4} data-testid="demo-summary">
            <Table.Tbody>
              <Row label={t('summary.length')} value={clock(duration)} />
              <Row label={t('summary.frames')} value={String(summary?.frames ?? 0)} />
              <Row
                label={t('summary.faceFound')}
                value={
                  <Badge color={summary?.face_found ? 'green' : 'red'} variant="light">
                    {summary?.face_found ? t('summary.yes') : t('summary.no')}
                  </Badge>
                }
              />
              <Row label={t('summary.badFrames')} value={percent(summary?.bad_frame_share)} />
              {interview && <Row label={t('summary.people')} value={String(summary?.people ?? 0)} />}
              {interview && <Row label={t('summary.sessions')} value={String(analysis.sessions_counted ?? 0)} />}
              <Row label={t('metrics.engagement')} value={percent(summary?.mean_engagement)} />
              <Row label={t('metrics.valence')} value={signed(summary?.mean_valence)} />
              <Row label={t('metrics.attention')} value={percent(summary?.attention_share)} />
              <Row label={t('summary.blinks')} value={decimal(summary?.blinks_per_minute)} />
              <Row
                label={t('summary.headMotion')}
                value={
                  summary?.head_degrees_per_second === null || summary?.head_degrees_per_second === undefined
                    ? '—'
                    : t('summary.degreesPerSecond', { value: summary.head_degrees_per_second.toFixed(1) })
                }
              />
            </Table.Tbody>
          </Table>
          <Text size="sm" fw={500}>
            {t('summary.flags')}
          </Text>
          <Group gap={6}>
            {(['no_face', 'several_faces', 'head_turned', 'too_dark'] as const).map((flag) => (
              <Badge key={flag} variant="outline" color={summary?.flags[flag] ? 'orange' : 'gray'}>
                {t(`flags.${flag}`)}: {summary?.flags[flag] ?? 0}
              </Badge>
            ))}
          </Group>
          <Text size="xs" c="dimmed">
            {t('summary.engine', { version: analysis.engine_version ?? '—' })}
          </Text>
          <Group gap="xs" mt="xs">
            <Button
              component="a"
              href={demoFramesUrl(analysis.id, 'csv')}
              download
              variant="light"
              size="xs"
              leftSection={<IconDownload size={14} />}
            >
              {t('download.csv')}
            </Button>
            <Button
              component="a"
              href={demoFramesUrl(analysis.id, 'json')}
              download
              variant="light"
              size="xs"
              leftSection={<IconDownload size={14} />}
            >
              {t('download.json')}
            </Button>
          </Group>
        </Stack>
      </SimpleGrid>

      <Text size="xs" c="dimmed">
        {t('charts.hint')}
      </Text>
      {interview && personLines.length > 0 && (
        <ChartPanel title={t('charts.people')} testId="chart-people" lines={personLines} domain={[0, 1]} {...timing} />
      )}
      {interview && (
        <Paper withBorder radius="md" p="md" data-testid="moments">
          <Title order={5} mb="xs">
            {t('moments.title')}
          </Title>
          {moments.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('moments.none')}
            </Text>
          ) : (
            <Stack gap={4}>
              {moments.map((m) => (
                <Group key={`${m.person}-${m.second}`} gap="sm" wrap="nowrap">
                  <Anchor component="button" type="button" onClick={() => seek(m.second)} fw={600} w={64} ta="left">
                    {clock(m.second)}
                  </Anchor>
                  <Box
                    w={10}
                    h={10}
                    style={{ background: PERSON_COLORS[m.person % PERSON_COLORS.length], borderRadius: 5 }}
                  />
                  <Text size="sm">
                    {t('people.person', { n: m.person + 1 })} · {t(`expressions.${m.expression}`)} ·{' '}
                    {t('metrics.engagement')} {percent(m.engagement)}
                  </Text>
                </Group>
              ))}
            </Stack>
          )}
        </Paper>
      )}
      <ChartPanel
        title={t('charts.expressions')}
        testId="chart-expressions"
        lines={expressionLines}
        domain={[0, 1]}
        {...timing}
      />
      <ChartPanel title={t('charts.metrics')} testId="chart-metrics" lines={metricLines} domain={[-1, 1]} {...timing} />
      {series.smile.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <ChartPanel title={t('charts.face')} testId="chart-face" lines={faceLines} domain={[0, 1]} {...timing} />
          <ChartPanel
            title={t('charts.head')}
            testId="chart-head"
            lines={headLines}
            domain={[0, headTop]}
            {...timing}
          />
        </SimpleGrid>
      )}
    </Stack>
  );
}

/** A titled chart synced with the video (ECharts, as the report's): its length, the current time, seeking on click. */
function ChartPanel({
  title,
  testId,
  lines,
  domain,
  duration,
  current,
  onSeek,
}: {
  title: string;
  testId: string;
  lines: TimeLine[];
  domain: [number, number];
  duration: number;
  current: number;
  onSeek: (seconds: number) => void;
}) {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const [min, max] = domain;
  const span = Math.max(duration, 1);
  const option = useMemo(
    () => timeLinesOption({ lines, span, range: { min, max }, language }),
    [lines, span, min, max, language],
  );
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={5} mb="xs">
        {title}
      </Title>
      <CurvesChart
        testId={testId}
        label={title}
        option={option}
        cursor={Math.min(current, span)}
        onSeek={onSeek}
        span={span}
        height={200}
        renderer="svg"
      />
    </Paper>
  );
}

function Row({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td c="dimmed" fz="sm" pl={0}>
        {label}
      </Table.Td>
      <Table.Td fz="sm" fw={500}>
        {value}
      </Table.Td>
    </Table.Tr>
  );
}
