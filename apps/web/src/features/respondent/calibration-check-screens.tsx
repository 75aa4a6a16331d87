import { Button, Progress, Text } from '@mantine/core';
import { IconEye, IconRefresh } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CheckOutcome, checkCalibration } from './calibration-check.ts';
import { MessageScreen } from './message-screens.tsx';
import type { SessionRuntime } from './session-runtime.ts';

/**
 * The wait after the validation dots (decision 050): the recording so far is sent and the server measures the
 * calibration; the respondent sees what is happening and how far it is.
 */
export function CalibrationCheckStep({
  runtime,
  attempt,
  onResult,
}: {
  runtime: SessionRuntime;
  attempt: number;
  onResult: (outcome: CheckOutcome) => void;
}) {
  const { t } = useTranslation('respondent');
  const [percent, setPercent] = useState(0);
  const onResultRef = useRef(onResult);
  onResultRef.current = onResult;

  useEffect(() => {
    let cancelled = false;
    void checkCalibration(runtime, attempt, setPercent, () => cancelled).then((outcome) => {
      if (!cancelled) onResultRef.current(outcome);
    });
    return () => {
      cancelled = true;
    };
  }, [runtime, attempt]);

  return (
    <MessageScreen
      testId="calibration-check"
      icon={<IconEye size={34} />}
      title={t('calibrationCheck.title')}
      text={t('calibrationCheck.text')}
    >
      <Progress
        value={Math.max(3, percent)}
        size="xl"
        radius="xl"
        w="100%"
        maw={480}
        animated
        data-testid="calibration-check-progress"
        aria-label={t('calibrationCheck.title')}
      />
      <Text c="dimmed" size="sm">
        {t('calibrationCheck.percent', { percent })}
      </Text>
    </MessageScreen>
  );
}

/** The first check failed: why, and the calibration once more. */
export function CalibrationRetryScreen({ onRetry }: { onRetry: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const { t } = useTranslation('respondent');
  return (
    <MessageScreen
      testId="calibration-retry"
      icon={<IconRefresh size={34} />}
      color="orange"
      title={t('calibrationCheck.retryTitle')}
      text={t('calibrationCheck.retryText')}
    >
      <Button
        size="lg"
        loading={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await onRetry();
          } finally {
            setBusy(false);
          }
        }}
        data-testid="calibration-retry-start"
      >
        {t('calibrationCheck.retry')}
      </Button>
    </MessageScreen>
  );
}
