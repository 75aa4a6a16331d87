import {
  DOT_TEST_LIMITS,
  DOT_TEST_THRESHOLDS,
  type DotTestResult,
  type DotTestState,
  type DotTestVerdict,
  type ProcessErrorCode,
} from '@emolens/contracts';
import {
  Alert,
  Badge,
  Button,
  Center,
  Checkbox,
  Group,
  List,
  Loader,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconCamera, IconChartDots3, IconEye, IconRefresh } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { translateMessage } from '../../i18n/messages.ts';
import { Calibration } from '../respondent/calibration.tsx';
import { openCamera, stopCamera, watchCamera } from '../respondent/camera.ts';
import { type ChunkStore, memoryChunkStore, openChunkStore } from '../respondent/chunk-store.ts';
import { type EventInput, EventLog } from '../respondent/event-log.ts';
import { enterFullscreen, exitFullscreen } from '../respondent/full-screen.tsx';
import { useLeaveWarning } from '../respondent/guards.tsx';
import { CameraAskingScreen, CameraErrorScreen, FaceCheckStep, SaveScreen } from '../respondent/message-screens.tsx';
import { Recorder, recordingMime } from '../respondent/recorder.ts';
import { useFaceGate } from '../respondent/research-page.tsx';
import { screenSize } from '../respondent/session-runtime.ts';
import { Uploader } from '../respondent/uploader.ts';
import { AccuracyDrawing } from './accuracy-drawing.tsx';
import { dotTestApi, savedDotTest } from './dot-test-api.ts';

type Phase =
  | { name: 'loading' }
  | { name: 'intro' }
  | { name: 'camera' }
  | { name: 'camera_error'; kind: 'camera' | 'recorder' }
  | { name: 'face_check' }
  | { name: 'calibration' }
  | { name: 'save' }
  | { name: 'processing'; state: DotTestState }
  | { name: 'result'; state: DotTestState };

/** One try per call: the uploader and the event log retry on their own. */
const ONCE = { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 };
const POLL_MS = 1500;
const RUNNING: Phase['name'][] = ['camera', 'face_check', 'calibration', 'save'];

/** What one check records: the recorder, its chunks' uploader and the calibration's event log. */
interface Recording {
  id: string;
  secret: string;
  store: ChunkStore;
  uploader: Uploader;
  log: EventLog | null;
  recorder: Recorder | null;
  sealTimer: number;
}

function errorText(error: unknown): string {
  return error instanceof ApiRequestError ? translateMessage(error.ref) : translateMessage({ key: 'errors.internal' });
}

/**
 * The stand-alone setup check (/dot-test, no login): consent to a short recording, the camera and
 * its live face check, the journey's calibration and validation, the recording sent like the
 * journey's, then the measured accuracy with a drawing of where the gaze landed.
 */
