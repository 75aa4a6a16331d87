import { DOT_TEST_LIMITS, type DotTestState } from '@emolens/contracts';
import { Alert, Center, Loader, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { translateMessage } from '../../i18n/messages.ts';
import { Calibration } from '../respondent/calibration.tsx';
import type { EventInput } from '../respondent/event-log.ts';
import { useFaceGate } from '../respondent/face-gate.ts';
import { enterFullscreen, exitFullscreen } from '../respondent/full-screen.tsx';
import { useLeaveWarning } from '../respondent/guards.tsx';
import { CameraAskingScreen, CameraErrorScreen, FaceCheckStep, SaveScreen } from '../respondent/message-screens.tsx';
import { recordingMime } from '../respondent/recorder.ts';
import { CameraMonitor, useRecordingJourney } from '../respondent/recording-journey.tsx';
import { screenSize } from '../respondent/session-runtime.ts';
import { dotTestApi, savedDotTest } from './dot-test-api.ts';
import { DotTestRecording } from './dot-test-recording.ts';
import { ResultView } from './dot-test-result.tsx';
import { Intro, Processing } from './dot-test-screens.tsx';

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

const POLL_MS = 1500;
const RUNNING: Phase['name'][] = ['camera', 'face_check', 'calibration', 'save'];

function errorText(error: unknown): string {
  return error instanceof ApiRequestError ? translateMessage(error.ref) : translateMessage({ key: 'errors.internal' });
}

/**
 * The stand-alone setup check (/dot-test, no login): consent to a short recording, the camera and
 * its live face check, the journey's calibration and validation, the recording sent like the
 * journey's (`useRecordingJourney`), then the measured accuracy with a drawing of where the gaze landed.
 */
export function DotTestPage() {
  const { t } = useTranslation('respondent');
  const [phase, setPhase] = useState<Phase>({ name: 'loading' });
  const [agreed, setAgreed] = useState(false);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const recording = useRef<DotTestRecording | null>(null);
  /** The check this page follows (also when the browser keeps nothing: private mode). */
  const owner = useRef<{ id: string; secret: string } | null>(null);

  const log = useCallback((event: EventInput) => recording.current?.logEvent(event), []);
  const closeRecording = useCallback(() => {
    recording.current?.close();
    recording.current = null;
  }, []);
  const journey = useRecordingJourney({
    log,
    recording: phase.name === 'calibration',
    // Lost while the calibration records: the check starts over.
    onCameraLost: () => {
      void exitFullscreen();
      setPhase({ name: 'camera_error', kind: 'camera' });
    },
    onClose: closeRecording,
  });

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
      recording.current = await DotTestRecording.open(id, secret, journey.onUpload);
    } catch (err) {
      setError(`${t('dotTest.startError')}: ${errorText(err)}`);
      setStarting(false);
      return;
    }
    setStarting(false);
    setPhase({ name: 'camera' });
    if (!(await journey.startCamera())) {
      setPhase({ name: 'camera_error', kind: 'camera' });
      return;
    }
    setPhase({ name: 'face_check' });
  }

  /** The calibration's start button: full screen, then the recorder and the log from the same instant. */
  async function startRecording() {
    await enterFullscreen();
    const mime = recordingMime();
    if (!recording.current || !journey.stream.current || !mime) return;
    recording.current.start(journey.stream.current, mime.mimeType);
  }

  async function save() {
    const rec = recording.current;
    await exitFullscreen();
    if (!rec?.started) return;
    journey.setSaveFailed(false);
    setPhase({ name: 'save' });
    await rec.stop();
    journey.releaseCamera();
    try {
      const state = await rec.complete();
      closeRecording();
      setPhase({ name: 'processing', state });
    } catch (err) {
      console.error('sending the check failed', err);
      setError(`${t('dotTest.sendError')}: ${errorText(err)}`);
      journey.setSaveFailed(true);
    }
  }

  /** Starts over: the old check is deleted (its owner asks for a new one), the consent is asked again. */
  async function retry() {
    const saved = owner.current;
    owner.current = null;
    savedDotTest.clear();
    closeRecording();
    journey.releaseCamera();
    setError(null);
    setAgreed(false);
    journey.setUploadProgress(0);
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
      body = <FaceCheckStep stream={journey.stream.current ?? undefined} onResult={onFaceResult} />;
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
            progress={journey.uploadProgress}
            failed={journey.saveFailed}
            onRetry={() => {
              setError(null);
              void save();
            }}
          />
          {journey.saveFailed && error && (
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
      <CameraMonitor monitor={journey.monitor} />
    </>
  );
}
