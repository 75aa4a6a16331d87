import { DEMO_LIMITS } from '@emolens/contracts';
import { clock } from '@emolens/contracts/charts';
import { Alert, Box, Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { IconPlayerRecordFilled, IconPlayerStopFilled, IconVideo } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

type State = 'idle' | 'starting' | 'recording' | 'denied' | 'unsupported';

/** The recorder's own choice among the webm types this browser can write. */
function recorderType(): string | undefined {
  const types = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'];
  return types.find((type) => MediaRecorder.isTypeSupported(type));
}

/**
 * Records the webcam in the browser (MediaRecorder, webm) with a visible timer and a stop button;
 * stops by itself at 5 minutes. The finished recording is handed over as a file.
 */
export function WebcamRecorder({ onRecorded, disabled }: { onRecorded: (file: File) => void; disabled: boolean }) {
  const { t } = useTranslation('demo');
  const [state, setState] = useState<State>(() =>
    typeof MediaRecorder === 'undefined' || !navigator.mediaDevices?.getUserMedia ? 'unsupported' : 'idle',
  );
  const [elapsed, setElapsed] = useState(0);
  const preview = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const timer = useRef<number | undefined>(undefined);

  const release = () => {
    window.clearInterval(timer.current);
    for (const track of stream.current?.getTracks() ?? []) track.stop();
    stream.current = null;
    if (preview.current) preview.current.srcObject = null;
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: released once, when the page goes
  useEffect(
    () => () => {
      if (recorder.current?.state === 'recording') recorder.current.stop();
      release();
    },
    [],
  );

  const stop = () => {
    if (recorder.current?.state === 'recording') recorder.current.stop();
  };

  const start = async () => {
    setState('starting');
    let media: MediaStream;
    try {
      media = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 }, audio: false });
    } catch {
      setState('denied');
      return;
    }
    stream.current = media;
    if (preview.current) {
      preview.current.srcObject = media;
      void preview.current.play().catch(() => undefined);
    }
    const type = recorderType();
    const rec = new MediaRecorder(media, type ? { mimeType: type } : undefined);
    const chunks: Blob[] = [];
    rec.ondataavailable = (event) => {
      if (event.data.size) chunks.push(event.data);
    };
    rec.onstop = () => {
      release();
      setState('idle');
      const blob = new Blob(chunks, { type: 'video/webm' });
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      if (blob.size) onRecorded(new File([blob], `webcam-${stamp}.webm`, { type: 'video/webm' }));
    };
    recorder.current = rec;
    const began = performance.now();
    setElapsed(0);
    timer.current = window.setInterval(() => {
      const seconds = (performance.now() - began) / 1000;
      setElapsed(seconds);
      // The limit: the recording ends itself, and is kept.
      if (seconds >= DEMO_LIMITS.recordSeconds) stop();
    }, 250);
    rec.start(1000);
    setState('recording');
  };

  const recording = state === 'recording';
  return (
    <Paper withBorder radius="md" p="md" h="100%">
      <Stack gap="sm">
        <Group gap="xs">
          <IconVideo size={18} />
          <Text fw={600}>{t('record.title')}</Text>
        </Group>
        <Text size="sm" c="dimmed">
          {t('record.hint', { minutes: DEMO_LIMITS.recordSeconds / 60 })}
        </Text>
        <Box
          pos="relative"
          style={{
            aspectRatio: '4 / 3',
            background: 'var(--mantine-color-dark-7)',
            borderRadius: 8,
            overflow: 'hidden',
          }}
        >
          <video
            ref={preview}
            muted
            playsInline
            data-testid="webcam-preview"
            style={{ width: '100%', height: '100%', objectFit: 'cover', transform: 'scaleX(-1)' }}
          />
          {!recording && state !== 'starting' && (
            <Text
              c="gray.5"
              size="sm"
              ta="center"
              pos="absolute"
              style={{ inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 16 }}
            >
              {t('record.previewIdle')}
            </Text>
          )}
          {recording && (
            <Group
              gap={6}
              pos="absolute"
              top={8}
              left={8}
              px={8}
              py={2}
              style={{ background: 'rgba(0,0,0,.6)', borderRadius: 12 }}
              data-testid="record-timer"
            >
              <Box w={10} h={10} style={{ background: '#fa5252', borderRadius: 5 }} />
              <Text size="sm" c="white" ff="monospace">
                {clock(elapsed)} / {clock(DEMO_LIMITS.recordSeconds)}
              </Text>
            </Group>
          )}
        </Box>
        {recording && <Progress value={(elapsed / DEMO_LIMITS.recordSeconds) * 100} size="xs" color="red" />}
        {state === 'denied' && (
          <Alert color="red" variant="light">
            {t('record.denied')}
          </Alert>
        )}
        {state === 'unsupported' && (
          <Alert color="yellow" variant="light">
            {t('record.unsupported')}
          </Alert>
        )}
        {recording ? (
          <Button color="red" leftSection={<IconPlayerStopFilled size={16} />} onClick={stop} data-testid="record-stop">
            {t('record.stop')}
          </Button>
        ) : (
          <Button
            leftSection={<IconPlayerRecordFilled size={16} />}
            onClick={start}
            loading={state === 'starting'}
            disabled={disabled || state === 'unsupported'}
            data-testid="record-start"
          >
            {t('record.start')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
