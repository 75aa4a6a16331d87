import type { SessionEnd } from '@emolens/contracts';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  List,
  Loader,
  Paper,
  Progress,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconAlertCircle,
  IconCameraOff,
  IconCheck,
  IconCircleCheck,
  IconCloudUpload,
  IconCopy,
  IconDeviceMobileRotated,
  IconHourglass,
  IconLink,
  IconPlayerPause,
  IconUsers,
} from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { FaceCheck, type FaceCheckProps } from './face-check.tsx';
import { FullScreen } from './full-screen.tsx';

/** A calm card with an icon, a title and text: the journey's notices and ends. */
export function MessageScreen({
  icon,
  color = 'blue',
  title,
  text,
  testId,
  children,
}: {
  icon: ReactNode;
  color?: string;
  title: string;
  text?: string;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <Paper withBorder p={{ base: 'lg', sm: 'xl' }} radius="lg" data-testid={testId}>
      <Stack gap="md" align="center" ta="center" py="md">
        <ThemeIcon size={64} radius="xl" variant="light" color={color}>
          {icon}
        </ThemeIcon>
        <Title order={2} data-testid="message-title">
          {title}
        </Title>
        {text && (
          <Text size="lg" maw={560} style={{ whiteSpace: 'pre-line' }}>
            {text}
          </Text>
        )}
        {children}
      </Stack>
    </Paper>
  );
}

export type ClosedReason =
  | 'invalid'
  | 'finished'
  | 'suspended'
  | 'quota_full'
  | 'load_error'
  | 'left'
  | 'ended'
  | 'already';

/** The link cannot be used now: why, in the respondent's words. */
export function ClosedScreen({ reason }: { reason: ClosedReason }) {
  const { t } = useTranslation('respondent');
  const look: Record<ClosedReason, { icon: ReactNode; color: string }> = {
    invalid: { icon: <IconLink size={34} />, color: 'red' },
    finished: { icon: <IconCircleCheck size={34} />, color: 'gray' },
    suspended: { icon: <IconPlayerPause size={34} />, color: 'orange' },
    quota_full: { icon: <IconUsers size={34} />, color: 'gray' },
    load_error: { icon: <IconAlertCircle size={34} />, color: 'red' },
    left: { icon: <IconCircleCheck size={34} />, color: 'gray' },
    ended: { icon: <IconCircleCheck size={34} />, color: 'gray' },
    already: { icon: <IconCircleCheck size={34} />, color: 'teal' },
  };
  return (
    <MessageScreen
      testId={`closed-${reason}`}
      icon={look[reason].icon}
      color={look[reason].color}
      title={t(`closed.${reason}.title`)}
      text={t(`closed.${reason}.text`)}
    >
      {reason === 'load_error' && (
        <Button size="md" onClick={() => window.location.reload()}>
          {t('common.reload')}
        </Button>
      )}
    </MessageScreen>
  );
}

/** MTurk's preview of the HIT: what the task is; nothing starts until it is accepted. */
export function MturkPreviewScreen({ title }: { title: string }) {
  const { t } = useTranslation('respondent');
  return (
    <MessageScreen testId="mturk-preview" icon={<IconHourglass size={34} />} title={title} text={t('mturk.text')}>
      <List ta="left" spacing={6} size="md">
        <List.Item>{t('mturk.step1')}</List.Item>
        <List.Item>{t('mturk.step2')}</List.Item>
        <List.Item>{t('mturk.step3')}</List.Item>
      </List>
      <Alert color="blue" radius="md" w="100%">
        <Text fw={600}>{t('mturk.accept')}</Text>
      </Alert>
    </MessageScreen>
  );
}

/** While the browser asks the respondent for the camera. */
export function CameraAskingScreen() {
  const { t } = useTranslation('respondent');
  return (
    <Paper withBorder p="xl" radius="lg" data-testid="camera-asking">
      <Stack align="center" ta="center" gap="md">
        <Loader />
        <Title order={2}>{t('camera.title')}</Title>
        <Text size="lg">{t('camera.asking')}</Text>
      </Stack>
    </Paper>
  );
}

