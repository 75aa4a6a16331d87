import {
  DOT_TEST_THRESHOLDS,
  type DotTestResult,
  type DotTestState,
  type DotTestVerdict,
  type ProcessErrorCode,
} from '@emolens/contracts';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { GazeDegrees } from '../../components/gaze-degrees.tsx';
import { GazePrecisionFigure } from '../../components/gaze-precision.tsx';
import { formatFixed } from '../../i18n/format.ts';
import { translateMessage } from '../../i18n/messages.ts';
import { AccuracyDrawing } from './accuracy-drawing.tsx';

const VERDICT_COLOR: Record<DotTestVerdict, string> = { good: 'teal', fair: 'yellow', poor: 'red' };

/** The measured accuracy with its verdict and drawing, or why the analysis failed; a retry either way. */
export function ResultView({ state, onRetry }: { state: DotTestState; onRetry: () => void }) {
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
  const number = (value: number, digits = 0) => formatFixed(value, digits, i18n.language);
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
                <GazeDegrees
                  degrees={result.accuracy_degrees}
                  distanceCm={result.distance_cm}
                  size="lg"
                  testId="dot-test-accuracy-degrees"
                />
                <GazePrecisionFigure
                  pixels={result.precision_px}
                  percent={result.precision_percent}
                  degrees={result.precision_degrees}
                  distanceCm={result.distance_cm}
                  size="md"
                  testId="dot-test-precision"
                />
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
