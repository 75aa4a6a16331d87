import type { Playback, ReportItem } from '@emolens/contracts';
import { Alert, Box, Button, Center, Group, Loader, Modal, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPlayerPlay, IconPlayerSkipForward, IconVideoOff } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mediaFileUrl } from '../media/api.ts';
import { usePlayback } from './api.ts';
import { MediaFrame } from './heatmap-view.tsx';
import { gazeAt, segmentAt } from './report-view.ts';

/**
 * One respondent's view of one item (issue 13, item 6): their recording (where retention kept it) beside the
 * content, with their gaze point moving over it. The recording is the clock: the content follows it from the
 * moment the respondent's gaze reached the item. Without a recording, the content plays alone with the gaze point.
 */
export function PlaybackModal({
  reportId,
  item,
  isVideo,
  sessionId,
  name,
  onClose,
}: {
  reportId: string;
  item: ReportItem;
  isVideo: boolean;
  sessionId: string | null;
  name: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('reportView');
  const query = usePlayback(reportId, sessionId, item.index);
  return (
    <Modal opened={sessionId !== null} onClose={onClose} title={t('playback.title', { name })} size="90rem" centered>
      {query.data ? (
        <PlaybackBody item={item} isVideo={isVideo} playback={query.data} />
      ) : query.isError ? (
        <Alert color="red" variant="light">
          {t('loadError')}
        </Alert>
      ) : (
        <Center py="xl">
          <Loader />
        </Center>
      )}
    </Modal>
  );
}

function PlaybackBody({ item, isVideo, playback }: { item: ReportItem; isVideo: boolean; playback: Playback }) {
  const { t } = useTranslation('reportView');
  const recording = useRef<HTMLVideoElement>(null);
  const content = useRef<HTMLVideoElement>(null);
  const [time, setTime] = useState(-Infinity);
  const [clockStart, setClockStart] = useState<number | null>(null);
  const segment = segmentAt(playback);
  const last = playback.gaze.t.at(-1) ?? 0;

  // The content's time, read every frame: from the recording when there is one, else from the content video or
  // the clock started by Play (a picture).
  useEffect(() => {
    let frame = 0;
    const tick = () => {
      let now: number;
      if (segment && recording.current) now = recording.current.currentTime + segment.offset - playback.onset;
      else if (isVideo && content.current) now = content.current.currentTime;
      else now = clockStart === null ? -Infinity : (performance.now() - clockStart) / 1000;
      setTime(now);
      const video = content.current;
      if (segment && video && recording.current) {
        if (now >= 0 && Math.abs(video.currentTime - now) > 0.3)
          video.currentTime = Math.min(now, video.duration || now);
        if (now >= 0 && !recording.current.paused && video.paused) void video.play().catch(() => undefined);
        if ((recording.current.paused || now < 0) && !video.paused) video.pause();
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [segment, playback.onset, isVideo, clockStart]);

  const point = gazeAt(playback.gaze, time);
  const width = item.width ?? 1;
  const height = item.height ?? 1;
  const clock = Number.isFinite(time) ? Math.max(0, time) : 0;

  return (
    <Stack gap="md" data-testid="playback">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder radius="md" p="sm">
          <Stack gap="xs">
            <Text size="sm" fw={500}>
              {t('playback.recording')}
            </Text>
            {segment ? (
              // biome-ignore lint/a11y/useMediaCaption: a respondent's webcam recording has no captions
              <video
                ref={recording}
                src={segment.url}
                controls
                playsInline
                style={{ width: '100%', maxHeight: 420, background: '#000', borderRadius: 6 }}
                data-testid="playback-recording"
              />
            ) : (
              <Alert color="gray" variant="light" icon={<IconVideoOff size={18} />} data-testid="playback-no-recording">
                {t('playback.noRecording')}
              </Alert>
            )}
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="sm">
          <Stack gap="xs">
            <Text size="sm" fw={500}>
              {t('playback.content')}
            </Text>
            <MediaFrame width={item.width} height={item.height} maxHeight={420} background="#000">
              {item.media_id &&
                (isVideo ? (
                  <video
                    ref={content}
                    src={mediaFileUrl(item.media_id)}
                    muted
                    playsInline
                    controls={!segment}
                    style={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }}
                  />
                ) : (
                  <img
                    src={mediaFileUrl(item.media_id)}
                    alt=""
                    style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'fill' }}
                  />
                ))}
              {point && (
                <Box
                  data-testid="playback-gaze"
                  style={{
                    position: 'absolute',
                    left: `${(100 * point.x) / width}%`,
                    top: `${(100 * point.y) / height}%`,
                    width: 22,
                    height: 22,
                    marginLeft: -11,
                    marginTop: -11,
                    borderRadius: '50%',
                    background: 'rgba(250, 82, 82, 0.55)',
                    border: '2px solid #fff',
                    boxShadow: '0 0 0 2px rgba(250, 82, 82, 0.9)',
                    pointerEvents: 'none',
                  }}
                />
              )}
            </MediaFrame>
          </Stack>
        </Paper>
      </SimpleGrid>
      <Group gap="sm" justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed" data-testid="playback-time">
          {time < 0 && segment
            ? t('playback.before', { seconds: Math.ceil(-time) })
            : t('playback.at', { seconds: clock.toFixed(1), samples: playback.gaze.t.length })}
        </Text>
        <Group gap="xs">
          {segment && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlayerSkipForward size={14} />}
              onClick={() => {
                const video = recording.current;
                if (!video) return;
                video.currentTime = Math.max(0, playback.onset - segment.offset);
                void video.play().catch(() => undefined);
              }}
              data-testid="playback-skip"
            >
              {t('playback.skip')}
            </Button>
          )}
          {!segment && !isVideo && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlayerPlay size={14} />}
              onClick={() => setClockStart(performance.now())}
              disabled={last === 0}
              data-testid="playback-play"
            >
              {t('playback.play')}
            </Button>
          )}
        </Group>
      </Group>
      {playback.gaze.t.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('playback.noGaze')}
        </Text>
      )}
    </Stack>
  );
}
