import {
  CONSENT_POLICY_VERSION,
  isLanguage,
  type LinkInfo,
  MTURK_PREVIEW_ASSIGNMENT,
  RESPONDENT_STEPS,
  type RespondentStep,
  type SessionEnd,
  type SessionState,
  type SurveySlot,
} from '@emolens/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiRequestError } from '../../api/client.ts';
import i18n, { currentLanguage, languageFromUrl } from '../../i18n/index.ts';
import type { CheckOutcome } from './calibration-check.ts';
import { checkDevice, fallBackToUpload, needsFaceCheck } from './device-journey.ts';
import { newDriftClock } from './drift-checkpoints.ts';
import type { EventInput } from './event-log.ts';
import { useFaceGate } from './face-gate.ts';
import { enterFullscreen, exitFullscreen } from './full-screen.tsx';
import { useBackGuard, useLeaveWarning } from './guards.tsx';
import { CALIBRATED, type Phase, panelFromQuery, pendingQuestionnaire, RECORDING, RUNNING } from './journey-plan.ts';
import { hasMediaRecorder } from './recorder.ts';
import { useRecordingJourney } from './recording-journey.tsx';
import { countTurnAway, respondentApi } from './respondent-api.ts';
import { SessionRuntime, savedSession, screenSize } from './session-runtime.ts';

/**
 * The respondent's journey from a quota link, as a state machine (spec sections 1, 2, 8, 9; design section 6):
 * the link, the consent, the camera and its face check, the screener when it comes first, the calibration (or
 * a resume), the researches with their drift checkpoints, the survey, the save and the end. The recording
 * itself (camera, event log, chunks) is `useRecordingJourney`'s and the session runtime's.
 */
