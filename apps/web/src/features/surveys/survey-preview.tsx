import {
  type Answers,
  LANGUAGES,
  type Language,
  type Question,
  type SurveyType,
  screenerOutcome,
  textIn,
} from '@emolens/contracts';
import { Alert, Box, Button, Group, Modal, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCircleCheck, IconDeviceDesktop, IconDeviceMobile, IconDoorExit, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES } from '../../components/language-switcher.tsx';
import type { SurveyDraft } from './survey-draft.ts';
import { missingCounts } from './survey-draft.ts';
import { SurveyForm } from './survey-form.tsx';

type Device = 'desktop' | 'phone';
const WIDTHS: Record<Device, number> = { desktop: 960, phone: 390 };

/**
 * The questionnaire as a respondent sees it (the draft, saved or not), at a desktop's or a phone's width, in any
 * respondent language. Answers go nowhere: a submit shows whether they are complete and, for a screener, the
 * outcome they would have.
 */
export function SurveyPreview({
  opened,
  onClose,
  draft,
  type,
  initialLanguage,
}: {
  opened: boolean;
  onClose: () => void;
  draft: SurveyDraft;
  type: SurveyType;
  initialLanguage: Language;
}) {
  const { t } = useTranslation('surveys');
  const [device, setDevice] = useState<Device>('desktop');
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const [answers, setAnswers] = useState<Answers>({});
  const [result, setResult] = useState<Answers | null>(null);
  // A new seed per run: "start again" shows another random order, as another respondent would see it.
  const [run, setRun] = useState(1);
  const missing = missingCounts(draft);
  const onPhone = useMediaQuery('(max-width: 440px)') === true;

  const restart = () => {
    setAnswers({});
    setResult(null);
    setRun((n) => n + 1);
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      fullScreen
      title={t('preview.title', { title: draft.title })}
      styles={{ body: { background: 'var(--mantine-color-gray-1)', minHeight: 'calc(100dvh - 60px)' } }}
      data-testid="survey-preview"
    >
      <Stack gap="md" pt="md">
        <Group justify="center" gap="md" wrap="wrap">
          <SegmentedControl
            value={device}
            onChange={(value) => setDevice(value === 'phone' ? 'phone' : 'desktop')}
            data={[
              {
                value: 'desktop',
                label: (
                  <Group gap={6} wrap="nowrap">
                    <IconDeviceDesktop size={16} />
                    {t('preview.desktop')}
                  </Group>
                ),
              },
              {
                value: 'phone',
                label: (
                  <Group gap={6} wrap="nowrap">
                    <IconDeviceMobile size={16} />
                    {t('preview.phone')}
                  </Group>
                ),
              },
            ]}
            data-testid="preview-device"
          />
          <SegmentedControl
            value={language}
            onChange={(value) => setLanguage(LANGUAGES.find((l) => l === value) ?? language)}
            data={LANGUAGES.map((l) => ({ value: l, label: l.toUpperCase() }))}
            aria-label={t('preview.language')}
            data-testid="preview-language"
          />
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            onClick={restart}
            data-testid="preview-restart"
          >
            {t('preview.restart')}
          </Button>
        </Group>
        {missing[language] > 0 && (
          <Text size="sm" c="orange.8" ta="center" data-testid="preview-missing">
            {t('preview.missing', { count: missing[language], language: LANGUAGE_NAMES[language] })}
          </Text>
        )}
        <Box
          mx="auto"
          w="100%"
          maw={WIDTHS[device]}
          p={device === 'phone' ? 'sm' : { base: 'sm', sm: 'xl' }}
          bg="white"
          data-testid="preview-frame"
          data-device={device}
          style={{
            borderRadius: device === 'phone' && !onPhone ? 28 : 'var(--mantine-radius-lg)',
            // On a phone itself the window is the phone: no drawn frame to take its room.
            border:
              device === 'phone' && !onPhone
                ? '10px solid var(--mantine-color-dark-7)'
                : '1px solid var(--mantine-color-gray-3)',
            boxShadow: 'var(--mantine-shadow-md)',
            transition: 'max-width 200ms ease',
          }}
        >
          {draft.questions.length === 0 ? (
            <Text c="dimmed" ta="center" py="xl">
              {t('preview.empty')}
            </Text>
          ) : result ? (
            <PreviewResult
              type={type}
              questions={draft.questions}
              answers={result}
              language={language}
              onRestart={restart}
            />
          ) : (
            <Stack gap="lg">
              <Title order={3} size="h4" lang={language}>
                {draft.title}
              </Title>
              <SurveyForm
                key={run}
                questions={draft.questions}
                language={language}
                answers={answers}
                onAnswersChange={setAnswers}
                onSubmit={setResult}
                seed={`preview-${run}`}
              />
            </Stack>
          )}
        </Box>
      </Stack>
    </Modal>
  );
}

function PreviewResult({
  type,
  questions,
  answers,
  language,
  onRestart,
}: {
  type: SurveyType;
  questions: readonly Question[];
  answers: Answers;
  language: Language;
  onRestart: () => void;
}) {
  const { t } = useTranslation('surveys');
  const outcome = type === 'screener' ? screenerOutcome(questions, answers) : null;
  const optionText = (questionId: string, optionId: string) => {
    const question = questions.find((q) => q.id === questionId);
    return textIn(question?.options.find((o) => o.id === optionId)?.text, language);
  };
  return (
    <Stack gap="md" data-testid="preview-result">
      <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} title={t('preview.completeTitle')}>
        {t('preview.completeText')}
      </Alert>
      {outcome?.outcome === 'dropout' && (
        <Alert
          color="red"
          variant="light"
          icon={<IconDoorExit size={18} />}
          title={t('preview.dropoutTitle')}
          data-testid="preview-outcome"
          data-outcome="dropout"
        >
          {t('preview.dropoutText')}
        </Alert>
      )}
      {outcome?.outcome === 'pass' && (
        <Alert
          color="indigo"
          variant="light"
          title={t('preview.passTitle')}
          data-testid="preview-outcome"
          data-outcome="pass"
        >
          {outcome.quotas.length === 0 ? (
            t('preview.passText')
          ) : (
            <Stack gap={4}>
              <Text size="sm">{t('preview.passQuotas')}</Text>
              {outcome.quotas.map((quota) => (
                <Text key={`${quota.question}:${quota.option}`} size="sm">
                  · {optionText(quota.question, quota.option)} — {quota.share}%
                </Text>
              ))}
            </Stack>
          )}
        </Alert>
      )}
      <Group>
        <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={onRestart}>
          {t('preview.restart')}
        </Button>
      </Group>
    </Stack>
  );
}
