import { RESPONDENT_LIMITS } from '@emolens/contracts';
import type { FaceChecker, FaceCheckResult, FaceCheckStatus } from '@emolens/engine/browser';
import { Alert, Box, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconBulb,
  IconCameraOff,
  IconCircleCheck,
  IconFaceIdError,
  IconLock,
  IconUserQuestion,
  IconUsersGroup,
} from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import i18n from '../../i18n/index.ts';
import { CAMERA_CONSTRAINTS } from './camera.ts';
import { type DeviceReading, onDeviceResult, readCamera } from './device-analysis.ts';

type Phase = 'asking' | 'loading' | 'checking' | 'camera_error' | 'signal_lost' | 'engine_error';

// Human and TensorFlow.js (1.6 MB, 410 kB gzipped) arrive only on a page that checks a face, once per
// page load. One checker serves the page: one camera check is shown at a time (the live guidance checks with it too).
let checker: Promise<FaceChecker> | null = null;
export function loadChecker(): Promise<FaceChecker> {
  // Spec section 9: scripts and models load within 120 s, then a clear error.
  checker ??= Promise.race([
    import('@emolens/engine/browser').then((m) => m.createFaceChecker()),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('face engine load timed out')), RESPONDENT_LIMITS.scriptTimeoutMs),
    ),
  ]);
  checker.catch(() => {
    checker = null;
  });
  return checker;
}

/** Where the face should be, in % of the picture (centre top, width, height). */
const OVAL = { top: 47, width: 42, height: 70 };

/** A status is shown once this many checks in a row agree, so the words do not flicker at a limit. */
export const STEADY_CHECKS = 3;

const STATUS_LOOK: Record<FaceCheckStatus, { color: string; icon: ReactNode }> = {
  ok: { color: 'teal', icon: <IconCircleCheck size={20} /> },
  no_face: { color: 'orange', icon: <IconFaceIdError size={20} /> },
  several_faces: { color: 'orange', icon: <IconUsersGroup size={20} /> },
  head_turned: { color: 'orange', icon: <IconUserQuestion size={20} /> },
  too_dark: { color: 'orange', icon: <IconBulb size={20} /> },
};

export interface FaceCheckProps {
  /** Every check's result, for a flow that waits for `ok`. */
  onResult?: (result: FaceCheckResult) => void;
  /** A camera the page opened already (the respondent journey records the same stream); kept running. */
  stream?: MediaStream;
  /**
   * Privacy mode: the check runs on the recording analysis's engine in its worker (`readCamera`) at the session's
   * analysis rate `fps`, which measures the device's rate meanwhile, instead of the face checker; one engine runs, not
   * two.
   */
  device?: { fps: number } | null;
}

