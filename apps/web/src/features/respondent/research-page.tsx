import {
  CONSENT_POLICY_VERSION,
  isLanguage,
  type LinkInfo,
  MTURK_PREVIEW_ASSIGNMENT,
  PANEL_QUERY_KEYS,
  type PanelParams,
  panelParamsSchema,
  RESPONDENT_LIMITS,
  RESPONDENT_STEPS,
  type RespondentResearch,
  type RespondentStep,
  type SessionEnd,
  type SessionState,
  type SurveySlot,
} from '@emolens/contracts';
import type { FaceCheckResult } from '@emolens/engine/browser';
import { Button, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiRequestError } from '../../api/client.ts';
import i18n, { currentLanguage, languageFromUrl } from '../../i18n/index.ts';
import { Calibration, Checkpoint } from './calibration.tsx';
import { openCamera, stopCamera, watchCamera } from './camera.ts';
import { ConsentScreen } from './consent-screen.tsx';
import { ContentlessPlayer, PicturesPlayer, ShelfPlayer } from './content-players.tsx';
import type { EventInput } from './event-log.ts';
import { STEADY_CHECKS } from './face-check.tsx';
import { enterFullscreen, exitFullscreen } from './full-screen.tsx';
import {
  allowUnload,
  CameraLostDialog,
  LeaveDialog,
  useBackGuard,
  useLeaveWarning,
  useWrongOrientation,
} from './guards.tsx';
import {
  CameraAskingScreen,
  CameraErrorScreen,
  type ClosedReason,
  ClosedScreen,
  EndScreen,
  FaceCheckStep,
  MturkPreviewScreen,
  RotateScreen,
  SaveScreen,
} from './message-screens.tsx';
import { QuestionnaireStep } from './questionnaire-step.tsx';
import { hasMediaRecorder } from './recorder.ts';
import { countTurnAway, respondentApi } from './respondent-api.ts';
import { SessionRuntime, savedSession, screenSize } from './session-runtime.ts';
import { SitePlayer } from './site-player.tsx';
import { VideoPlayer } from './video-player.tsx';

type Phase =
  | { name: 'loading' }
  | { name: 'closed'; reason: ClosedReason }
  | { name: 'mturk_preview' }
  | { name: 'consent' }
  | { name: 'camera' }
  | { name: 'camera_error'; kind: 'camera' | 'recorder' }
  | { name: 'face_check' }
  | { name: 'calibration' }
  | { name: 'resume' }
  | { name: 'checkpoint'; next: number }
  | { name: 'content'; index: number }
  /** The screener (then the research `next`, or the rest of the setup when it comes first) or the survey. */
  | { name: 'questionnaire'; slot: SurveySlot; next: number | null }
  | { name: 'save' }
  | { name: 'end'; end: SessionEnd | null; preview: boolean };

/** The phases during which the camera records (and its loss stops the journey). */
const RECORDING: Phase['name'][] = ['calibration', 'resume', 'checkpoint', 'content'];
/** The phases of a running journey: leaving the page is warned about. */
const RUNNING: Phase['name'][] = ['camera', 'face_check', ...RECORDING, 'questionnaire', 'save'];
/** Steps from which the journey resumes with the content (the calibration is done). */
const CALIBRATED: RespondentStep[] = ['content', 'survey', 'save'];

/** The slot's questionnaire while it still waits for its final answers. */
const pendingQuestionnaire = (session: SessionState | null, slot: SurveySlot) => {
  const questionnaire = session?.surveys[slot];
  return questionnaire && !questionnaire.done ? questionnaire : null;
};

/** A face looking straight at the camera for this long passes the face check. */
const FACE_OK_MS = 1200;