export function DotTestPage() {
  const { t } = useTranslation('respondent');
  const [phase, setPhase] = useState<Phase>({ name: 'loading' });
  const [agreed, setAgreed] = useState(false);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [uploadProgress, setUploadProgress] = useState(0);
  const [saveFailed, setSaveFailed] = useState(false);
  const recording = useRef<Recording | null>(null);
  /** The check this page follows (also when the browser keeps nothing: private mode). */
  const owner = useRef<{ id: string; secret: string } | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const monitor = useRef<HTMLVideoElement>(null);
  const [monitorStream, setMonitorStream] = useState<MediaStream | null>(null);

  // The check this browser ran last: its progress or result (a check cut off while recording is dropped).
  useEffect(() => {
    let cancelled = false;
    (async () => {
      const saved = savedDotTest.get();
      if (!saved) {
        setPhase({ name: 'intro' });
        return;
      }
      owner.current = saved;
      try {
        const state = await dotTestApi.state(saved.id, saved.secret);
        if (cancelled) return;
        if (state.status === 'recording') {
          await dotTestApi.remove(saved.id, saved.secret).catch(() => {});
          savedDotTest.clear();
          setPhase({ name: 'intro' });
        } else if (state.status === 'done' || state.status === 'failed') setPhase({ name: 'result', state });
        else setPhase({ name: 'processing', state });
      } catch (err) {
        if (cancelled) return;
        if (err instanceof ApiRequestError && err.status === 404) savedDotTest.clear();
        else setError(errorText(err));
        setPhase({ name: 'intro' });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, []);

  const closeRecording = useCallback(() => {
    const rec = recording.current;
    recording.current = null;
    if (!rec) return;
    window.clearInterval(rec.sealTimer);
    void rec.recorder?.stop();
    rec.store.close();
  }, []);

  useEffect(
    () => () => {
      closeRecording();
      stopCamera(stream.current);
    },
    [closeRecording],
  );

  async function start() {
    setError(null);
    const mime = recordingMime();
    if (!mime) {
      setPhase({ name: 'camera_error', kind: 'recorder' });
      return;
    }
    setStarting(true);
    try {
      const started = await dotTestApi.start({
        consent: { accepted: true, retention_days: DOT_TEST_LIMITS.retentionDays, language: currentLanguage() },
        screen: screenSize(),
        mime_type: mime.container,
      });
      const { id } = started.test;
      const { secret } = started;
      savedDotTest.set(id, secret);
      owner.current = { id, secret };
      let store: ChunkStore;
      try {
        store = await openChunkStore();
      } catch {
        store = memoryChunkStore();
      }
      const uploader = new Uploader({
        store,
        session: id,
        send: async (_segment, index, data) => {
          await dotTestApi.putChunk(id, secret, index, data, ONCE);
        },
        onProgress: (p) => {
          const total = p.sentBytes + p.pendingBytes;
          setUploadProgress(total === 0 ? (p.pending === 0 ? 1 : 0) : p.sentBytes / total);
        },
      });
      recording.current = { id, secret, store, uploader, log: null, recorder: null, sealTimer: 0 };
    } catch (err) {
      setError(`${t('dotTest.startError')}: ${errorText(err)}`);
      setStarting(false);
      return;
    }
    setStarting(false);
    setPhase({ name: 'camera' });
    try {
      stream.current = await openCamera();
    } catch {
      setPhase({ name: 'camera_error', kind: 'camera' });
      return;
    }
    setMonitorStream(stream.current);
    setPhase({ name: 'face_check' });
  }

  /** The calibration's start button: full screen, then the recorder and the log from the same instant. */
  async function startRecording() {
    await enterFullscreen();
    const rec = recording.current;
    const mime = recordingMime();
    if (!rec || !stream.current || !mime) return;
    // The recording's clock starts with the recorder: the first frame is t = 0 of the event log.
    rec.recorder = new Recorder(stream.current, mime.mimeType, (index, data) => rec.uploader.add(0, index, data));
    rec.recorder.start();
    rec.log = new EventLog({
      session: rec.id,
      storage: localStorage,
      send: (batch) => dotTestApi.events(rec.id, rec.secret, batch, ONCE),
      serverNextSeq: 0,
      clockMs: 0,
    });
    rec.log.log({ type: 'screen', ...screenSize() });
    rec.sealTimer = window.setInterval(() => rec.log?.seal(), 2000);
  }

  const log = useCallback((event: EventInput) => recording.current?.log?.log(event), []);

  async function save() {
    const rec = recording.current;
    await exitFullscreen();
    if (!rec?.log) return;
    setSaveFailed(false);
    setPhase({ name: 'save' });
    window.clearInterval(rec.sealTimer);
    await rec.recorder?.stop();
    stopCamera(stream.current);
    setMonitorStream(null);
    try {
      if (rec.uploader.failed) rec.uploader.retry();
      const sent = await Promise.allSettled([rec.uploader.flush(), rec.log.flush()]);
      for (const r of sent) if (r.status === 'rejected') throw r.reason;
      const state = await dotTestApi.complete(rec.id, rec.secret, {
        chunks: rec.uploader.segments()[0]?.chunks ?? 0,
        event_batches: rec.log.batches,
      });
      rec.log.forget();
      closeRecording();
      setPhase({ name: 'processing', state });
    } catch (err) {
      console.error('sending the check failed', err);
      setError(`${t('dotTest.sendError')}: ${errorText(err)}`);
      setSaveFailed(true);
    }
  }

  /** Starts over: the old check is deleted (its owner asks for a new one), the consent is asked again. */
  async function retry() {
    const saved = owner.current;
    owner.current = null;
    savedDotTest.clear();
    closeRecording();
    stopCamera(stream.current);
    setMonitorStream(null);
    setError(null);
    setAgreed(false);
    setUploadProgress(0);
    setPhase({ name: 'intro' });
    if (saved) await dotTestApi.remove(saved.id, saved.secret).catch(() => {});
  }

  // Processing: the state every 1.5 s until it is done or failed.
  const processingId = phase.name === 'processing' ? phase.state.id : null;
  useEffect(() => {
    const saved = owner.current;
    if (!processingId || !saved || saved.id !== processingId) return;
    let stopped = false;
    const timer = window.setInterval(async () => {
      try {
        const state = await dotTestApi.state(saved.id, saved.secret);
        if (stopped) return;
        if (state.status === 'done' || state.status === 'failed') setPhase({ name: 'result', state });
        else setPhase({ name: 'processing', state });
      } catch (err) {
        if (stopped) return;
        if (err instanceof ApiRequestError && err.status === 404) {
          savedDotTest.clear();
          setError(errorText(err));
          setPhase({ name: 'intro' });
        }
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [processingId]);

  // The camera's signal while the calibration records: lost, the check starts over.
  useEffect(() => {
    const video = monitor.current;
    if (phase.name !== 'calibration' || !video || !monitorStream) return;
    return watchCamera(video, monitorStream, () => {
      log({ type: 'camera_lost' });
      void exitFullscreen();
      setPhase({ name: 'camera_error', kind: 'camera' });
    });
  }, [phase.name, monitorStream, log]);

  useEffect(() => {
    const video = monitor.current;
    if (!video) return;
    video.srcObject = monitorStream;
    if (monitorStream) void video.play().catch(() => {});
  }, [monitorStream]);

  useEffect(() => {
    const onVisibility = () => log({ type: 'visibility', hidden: document.visibilityState === 'hidden' });
    const onFullscreen = () => log({ type: 'fullscreen', on: document.fullscreenElement !== null });
    document.addEventListener('visibilitychange', onVisibility);
    document.addEventListener('fullscreenchange', onFullscreen);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      document.removeEventListener('fullscreenchange', onFullscreen);
    };
  }, [log]);

  useLeaveWarning(RUNNING.includes(phase.name));
  const onFaceResult = useFaceGate(
    () => {},
    () => setPhase({ name: 'calibration' }),
  );

  let body: React.ReactNode;
  switch (phase.name) {
    case 'loading':
      body = (
        <Center py={120}>
          <Loader />
        </Center>
      );
      break;
    case 'intro':
      body = (
        <Intro agreed={agreed} onAgree={setAgreed} starting={starting} error={error} onStart={() => void start()} />
      );
      break;
    case 'camera':
      body = <CameraAskingScreen />;
      break;
    case 'camera_error':
      body = <CameraErrorScreen kind={phase.kind} />;
      break;
    case 'face_check':
      body = <FaceCheckStep stream={stream.current ?? undefined} onResult={onFaceResult} />;
      break;
    case 'calibration':
      body = (
        <Calibration
          seconds={DOT_TEST_LIMITS.calibrationSeconds}
          log={log}
          onBegin={startRecording}
          onDone={() => void save()}
        />
      );
      break;
    case 'save':
      body = (
        <Stack>
          <SaveScreen
            progress={uploadProgress}
            failed={saveFailed}
            onRetry={() => {
              setError(null);
              void save();
            }}
          />
          {saveFailed && error && (
            <Alert color="red" icon={<IconAlertCircle size={18} />}>
              {error}
            </Alert>
          )}
        </Stack>
      );
      break;
    case 'processing':
      body = <Processing state={phase.state} />;
      break;
    case 'result':
      body = <ResultView state={phase.state} onRetry={() => void retry()} />;
      break;
  }

  return (
    <>
      {body}
      <video
        ref={monitor}
        muted
        playsInline
        aria-hidden
        style={{
          position: 'fixed',
          right: 0,
          bottom: 0,
          width: 2,
          height: 2,
          opacity: 0.01,
          pointerEvents: 'none',
          zIndex: 2000,
        }}
      />
    </>
  );
}

function Intro({
  agreed,
  onAgree,
  starting,
  error,
  onStart,
}: {
  agreed: boolean;
  onAgree: (value: boolean) => void;
  starting: boolean;
  error: string | null;
  onStart: () => void;
}) {
  const { t } = useTranslation('respondent');
  return (
    <Paper withBorder p={{ base: 'lg', sm: 'xl' }} radius="lg" data-testid="dot-test-intro">
      <Stack gap="lg">
        <Stack gap="xs">
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            {t('dotTest.title')}
          </Title>
          <Text fz={{ base: 'md', sm: 'lg' }} c="dimmed">
            {t('dotTest.intro', { seconds: DOT_TEST_LIMITS.calibrationSeconds })}
          </Text>
        </Stack>
        <List spacing="sm" center style={{ paddingInlineStart: 0 }} styles={{ itemLabel: { lineHeight: 1.45 } }}>
          <List.Item
            icon={
              <ThemeIcon variant="light" radius="xl" size={32}>
                <IconCamera size={18} />
              </ThemeIcon>
            }
          >
            {t('dotTest.steps.camera')}
          </List.Item>
          <List.Item
            icon={
              <ThemeIcon variant="light" radius="xl" size={32}>
                <IconEye size={18} />
              </ThemeIcon>
            }
          >
            {t('dotTest.steps.calibration')}
          </List.Item>
          <List.Item
            icon={
              <ThemeIcon variant="light" radius="xl" size={32}>
                <IconChartDots3 size={18} />
              </ThemeIcon>
            }
          >
            {t('dotTest.steps.result')}
          </List.Item>
        </List>
        <Checkbox
          size="md"
          checked={agreed}
          onChange={(e) => onAgree(e.currentTarget.checked)}
          label={t('dotTest.consent', { days: DOT_TEST_LIMITS.retentionDays })}
          data-testid="dot-test-consent"
          styles={{ label: { lineHeight: 1.5 } }}
        />
        {error && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="dot-test-error">
            {error}
          </Alert>
        )}
        <Group>
          <Button
            size="lg"
            w={{ base: '100%', xs: 'auto' }}
            disabled={!agreed}
            loading={starting}
            onClick={onStart}
            data-testid="dot-test-start"
          >
            {t('dotTest.start')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function Processing({ state }: { state: DotTestState }) {
  const { t } = useTranslation('respondent');
  const queued = state.status === 'queued';
  return (
    <Paper withBorder p={{ base: 'lg', sm: 'xl' }} radius="lg" data-testid="dot-test-processing">
      <Stack align="center" ta="center" gap="md" py="md">
        <Loader />
        <Title order={2}>{t('dotTest.processingTitle')}</Title>
        <Progress
          value={queued ? 0 : state.progress}
          size="xl"
          radius="xl"
          w="100%"
          maw={480}
          animated
          aria-label={t('dotTest.processingTitle')}
        />
        <Text size="lg" data-testid="dot-test-progress">
          {queued ? t('dotTest.queued') : t('dotTest.processing', { percent: state.progress })}
        </Text>
        <Text c="dimmed" maw={520}>
          {t('dotTest.processingHint')}
        </Text>
      </Stack>
    </Paper>
  );
}

const VERDICT_COLOR: Record<DotTestVerdict, string> = { good: 'teal', fair: 'yellow', poor: 'red' };

function ResultView({ state, onRetry }: { state: DotTestState; onRetry: () => void }) {
  const { t, i18n } = useTranslation('respondent');
  const expires = new Date(state.expires_at).toLocaleDateString(i18n.language, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });
  const retry = (
    <Button size="md" leftSection={<IconRefresh size={18} />} onClick={onRetry} data-testid="dot-test-retry">
      {t('dotTest.retry')}
    </Button>
  );
  if (state.status === 'failed' || !state.result) {
    const code: ProcessErrorCode = state.error ?? 'internal';
    return (
      <Paper withBorder p={{ base: 'lg', sm: 'xl' }} radius="lg" data-testid="dot-test-failed">
        <Stack align="center" ta="center" gap="md" py="md">
          <ThemeIcon size={64} radius="xl" variant="light" color="red">
            <IconAlertCircle size={34} />
          </ThemeIcon>
          <Title order={2}>{t('dotTest.failedTitle')}</Title>
          <Text size="lg" data-testid="dot-test-error">
            {translateMessage({ key: `processing.error.${code}` })}
          </Text>
          {retry}
        </Stack>
      </Paper>
    );
  }
  const result: DotTestResult = state.result;
  const number = (value: number, digits = 0) =>
    value.toLocaleString(i18n.language, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="lg" data-testid="dot-test-result">
      <Stack gap="lg">
        <Group justify="space-between" align="center" wrap="wrap" gap="sm">
          <Title order={2}>{t('dotTest.resultTitle')}</Title>
          <Badge size="xl" radius="md" color={VERDICT_COLOR[result.verdict]} data-testid="dot-test-verdict">
            {t(`dotTest.verdict.${result.verdict}`)}
          </Badge>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Stack gap={4}>
            <Text c="dimmed" size="sm" tt="uppercase" fw={600}>
              {t('dotTest.accuracy')}
            </Text>
            {result.accuracy_px !== null && result.accuracy_percent !== null ? (
              <>
                <Text fz={36} fw={700} lh={1.1} data-testid="dot-test-accuracy-px">
                  {t('dotTest.accuracyPx', { px: number(result.accuracy_px) })}
                </Text>
                <Text size="lg" data-testid="dot-test-accuracy-percent">
                  {t('dotTest.accuracyPercent', { percent: number(result.accuracy_percent, 1) })}
                </Text>
              </>
            ) : (
              <Text fz={28} fw={700} data-testid="dot-test-accuracy-px">
                {t('dotTest.accuracyNone')}
              </Text>
            )}
          </Stack>
          <Stack gap="xs">
            <Text size="lg" data-testid="dot-test-verdict-text">
              {t(`dotTest.verdictText.${result.verdict}`)}
            </Text>
            {!result.face_found && <Text c="red.8">{t('dotTest.noFace')}</Text>}
            {result.face_found && result.calibration_status !== 'calibrated' && (
              <Text c="red.8">{t('dotTest.calibrationFailed')}</Text>
            )}
          </Stack>
        </SimpleGrid>
        <Stack gap="xs">
          <Title order={3} fz="lg">
            {t('dotTest.drawingTitle')}
          </Title>
          <AccuracyDrawing result={result} />
        </Stack>
        <Text size="sm" c="dimmed" data-testid="dot-test-thresholds">
          {t('dotTest.thresholds', {
            good: number(DOT_TEST_THRESHOLDS.goodPercent),
            fair: number(DOT_TEST_THRESHOLDS.fairPercent),
          })}
        </Text>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Text size="sm" c="dimmed">
            {t('dotTest.expires', { date: expires })}
          </Text>
          {retry}
        </Group>
      </Stack>
    </Paper>
  );
}