/** The respondent's camera with a live check that one face looks at it in enough light. */
export function FaceCheck({ onResult, stream: given, device = null }: FaceCheckProps) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const onResultRef = useRef(onResult);
  onResultRef.current = onResult;
  const [phase, setPhase] = useState<Phase>('asking');
  const [result, setResult] = useState<FaceCheckResult | null>(null);
  const [backend, setBackend] = useState('');

  useEffect(() => {
    let cancelled = false;
    let stream: MediaStream | null = null;
    let running: FaceChecker | null = null;
    let reading: DeviceReading | null = null;
    let unlisten = () => {};
    const steady = { status: null as FaceCheckStatus | null, count: 0 };
    let warned = false;

    (async () => {
      try {
        stream = given ?? (await navigator.mediaDevices.getUserMedia(CAMERA_CONSTRAINTS));
      } catch {
        if (cancelled) return;
        setPhase('camera_error');
        // Spec section 8: also a red notification at the top.
        notifications.show({ color: 'red', message: i18n.t('respondent.faceCheck.cameraError'), autoClose: 7000 });
        return;
      }
      if (cancelled) {
        if (!given) for (const track of stream.getTracks()) track.stop();
        return;
      }
      for (const track of stream.getVideoTracks()) {
        track.addEventListener('ended', () => {
          if (cancelled) return;
          running?.stop();
          void reading?.finish();
          setPhase('signal_lost');
        });
      }
      const video = videoRef.current;
      if (!video) return;
      video.srcObject = stream;
      setPhase('loading');
      const show = (r: FaceCheckResult) => {
        onResultRef.current?.(r);
        steady.count = r.status === steady.status ? steady.count + 1 : 1;
        steady.status = r.status;
        // The first result shows at once; later changes once they hold.
        setResult((shown) => (!shown || steady.count >= STEADY_CHECKS ? r : { ...shown, fps: r.fps }));
        setPhase('checking');
      };
      try {
        await video.play();
        if (device) {
          unlisten = onDeviceResult((r) => {
            if (!cancelled) show(r);
          });
          reading = await readCamera(video, { originMs: performance.now(), fps: device.fps });
          if (cancelled) void reading.finish();
        } else running = await loadChecker();
      } catch (error) {
        if (cancelled) return;
        console.error('face check could not start', error);
        setPhase('engine_error');
        return;
      }
      if (cancelled) return;
      if (device) {
        setBackend('onnx-wasm');
        return;
      }
      setBackend(running?.backend ?? '');
      running?.start(video, show, (error) => {
        // Once: a failing frame repeats on every following one.
        if (!warned) console.warn('face check failed on a frame', error);
        warned = true;
      });
    })();

    return () => {
      cancelled = true;
      running?.stop();
      unlisten();
      void reading?.finish();
      if (stream && !given) for (const track of stream.getTracks()) track.stop();
    };
  }, [given, device]);

  const status = phase === 'checking' && result ? result.status : null;
  const guide = status === 'ok' ? 'var(--mantine-color-teal-5)' : status ? 'var(--mantine-color-orange-5)' : 'white';
  const failed = phase === 'camera_error' || phase === 'signal_lost' || phase === 'engine_error';

  return (
    <Stack gap="md" data-testid="face-check" maw={640} w="100%" mx="auto">
      {!failed && (
        <Text c="dimmed" ta="center">
          {t('respondent.faceCheck.hint')}
        </Text>
      )}
      <Box
        pos="relative"
        bg="dark.7"
        style={{ aspectRatio: '4 / 3', borderRadius: 'var(--mantine-radius-lg)', overflow: 'hidden' }}
      >
        <video
          ref={videoRef}
          data-testid="face-check-video"
          aria-label={t('respondent.faceCheck.videoLabel')}
          muted
          playsInline
          // Mirrored, as people expect to see themselves.
          style={{ width: '100%', height: '100%', objectFit: 'cover', transform: 'scaleX(-1)', display: 'block' }}
        />
        {!failed && (
          <>
            {/* Dims the picture around the oval the face should fill. */}
            <Box
              aria-hidden
              pos="absolute"
              inset={0}
              style={{
                background: `radial-gradient(ellipse ${OVAL.width / 2}% ${OVAL.height / 2}% at 50% ${OVAL.top}%, transparent 99%, rgba(0, 0, 0, 0.4) 100%)`,
              }}
            />
            <Box
              aria-hidden
              pos="absolute"
              style={{
                left: '50%',
                top: `${OVAL.top}%`,
                width: `${OVAL.width}%`,
                height: `${OVAL.height}%`,
                transform: 'translate(-50%, -50%)',
                borderRadius: '50%',
                border: `4px solid ${guide}`,
                transition: 'border-color 200ms',
              }}
            />
          </>
        )}
        {(phase === 'asking' || phase === 'loading') && (
          <Center pos="absolute" inset={0}>
            <Loader color="white" />
          </Center>
        )}
        {failed && (
          <Center pos="absolute" inset={0}>
            <IconCameraOff size={64} color="var(--mantine-color-gray-5)" />
          </Center>
        )}
      </Box>

      <StatusLine phase={phase} status={status} result={result} backend={backend} />

      <Group gap={6} justify="center" wrap="nowrap">
        <IconLock size={14} color="var(--mantine-color-dimmed)" />
        <Text size="xs" c="dimmed">
          {t('respondent.faceCheck.privacy')}
        </Text>
      </Group>
    </Stack>
  );
}

function StatusLine({
  phase,
  status,
  result,
  backend,
}: {
  phase: Phase;
  status: FaceCheckStatus | null;
  result: FaceCheckResult | null;
  backend: string;
}) {
  const { t } = useTranslation();
  const data = {
    'data-testid': 'face-check-status',
    'data-status': status ?? phase,
    'data-face-count': result?.faceCount ?? '',
    'data-fps': result ? result.fps.toFixed(1) : '',
    'data-brightness': result ? result.brightness.toFixed(3) : '',
    'data-backend': backend,
    role: 'status',
    'aria-live': 'polite' as const,
  };
  if (status) {
    const look = STATUS_LOOK[status];
    return (
      <Alert {...data} variant="light" color={look.color} icon={look.icon} radius="md">
        <Text fw={600}>{t(`respondent.faceCheck.status.${status}`)}</Text>
      </Alert>
    );
  }
  if (phase === 'asking' || phase === 'loading' || phase === 'checking') {
    return (
      <Alert {...data} variant="light" color="gray" radius="md" icon={<Loader size={18} color="gray" />}>
        <Text>{t(phase === 'asking' ? 'respondent.faceCheck.asking' : 'respondent.faceCheck.loading')}</Text>
      </Alert>
    );
  }
  const key = {
    camera_error: 'respondent.faceCheck.cameraError',
    signal_lost: 'respondent.faceCheck.signalLost',
    engine_error: 'respondent.faceCheck.engineError',
  }[phase];
  return (
    <Alert {...data} variant="filled" color="red" radius="md" icon={<IconCameraOff size={20} />}>
      {t(key)}
    </Alert>
  );
}