function panelFromQuery(search: string): PanelParams {
  const query = new URLSearchParams(search);
  const raw: Record<string, string> = {};
  for (const key of PANEL_QUERY_KEYS) {
    const value = query.get(key);
    if (value !== null) raw[key] = value;
  }
  // Values that are not bounded ids are dropped, not refused: the link still works.
  const parsed: PanelParams = {};
  for (const [key, value] of Object.entries(raw)) {
    const one = panelParamsSchema.safeParse({ [key]: value });
    if (one.success) Object.assign(parsed, one.data);
  }
  return parsed;
}

/** Seconds of content the scenario shows (what decides the drift checkpoints). */
export function contentSeconds(researches: RespondentResearch[]): number {
  let total = 0;
  for (const r of researches) {
    if (r.content_type === 'video') total += r.video?.duration_seconds ?? 0;
    else if (r.content_type === 'pictures')
      total += r.picture_gallery.items.reduce((s, i) => s + i.duration_seconds, 0);
    else if (r.content_type === 'shelf') total += r.shelf_content_scenario.reduce((s, d) => s + d.duration_seconds, 0);
    else if (r.content_type === 'site')
      total += r.web_resource_scenario.reduce((s, task) => s + (task.timeout || r.task_time_limit_seconds), 0);
    else total += r.duration_seconds ?? 0;
  }
  return total;
}