export function useResearchJourney(token: string) {
  const [phase, setPhase] = useState<Phase>({ name: 'loading' });
  const [link, setLink] = useState<LinkInfo | null>(null);
  const [starting, setStarting] = useState(false);
  const [cameraLost, setCameraLost] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const runtime = useRef<SessionRuntime | null>(null);
  const state = useRef<SessionState | null>(null);
  /** The content shown since the calibration or the last drift checkpoint (decision 055). */
  const drift = useRef(newDriftClock()).current;

  const log = useCallback((event: EventInput) => runtime.current?.logEvent(event), []);
  const recording = useRecordingJourney({
    log,
    recording: RECORDING.includes(phase.name),
    onCameraLost: () => setCameraLost(true),
    onClose: () => runtime.current?.close(),
    screenRecorded: () => runtime.current?.recording ?? false,
    onPageHide: () => runtime.current?.log?.persist(),
  });
  const { stream, startCamera, releaseCamera } = recording;

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
            const calibrationFailed = session.status === 'calibration_failed';
            setPhase({ name: 'end', end: session.end, preview: session.preview, calibrationFailed });
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

  /** Consent given: the session starts (or the link tells why it cannot). */
  async function startSession(panelConsent: boolean) {
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
  }

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
    runtime.current = await SessionRuntime.open(session, secret, recording.onUpload);
    setPhase({ name: 'camera' });
    logStep('camera');
    if (!session.preview && !hasMediaRecorder()) {
      setPhase({ name: 'camera_error', kind: 'recorder' });
      return;
    }
    if (!(await startCamera())) {
      setPhase({ name: 'camera_error', kind: 'camera' });
      return;
    }
    if (needsFaceCheck(session)) {
      logStep('face_check');
      setPhase({ name: 'face_check' });
    } else afterFaceCheck();
  }

  /**
   * Privacy mode (decision 065): the face check's rate decides where the analysis runs; a device too slow is offered
   * the video upload, or stopped politely, as its research says.
   */
  async function afterDeviceCheck() {
    const rt = runtime.current;
    if (!rt || !state.current?.analysis.onDevice) return afterFaceCheck();
    let analysis: Awaited<ReturnType<typeof checkDevice>>;
    try {
      analysis = await checkDevice(rt);
    } catch (error) {
      console.error('the device check failed', error);
      setPhase({ name: 'closed', reason: 'load_error' });
      return;
    }
    state.current = { ...state.current, analysis };
    if (rt.preview || analysis.site !== 'undecided') return afterFaceCheck();
    if (analysis.slowDeviceAction === 'offer_upload') setPhase({ name: 'device_slow' });
    else await stopTooSlow();
  }

  /** The respondent chose to send the video (a research offering it): on as a video session. */
  async function uploadInstead() {
    const rt = runtime.current;
    if (!rt || !state.current) return;
    state.current = { ...state.current, analysis: await fallBackToUpload(rt) };
    afterFaceCheck();
  }

  /** A device too slow stops: the server ends the session, the page shows its end (or goes where it says). */
  async function stopTooSlow() {
    const rt = runtime.current;
    if (!rt) return;
    const end = await respondentApi.deviceTooSlow(rt.id, rt.secret);
    await endedByServer({ name: 'end', end, preview: false, deviceTooSlow: true });
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
    setPhase({ name: 'calibration', attempt: 1 });
  }

  /**
   * The validation dots are done: the server checks the calibration before any content (decision 050) when a gaze
   * research of the session asks for it; a preview records nothing, so it goes on.
   */
  function calibrated(attempt: number) {
    if (!runtime.current || runtime.current.preview || !state.current?.calibration_check) {
      logStep('content');
      showResearch(0);
      return;
    }
    setPhase({ name: 'calibration_check', attempt });
  }

  /** The check's answer: the content, the calibration once more, or the end as "calibration failed". */
  async function calibrationChecked(outcome: CheckOutcome) {
    if (outcome.next === 'repeat') {
      setPhase({ name: 'calibration_retry', attempt: outcome.attempt });
      return;
    }
    if (outcome.next === 'end') {
      await endedByServer({ name: 'end', end: outcome.end, preview: false, calibrationFailed: true });
      return;
    }
    logStep('content');
    showResearch(0);
  }

  /** The server ended the session (a screen-out, a calibration failed twice): nothing more is recorded or sent. */
  async function endedByServer(end: Extract<Phase, { name: 'end' }>) {
    const rt = runtime.current;
    await rt?.stopRecording();
    rt?.log?.seal();
    savedSession.clear(token);
    releaseCamera();
    await exitFullscreen();
    setPhase(end);
  }

  async function startRecording() {
    await enterFullscreen();
    const rt = runtime.current;
    if (rt && stream.current && !rt.preview) await rt.startRecording(stream.current, recording.monitor.current);
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
    releaseCamera();
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
      // Screened out.
      await endedByServer({ name: 'end', end, preview: session.preview });
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
    // A due drift checkpoint opens the next research with its dot, inside its window (`ResearchRun`, decision 055).
    showResearch(next);
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
    recording.setSaveFailed(false);
    setPhase({ name: 'save' });
    await rt.stopRecording();
    try {
      await rt.sendAll();
      const done = await rt.complete();
      savedSession.clear(token);
      releaseCamera();
      setPhase({ name: 'end', end: done, preview: false });
    } catch (error) {
      console.error('sending the recording failed', error);
      recording.setSaveFailed(true);
    }
  }

  /** The respondent leaves for good (or lost the camera): the session is told, nothing more is recorded. */
  async function leaveFor(reason: 'camera_lost' | 'left') {
    const rt = runtime.current;
    await rt?.stopRecording();
    rt?.log?.seal();
    if (rt && !rt.preview) await respondentApi.leave(rt.id, rt.secret, reason).catch(() => {});
    savedSession.clear(token);
    releaseCamera();
    await exitFullscreen();
  }

  const running = RUNNING.includes(phase.name);
  useLeaveWarning(running);
  useBackGuard(running, () => setLeaving(true));

  const onFaceResult = useFaceGate(
    (r) => log({ type: 'face_check', ok: r.status === 'ok', faces: Math.min(50, r.faceCount) }),
    () => void afterDeviceCheck(),
  );

  return {
    phase,
    setPhase,
    link,
    session: state.current,
    runtime: runtime.current,
    starting,
    running,
    cameraLost,
    leaving,
    setLeaving,
    recording,
    log,
    logStep,
    onFaceResult,
    startSession,
    startRecording,
    uploadInstead,
    stopTooSlow,
    calibrated,
    calibrationChecked,
    showResearch,
    nextResearch,
    drift,
    questionnaireDone,
    save,
    leaveFor,
  };
}

export type ResearchJourney = ReturnType<typeof useResearchJourney>;