export function CameraErrorScreen({ kind }: { kind: 'camera' | 'recorder' }) {
  const { t } = useTranslation('respondent');
  if (kind === 'recorder') {
    return (
      <MessageScreen
        testId="recorder-missing"
        icon={<IconCameraOff size={34} />}
        color="red"
        title={t('camera.recorderTitle')}
        text={t('camera.recorderText')}
      >
        <List ta="left" spacing={6} type="ordered">
          <List.Item>{t('camera.recorderIos')}</List.Item>
          <List.Item>{t('camera.recorderMac')}</List.Item>
        </List>
      </MessageScreen>
    );
  }
  return (
    <MessageScreen
      testId="camera-error"
      icon={<IconCameraOff size={34} />}
      color="red"
      title={t('camera.errorTitle')}
      text={t('camera.error')}
    >
      <Button size="md" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </Button>
    </MessageScreen>
  );
}

/** The phone is held the wrong way for this research. */
export function RotateScreen({ want }: { want: 'vertical' | 'horizontal' }) {
  const { t } = useTranslation('respondent');
  return (
    <FullScreen testId="rotate-screen" zIndex={500}>
      <Stack align="center" justify="center" h="100%" p="lg" ta="center" gap="md">
        <ThemeIcon size={80} radius="xl" variant="light">
          <IconDeviceMobileRotated size={44} />
        </ThemeIcon>
        <Title order={2}>{t('rotate.title')}</Title>
        <Text size="lg">{t(want === 'vertical' ? 'rotate.vertical' : 'rotate.horizontal')}</Text>
      </Stack>
    </FullScreen>
  );
}

/** A session that was calibrated already comes back: the recording starts again with the next research. */
export function ResumeScreen({ onContinue }: { onContinue: () => void }) {
  const { t } = useTranslation('respondent');
  return (
    <Paper withBorder p="xl" radius="lg" data-testid="resume-screen">
      <Stack align="center" ta="center" gap="md">
        <Title order={2}>{t('resume.title')}</Title>
        <Text size="lg" maw={560}>
          {t('resume.text')}
        </Text>
        <Button size="lg" data-testid="resume-continue" onClick={onContinue}>
          {t('resume.continue')}
        </Button>
      </Stack>
    </Paper>
  );
}

/** Sending the recording: progress, and the error with a retry once the retries are exhausted. */
export function SaveScreen({ progress, failed, onRetry }: { progress: number; failed: boolean; onRetry: () => void }) {
  const { t } = useTranslation('respondent');
  return (
    <MessageScreen
      testId="save-screen"
      icon={failed ? <IconAlertCircle size={34} /> : <IconCloudUpload size={34} />}
      color={failed ? 'red' : 'blue'}
      title={t(failed ? 'save.errorTitle' : 'save.title')}
      text={t(failed ? 'save.errorText' : 'save.text')}
    >
      <Progress
        value={Math.round(progress * 100)}
        size="xl"
        radius="xl"
        w="100%"
        maw={480}
        animated={!failed}
        color={failed ? 'red' : 'blue'}
        data-testid="save-progress"
        aria-label={t('save.title')}
      />
      <Text c="dimmed" size="sm">
        {t('save.percent', { percent: Math.round(progress * 100) })}
      </Text>
      {failed && (
        <Button size="md" onClick={onRetry} data-testid="save-retry">
          {t('save.retry')}
        </Button>
      )}
    </MessageScreen>
  );
}