/** The respondent's journey from a quota link (spec sections 1, 2, 8, 9; design section 6). */
export function ProjectResearchPage() {
  const { t } = useTranslation('respondent');
  const { linkId: token = '' } = useParams();
  const [phase, setPhase] = useState<Phase>({ name: 'loading' });
  const [link, setLink] = useState<LinkInfo | null>(null);
  const [starting, setStarting] = useState(false);
  const [uploadProgress, setUploadProgress] = useState(0);
  /** Sending at the end failed after every retry: the respondent may try again. */
  const [saveFailed, setSaveFailed] = useState(false);
  const [cameraLost, setCameraLost] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const runtime = useRef<SessionRuntime | null>(null);
  const state = useRef<SessionState | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const monitor = useRef<HTMLVideoElement>(null);
  const [monitorStream, setMonitorStream] = useState<MediaStream | null>(null);

  const log = useCallback((event: EventInput) => runtime.current?.logEvent(event), []);
  // Steps only go forward: a resumed session does not step back to the camera in the server's eyes.
  const lastStep = useRef<RespondentStep>('consent');
  const logStep = useCallback(
    (step: RespondentStep) => {
      if (RESPONDENT_STEPS.indexOf(step) <= RESPONDENT_STEPS.indexOf(lastStep.current)) return;
      lastStep.current = step;
      log({ type: 'step', step });
    },
    [log],
  );

  // 1. The link: its state, language and platform.
  // biome-ignore lint/correctness/useExhaustiveDependencies: begin only touches refs and setters; the link is read once per token
  useEffect(() => {
    let cancelled = false;
    (async () => {
      let info: LinkInfo;
      try {
        info = await respondentApi.link(token);
      } catch (error) {
        if (cancelled) return;
        const notFound = error instanceof ApiRequestError && (error.status === 404 || error.status === 400);
        setPhase({ name: 'closed', reason: notFound ? 'invalid' : 'load_error' });
        return;
      }
      if (cancelled) return;
      // The page speaks the link's language unless the address names one.
      if (!languageFromUrl() && isLanguage(info.language) && info.language !== currentLanguage()) {
        document.documentElement.lang = info.language;
        await i18n.changeLanguage(info.language);
      }
      setLink(info);
      if (info.state === 'finished' || info.state === 'suspended' || info.state === 'quota_full') {
        if (info.state === 'quota_full') void countTurnAway(token);
        setPhase({ name: 'closed', reason: info.state });
        return;
      }
      if (panelFromQuery(window.location.search).assignmentId === MTURK_PREVIEW_ASSIGNMENT) {
        setPhase({ name: 'mturk_preview' });
        return;
      }
      const saved = savedSession.get(token);
      if (saved) {
        try {
          const session = await respondentApi.session(saved.id, saved.secret);
          if (cancelled) return;
          if (session.status === 'started') {
            await begin(session, saved.secret);
            return;
          }
          if (session.end) {
            setPhase({ name: 'end', end: session.end, preview: session.preview });
            return;
          }
        } catch (error) {
          if (cancelled) return;
          if (!(error instanceof ApiRequestError) || error.status >= 500 || error.status === 0) {
            setPhase({ name: 'closed', reason: 'load_error' });
            return;
          }
        }
        savedSession.clear(token);
      }
      setPhase({ name: 'consent' });
    })();
    return () => {
      cancelled = true;
    };
  }, [token]);

  // The page's end: the runtime keeps its log, the camera is let go.
  useEffect(
    () => () => {
      runtime.current?.close();
      stopCamera(stream.current);
    },
    [],
  );

  /** The session is there (new or resumed): the camera next. */
  async function begin(session: SessionState, secret: string) {
    state.current = session;
    lastStep.current = session.step;
    // Ended already (a quota filled at the start): its end.
    if (session.status !== 'started') {
      setPhase(
        session.end ? { name: 'end', end: session.end, preview: session.preview } : { name: 'closed', reason: 'ended' },
      );
      return;
    }
    runtime.current?.close();
    runtime.current = await SessionRuntime.open(session, secret, (p) => {
      const total = p.sentBytes + p.pendingBytes;
      setUploadProgress(total === 0 ? (p.pending === 0 ? 1 : 0) : p.sentBytes / total);
    });
    setPhase({ name: 'camera' });
    logStep('camera');
    if (!session.preview && !hasMediaRecorder()) {
      setPhase({ name: 'camera_error', kind: 'recorder' });
      return;
    }
    try {
      stream.current = await openCamera();
    } catch {
      setPhase({ name: 'camera_error', kind: 'camera' });
      return;
    }
    setMonitorStream(stream.current);
    if (session.use_face_checker) {
      logStep('face_check');
      setPhase({ name: 'face_check' });
    } else afterFaceCheck();
  }

  function afterFaceCheck() {
    const session = state.current;
    if (!session) return;
    // The quota link may ask for the screener before anything is recorded.
    if (session.screener_first && pendingQuestionnaire(session, 'screener')) {
      logStep('screener');
      setPhase({ name: 'questionnaire', slot: 'screener', next: null });
      return;
    }
    afterSetup();
  }

  /** The camera (and the screener when it comes first) are done: calibrate, or resume where the session was. */
  function afterSetup() {
    const session = state.current;
    if (!session) return;
    if (session.research_index >= session.researches.length && CALIBRATED.includes(session.step)) {
      void finishContent();
      return;
    }
    if (CALIBRATED.includes(session.step)) {
      setPhase({ name: 'resume' });
      return;
    }
    logStep('calibration');
    setPhase({ name: 'calibration' });
  }

  async function startRecording() {
    await enterFullscreen();
    const rt = runtime.current;
    if (rt && stream.current && !rt.preview) await rt.startRecording(stream.current);
  }

  function showResearch(index: number) {
    const session = state.current;
    if (!session) return;
    // A screener not answered yet comes before any content (after the calibration, unless it came first).
    if (pendingQuestionnaire(session, 'screener')) {
      setPhase({ name: 'questionnaire', slot: 'screener', next: index });
      return;
    }
    if (index >= session.researches.length) {
      void finishContent();
      return;
    }
    setPhase({ name: 'content', index });
  }

  /** The content is over: the survey, when there is one to answer (the camera stops first), then the save. */
  async function finishContent() {
    if (!pendingQuestionnaire(state.current, 'survey')) {
      void save();
      return;
    }
    await runtime.current?.stopRecording();
    stopCamera(stream.current);
    setMonitorStream(null);
    await exitFullscreen();
    logStep('survey');
    setPhase({ name: 'questionnaire', slot: 'survey', next: null });
  }

  /** The questionnaire's final answers are in: on with the journey, or to its end when the screener screened out. */
  async function questionnaireDone(slot: SurveySlot, next: number | null, end: SessionEnd | null) {
    const session = state.current;
    const questionnaire = session?.surveys[slot];
    if (!session || !questionnaire) return;
    state.current = { ...session, surveys: { ...session.surveys, [slot]: { ...questionnaire, done: true } } };
    if (end) {
      // Screened out: nothing more is recorded or sent.
      const rt = runtime.current;
      await rt?.stopRecording();
      rt?.log?.seal();
      savedSession.clear(token);
      stopCamera(stream.current);
      setMonitorStream(null);
      await exitFullscreen();
      setPhase({ name: 'end', end, preview: session.preview });
      return;
    }
    if (slot === 'survey') void save();
    else if (next === null) afterSetup();
    else showResearch(next);
  }

  function nextResearch(index: number) {
    const session = state.current;
    if (!session) return;
    const next = index + 1;
    if (next >= session.researches.length) {
      void finishContent();
      return;
    }
    if (contentSeconds(session.researches) > RESPONDENT_LIMITS.checkpointAfterSeconds) {
      setPhase({ name: 'checkpoint', next });
    } else showResearch(next);
  }

  async function save() {
    const rt = runtime.current;
    const session = state.current;
    await exitFullscreen();
    if (!rt || !session || rt.preview) {
      logStep('end');
      setPhase({ name: 'end', end: null, preview: true });
      return;
    }
    logStep('save');
    setSaveFailed(false);
    setPhase({ name: 'save' });
    await rt.stopRecording();
    try {
      await rt.sendAll();
      const done = await rt.complete();
      savedSession.clear(token);
      stopCamera(stream.current);
      setMonitorStream(null);
      setPhase({ name: 'end', end: done, preview: false });
    } catch (error) {
      console.error('sending the recording failed', error);
      setSaveFailed(true);
    }
  }

  // Events of the page while a session runs: visibility, fullscreen, the screen's size.
  useEffect(() => {
    const onVisibility = () => log({ type: 'visibility', hidden: document.visibilityState === 'hidden' });
    const onFullscreen = () => log({ type: 'fullscreen', on: document.fullscreenElement !== null });
    let resizeTimer = 0;
    const onResize = () => {
      window.clearTimeout(resizeTimer);
      resizeTimer = window.setTimeout(() => {
        if (runtime.current?.recording) log({ type: 'screen', ...screenSize() });
      }, 500);
    };
    const onPageHide = () => runtime.current?.log?.persist();
    document.addEventListener('visibilitychange', onVisibility);
    document.addEventListener('fullscreenchange', onFullscreen);
    window.addEventListener('resize', onResize);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.clearTimeout(resizeTimer);
      document.removeEventListener('visibilitychange', onVisibility);
      document.removeEventListener('fullscreenchange', onFullscreen);
      window.removeEventListener('resize', onResize);
      window.removeEventListener('pagehide', onPageHide);
    };
  }, [log]);

  // The camera's signal while recording.
  const recordingPhase = RECORDING.includes(phase.name);
  useEffect(() => {
    const video = monitor.current;
    if (!recordingPhase || !video || !monitorStream) return;
    return watchCamera(video, monitorStream, () => {
      log({ type: 'camera_lost' });
      setCameraLost(true);
    });
  }, [recordingPhase, monitorStream, log]);

  useEffect(() => {
    const video = monitor.current;
    if (!video) return;
    video.srcObject = monitorStream;
    if (monitorStream) void video.play().catch(() => {});
  }, [monitorStream]);

  const running = RUNNING.includes(phase.name);
  useLeaveWarning(running);
  useBackGuard(running, () => setLeaving(true));

  const session = state.current;
  const research = phase.name === 'content' ? session?.researches[phase.index] : undefined;
  const wrongOrientation = useWrongOrientation(research?.orientation ?? link?.orientation ?? 'all');
  const blocked = cameraLost || leaving || wrongOrientation !== null;

  const leaveFor = async (reason: 'camera_lost' | 'left') => {
    const rt = runtime.current;
    await rt?.stopRecording();
    rt?.log?.seal();
    if (rt && !rt.preview) await respondentApi.leave(rt.id, rt.secret, reason).catch(() => {});
    savedSession.clear(token);
    stopCamera(stream.current);
    await exitFullscreen();
  };

  const onFaceResult = useFaceGate(
    (r) => log({ type: 'face_check', ok: r.status === 'ok', faces: Math.min(50, r.faceCount) }),
    () => afterFaceCheck(),
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
    case 'closed':
      body = <ClosedScreen reason={phase.reason} />;
      break;
    case 'mturk_preview':
      body = <MturkPreviewScreen title={link?.project_title ?? ''} />;
      break;
    case 'consent':
      body = link && (
        <ConsentScreen
          link={link}
          starting={starting}
          onStart={async (panelConsent) => {
            setStarting(true);
            try {
              const started = await respondentApi.start(token, {
                consent: {
                  accepted: true,
                  policy_version: CONSENT_POLICY_VERSION,
                  language: currentLanguage(),
                  panel_consent: panelConsent,
                },
                panel: panelFromQuery(window.location.search),
                screen: screenSize(),
              });
              savedSession.set(token, started.session.session_id, started.secret);
              await begin(started.session, started.secret);
            } catch (error) {
              const status = error instanceof ApiRequestError ? error.status : 0;
              const key = error instanceof ApiRequestError ? error.ref.key : '';
              if (key === 'respondent.collectionFinished') setPhase({ name: 'closed', reason: 'finished' });
              else if (key === 'respondent.collectionSuspended') setPhase({ name: 'closed', reason: 'suspended' });
              else if (key === 'respondent.alreadyCompleted') setPhase({ name: 'closed', reason: 'already' });
              else setPhase({ name: 'closed', reason: status === 404 ? 'invalid' : 'load_error' });
            } finally {
              setStarting(false);
            }
          }}
        />
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
          seconds={session?.calibration_seconds ?? link?.calibration_seconds ?? 34}
          log={log}
          onBegin={startRecording}
          onDone={() => {
            logStep('content');
            showResearch(0);
          }}
        />
      );
      break;
    case 'resume':
      body = (
        <Paper withBorder p="xl" radius="lg" data-testid="resume-screen">
          <Stack align="center" ta="center" gap="md">
            <Title order={2}>{t('resume.title')}</Title>
            <Text size="lg" maw={560}>
              {t('resume.text')}
            </Text>
            <Button
              size="lg"
              data-testid="resume-continue"
              onClick={async () => {
                await startRecording();
                setPhase({ name: 'checkpoint', next: session?.research_index ?? 0 });
              }}
            >
              {t('resume.continue')}
            </Button>
          </Stack>
        </Paper>
      );
      break;
    case 'checkpoint':
      body = <Checkpoint log={log} onDone={() => showResearch(phase.next)} />;
      break;
    case 'content':
      body = research && (
        <ResearchRun
          key={phase.index}
          index={phase.index}
          research={research}
          log={log}
          blocked={blocked}
          onEnd={() => nextResearch(phase.index)}
          onLoadError={() => setPhase({ name: 'closed', reason: 'load_error' })}
        />
      );
      break;
    case 'questionnaire': {
      const questionnaire = session?.surveys[phase.slot];
      const rt = runtime.current;
      body = session && questionnaire && rt && (
        <QuestionnaireStep
          key={phase.slot}
          sessionId={rt.id}
          secret={rt.secret}
          slot={phase.slot}
          questionnaire={questionnaire}
          language={currentLanguage()}
          onDone={(end) => void questionnaireDone(phase.slot, phase.next, end)}
        />
      );
      break;
    }
    case 'save':
      body = (
        <SaveScreen
          progress={uploadProgress}
          failed={saveFailed}
          onRetry={() => {
            setSaveFailed(false);
            void save();
          }}
        />
      );
      break;
    case 'end':
      body = <EndScreen end={phase.end} preview={phase.preview} />;
      break;
  }

  return (
    <>
      {link?.state === 'preview' && phase.name !== 'consent' && phase.name !== 'end' && (
        <Text ta="center" c="orange.8" fw={600} mb="sm" data-testid="preview-banner">
          {t('preview.banner')}
        </Text>
      )}
      {body}
      <video
        ref={monitor}
        muted
        playsInline
        aria-hidden
        data-testid="camera-monitor"
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
      {wrongOrientation && running && <RotateScreen want={wrongOrientation} />}
      {cameraLost && (
        <CameraLostDialog
          onRestart={() => {
            allowUnload();
            window.location.reload();
          }}
          onTimeout={async () => {
            await leaveFor('camera_lost');
            allowUnload();
            window.location.replace(window.location.href);
          }}
        />
      )}
      {leaving && (
        <LeaveDialog
          onStay={() => setLeaving(false)}
          onRestart={() => {
            allowUnload();
            window.location.reload();
          }}
          onLeave={async () => {
            setLeaving(false);
            await leaveFor('left');
            setPhase({ name: 'closed', reason: 'left' });
          }}
        />
      )}
    </>
  );
}

