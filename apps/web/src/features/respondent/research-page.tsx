import { Center, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { currentLanguage } from '../../i18n/index.ts';
import { Calibration, Checkpoint } from './calibration.tsx';
import { CalibrationCheckStep, CalibrationRetryScreen } from './calibration-check-screens.tsx';
import { ConsentScreen } from './consent-screen.tsx';
import { analysedOnDevice } from './device-journey.ts';
import { DeviceSlowScreen } from './device-screens.tsx';
import { allowUnload, CameraLostDialog, LeaveDialog, useWrongOrientation } from './guards.tsx';
import { DOT_PHASES, GUIDED_PHASES } from './live-guidance.ts';
import { LiveGuidance } from './live-guidance-notice.tsx';
import {
  CameraAskingScreen,
  CameraErrorScreen,
  ClosedScreen,
  EndScreen,
  FaceCheckStep,
  MturkPreviewScreen,
  ResumeScreen,
  RotateScreen,
  SaveScreen,
} from './message-screens.tsx';
import { QuestionnaireStep } from './questionnaire-step.tsx';
import { CameraMonitor } from './recording-journey.tsx';
import { type ResearchJourney, useResearchJourney } from './research-journey.ts';
import { ResearchRun } from './research-run.tsx';

/** The respondent's journey from a quota link (spec sections 1, 2, 8, 9; design section 6): `useResearchJourney` runs it. */
export function ProjectResearchPage() {
  const { t } = useTranslation('respondent');
  const { linkId: token = '' } = useParams();
  const journey = useResearchJourney(token);
  const { phase, link, session, running, cameraLost, leaving } = journey;
  const research = phase.name === 'content' ? session?.researches[phase.index] : undefined;
  const wrongOrientation = useWrongOrientation(research?.orientation ?? link?.orientation ?? 'all');
  const blocked = cameraLost || leaving || wrongOrientation !== null;
  const restart = () => {
    allowUnload();
    window.location.reload();
  };

  return (
    <>
      {link?.state === 'preview' && phase.name !== 'consent' && phase.name !== 'end' && (
        <Text ta="center" c="orange.8" fw={600} mb="sm" data-testid="preview-banner">
          {t('preview.banner')}
        </Text>
      )}
      <JourneyStep journey={journey} blocked={blocked} />
      <CameraMonitor monitor={journey.recording.monitor} />
      <LiveGuidance
        video={journey.recording.monitor}
        active={
          (session?.use_face_checker || (journey.runtime?.onDevice ?? false)) && GUIDED_PHASES.includes(phase.name)
        }
        device={journey.runtime?.onDevice ?? false}
        compact={DOT_PHASES.includes(phase.name)}
        log={journey.log}
      />
      {wrongOrientation && running && <RotateScreen want={wrongOrientation} />}
      {cameraLost && (
        <CameraLostDialog
          onRestart={restart}
          onTimeout={async () => {
            await journey.leaveFor('camera_lost');
            allowUnload();
            window.location.replace(window.location.href);
          }}
        />
      )}
      {leaving && (
        <LeaveDialog
          onStay={() => journey.setLeaving(false)}
          onRestart={restart}
          onLeave={async () => {
            journey.setLeaving(false);
            await journey.leaveFor('left');
            journey.setPhase({ name: 'closed', reason: 'left' });
          }}
        />
      )}
    </>
  );
}

/** What the journey shows at its phase. */
function JourneyStep({ journey, blocked }: { journey: ResearchJourney; blocked: boolean }) {
  const { phase, link, session, recording, log } = journey;
  switch (phase.name) {
    case 'loading':
      return (
        <Center py={120}>
          <Loader />
        </Center>
      );
    case 'closed':
      return <ClosedScreen reason={phase.reason} />;
    case 'mturk_preview':
      return <MturkPreviewScreen title={link?.project_title ?? ''} />;
    case 'consent':
      return (
        link && (
          <ConsentScreen
            link={link}
            starting={journey.starting}
            onStart={(panelConsent) => void journey.startSession(panelConsent)}
          />
        )
      );
    case 'camera':
      return <CameraAskingScreen />;
    case 'camera_error':
      return <CameraErrorScreen kind={phase.kind} />;
    case 'face_check':
      return (
        <FaceCheckStep
          stream={recording.stream.current ?? undefined}
          onResult={journey.onFaceResult}
          device={session && analysedOnDevice(session) ? { fps: session.analysis.fps } : null}
        />
      );
    case 'device_slow':
      return <DeviceSlowScreen onUpload={journey.uploadInstead} onStop={journey.stopTooSlow} />;
    case 'calibration':
      return (
        <Calibration
          key={phase.attempt}
          seconds={session?.calibration_seconds ?? link?.calibration_seconds ?? 34}
          log={log}
          onBegin={journey.startRecording}
          onDone={() => journey.calibrated(phase.attempt)}
          begun={phase.attempt > 1}
        />
      );
    case 'calibration_check':
      return (
        journey.runtime && (
          <CalibrationCheckStep
            runtime={journey.runtime}
            attempt={phase.attempt}
            onResult={(outcome) => void journey.calibrationChecked(outcome)}
          />
        )
      );
    case 'calibration_retry':
      return (
        <CalibrationRetryScreen
          onRetry={async () => {
            // The respondent's click: full screen again, if it was left (the recording runs on).
            await journey.startRecording();
            journey.setPhase({ name: 'calibration', attempt: phase.attempt });
          }}
        />
      );
    case 'resume':
      return (
        <ResumeScreen
          onContinue={async () => {
            await journey.startRecording();
            journey.setPhase({ name: 'checkpoint', next: session?.research_index ?? 0 });
          }}
        />
      );
    case 'checkpoint':
      return <Checkpoint log={log} onDone={() => journey.showResearch(phase.next)} />;
    case 'content': {
      const research = session?.researches[phase.index];
      return (
        research && (
          <ResearchRun
            key={phase.index}
            index={phase.index}
            research={research}
            log={log}
            blocked={blocked}
            onEnd={() => journey.nextResearch(phase.index)}
            drift={journey.drift}
            onLoadError={() => journey.setPhase({ name: 'closed', reason: 'load_error' })}
          />
        )
      );
    }
    case 'questionnaire': {
      const questionnaire = session?.surveys[phase.slot];
      const rt = journey.runtime;
      return (
        session &&
        questionnaire &&
        rt && (
          <QuestionnaireStep
            key={phase.slot}
            sessionId={rt.id}
            secret={rt.secret}
            slot={phase.slot}
            questionnaire={questionnaire}
            language={currentLanguage()}
            onDone={(end) => void journey.questionnaireDone(phase.slot, phase.next, end)}
          />
        )
      );
    }
    case 'save':
      return (
        <SaveScreen
          progress={recording.uploadProgress}
          failed={recording.saveFailed}
          onRetry={() => {
            recording.setSaveFailed(false);
            void journey.save();
          }}
        />
      );
    case 'end':
      return (
        <EndScreen
          end={phase.end}
          preview={phase.preview}
          calibrationFailed={phase.calibrationFailed}
          deviceTooSlow={phase.deviceTooSlow}
        />
      );
  }
}