/** The end: the code to copy, or the way on to the panel (redirect or MTurk's form). */
export function EndScreen({
  end,
  preview,
  calibrationFailed = false,
  deviceTooSlow = false,
}: {
  end: SessionEnd | null;
  preview: boolean;
  /** Ended before the content: the calibration failed its check twice (decision 050). */
  calibrationFailed?: boolean;
  /** Ended before the recording: the device analyses too slowly to keep the video on it (decision 065). */
  deviceTooSlow?: boolean;
}) {
  const { t } = useTranslation('respondent');
  const form = useRef<HTMLFormElement>(null);
  const redirect = end?.redirect_url ?? null;
  const mturk = end?.mturk ?? null;

  useEffect(() => {
    if (mturk) form.current?.submit();
    else if (redirect) window.location.assign(redirect);
  }, [redirect, mturk]);

  if (preview) {
    return (
      <MessageScreen
        testId="end-preview"
        icon={<IconCheck size={34} />}
        title={t('end.previewTitle')}
        text={t('end.previewText')}
      />
    );
  }
  const quotaFull = end?.outcome === 'quota_full';
  // An end before the content has its own words: the calibration failed, or the device is too slow.
  const early = calibrationFailed ? 'calibrationFailed' : deviceTooSlow ? 'deviceTooSlow' : null;
  const title = early
    ? `end.${early}Title`
    : quotaFull
      ? 'end.quotaFullTitle'
      : end?.outcome === 'screen_out'
        ? 'end.screenOutTitle'
        : 'end.title';
  const text = early
    ? redirect || mturk
      ? `end.${early}Redirecting`
      : end?.code
        ? `end.${early}CodeText`
        : `end.${early}Text`
    : redirect || mturk
      ? 'end.redirecting'
      : end?.code
        ? 'end.codeText'
        : 'end.text';
  return (
    <MessageScreen
      testId={calibrationFailed ? 'end-calibration-failed' : deviceTooSlow ? 'end-device-too-slow' : 'end-screen'}
      icon={<IconCircleCheck size={34} />}
      color="teal"
      title={t(title)}
      text={t(text)}
    >
      {end?.code && !redirect && !mturk && (
        <Stack gap="xs" w="100%" maw={560} align="center">
          {/* The short code (two groups of seven, no look-alike characters): read and typed on a phone. */}
          <Code
            block
            data-testid="completion-code"
            ta="center"
            style={{
              // One line on any phone: 26 px on a wide screen, down to 16 px at 280 px.
              fontSize: 'clamp(16px, 5.8vw, 26px)',
              fontWeight: 700,
              letterSpacing: '0.12em',
              whiteSpace: 'nowrap',
              width: '100%',
            }}
          >
            {end.code}
          </Code>
          <CopyButton value={end.code}>
            {({ copied, copy }) => (
              <Button
                size="md"
                color={copied ? 'teal' : 'blue'}
                leftSection={copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                onClick={copy}
                data-testid="copy-code"
              >
                {t(copied ? 'end.copied' : 'end.copy')}
              </Button>
            )}
          </CopyButton>
        </Stack>
      )}
      {redirect && (
        <Group>
          <Button component="a" href={redirect} variant="light">
            {t('end.continue')}
          </Button>
        </Group>
      )}
      {mturk && (
        <form ref={form} method="POST" action={mturk.action} data-testid="mturk-form">
          <input type="hidden" name="assignmentId" value={mturk.assignment_id} />
          {/* The signed completion token goes into the assignment's answer, where the acceptance check reads it. */}
          {end?.token && <input type="hidden" name="completion_code" value={end.token} />}
          <Button type="submit" variant="light">
            {t('end.continue')}
          </Button>
        </form>
      )}
    </MessageScreen>
  );
}

/** The face check as a step of a flow: its title above the live check. */
export function FaceCheckStep(props: FaceCheckProps) {
  const { t } = useTranslation('respondent');
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="lg" data-testid="face-check-step">
      <Stack gap="md">
        <Title order={2}>{t('faceCheck.title')}</Title>
        <FaceCheck {...props} />
      </Stack>
    </Paper>
  );
}