/**
 * Logs a face check when what it sees changes; passes once one face looks straight for a moment. The moment
 * counts from when the check shows "ok" (STEADY_CHECKS results in a row), so the respondent sees it, however
 * slowly the check runs on their device.
 */
export function useFaceGate(logResult: (r: FaceCheckResult) => void, onPass: () => void) {
  const last = useRef<string>('');
  const okRun = useRef(0);
  const okSince = useRef<number | null>(null);
  const passed = useRef(false);
  const logRef = useRef(logResult);
  logRef.current = logResult;
  const passRef = useRef(onPass);
  passRef.current = onPass;
  return useCallback((r: FaceCheckResult) => {
    if (passed.current) return;
    const key = `${r.status}:${r.faceCount}`;
    if (key !== last.current) {
      last.current = key;
      logRef.current(r);
    }
    if (r.status !== 'ok') {
      okRun.current = 0;
      okSince.current = null;
      return;
    }
    okRun.current++;
    if (okRun.current >= STEADY_CHECKS) okSince.current ??= performance.now();
    if (okSince.current !== null && performance.now() - okSince.current >= FACE_OK_MS) {
      passed.current = true;
      passRef.current();
    }
  }, []);
}

/** One research: its start and end logged, its player by content type. */
function ResearchRun({
  index,
  research,
  log,
  blocked,
  onEnd,
  onLoadError,
}: {
  index: number;
  research: RespondentResearch;
  log: (event: EventInput) => void;
  blocked: boolean;
  onEnd: () => void;
  onLoadError: () => void;
}) {
  const ended = useRef(false);
  const logRef = useRef(log);
  logRef.current = log;
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;
  useEffect(() => {
    logRef.current({ type: 'research_start', campaign_id: research.campaign_id, index });
  }, [research.campaign_id, index]);
  // Stable for the research's life: the players' effects do not run again on every render.
  const end = useCallback(() => {
    if (ended.current) return;
    ended.current = true;
    logRef.current({ type: 'research_end', campaign_id: research.campaign_id });
    onEndRef.current();
  }, [research.campaign_id]);
  const props = { research, log, blocked, onEnd: end, onLoadError };
  switch (research.content_type) {
    case 'video':
      return research.video ? (
        <VideoPlayer url={research.video.url} log={log} blocked={blocked} onEnd={end} onLoadError={onLoadError} />
      ) : (
        <ContentlessPlayer {...props} />
      );
    case 'pictures':
      return <PicturesPlayer {...props} />;
    case 'shelf':
      return <ShelfPlayer {...props} />;
    case 'site':
      return <SitePlayer {...props} />;
    default:
      return <ContentlessPlayer {...props} />;
  }
}
