import { DOT_TEST_LIMITS, type DotTestState } from '@emolens/contracts';
import {
  Alert,
  Button,
  Checkbox,
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
import { IconAlertCircle, IconCamera, IconChartDots3, IconEye } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The check's steps as its first screen lists them. */
const STEPS = [
  ['camera', IconCamera],
  ['calibration', IconEye],
  ['result', IconChartDots3],
] as const;

/** The check's first screen: what it does, the consent to a short recording, the start. */
export function Intro({
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
          {STEPS.map(([step, Icon]) => (
            <List.Item
              key={step}
              icon={
                <ThemeIcon variant="light" radius="xl" size={32}>
                  <Icon size={18} />
                </ThemeIcon>
              }
            >
              {t(`dotTest.steps.${step}`)}
            </List.Item>
          ))}
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

/** The analysis runs: its progress. */
export function Processing({ state }: { state: DotTestState }) {
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
