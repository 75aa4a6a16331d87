import type {
  Answers,
  AnswersOutput,
  Language,
  RespondentQuestionnaire,
  SessionEnd,
  SurveySlot,
} from '@emolens/contracts';
import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client.ts';
import { translateFields } from '../../i18n/messages.ts';
import { SurveyForm } from '../surveys/survey-form.tsx';
import { respondentApi } from './respondent-api.ts';

/** Answers are saved this long after the last change (a reload keeps them). */
const AUTOSAVE_MS = 1500;

/**
 * The screener or the survey of a session: the questionnaire's form in the session's language, its answers saved as
 * the respondent goes and sent once at the end. `onDone` gets the session's end when the screener screened the
 * respondent out, else null.
 */
export function QuestionnaireStep({
  sessionId,
  secret,
  slot,
  questionnaire,
  language,
  onDone,
}: {
  sessionId: string;
  secret: string;
  slot: SurveySlot;
  questionnaire: RespondentQuestionnaire;
  language: Language;
  onDone: (end: SessionEnd | null) => void;
}) {
  const { t } = useTranslation('respondent');
  const [answers, setAnswers] = useState<Answers>(questionnaire.answers);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const sent = useRef(false);
  const timer = useRef(0);

  // Saved a moment after each change; a failure is harmless (the final send carries every answer).
  useEffect(() => {
    if (answers === questionnaire.answers) return;
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      if (sent.current) return;
      respondentApi
        .answers(sessionId, secret, slot, { answers, final: false }, { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 })
        .catch(() => undefined);
    }, AUTOSAVE_MS);
    return () => window.clearTimeout(timer.current);
  }, [answers, questionnaire.answers, sessionId, secret, slot]);

  const submit = async (shown: Answers) => {
    window.clearTimeout(timer.current);
    setSending(true);
    setFailed(false);
    sent.current = true;
    let result: AnswersOutput;
    try {
      result = await respondentApi.answers(sessionId, secret, slot, { answers: shown, final: true });
    } catch (error) {
      sent.current = false;
      setSending(false);
      if (error instanceof ApiRequestError && error.status === 400) {
        // `answers.<question>` or deeper (`answers.<question>.text`): the question's own message.
        const byQuestion: Record<string, string> = {};
        for (const [path, text] of Object.entries(translateFields(error, language))) {
          const question = path.split('.')[1];
          if (question) byQuestion[question] ??= text;
        }
        setServerErrors(byQuestion);
      } else setFailed(true);
      return;
    }
    onDone(result.end);
  };

  return (
    <Paper
      withBorder
      p={{ base: 'md', sm: 'xl' }}
      radius="lg"
      maw={820}
      mx="auto"
      data-testid={`questionnaire-${slot}`}
    >
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={2}>{t(`questionnaire.${slot}.title`)}</Title>
          <Text c="dimmed">{t(`questionnaire.${slot}.text`)}</Text>
        </Stack>
        {failed && (
          <Alert color="red" data-testid="questionnaire-failed">
            {t('questionnaire.failed')}
          </Alert>
        )}
        <SurveyForm
          questions={questionnaire.questions}
          language={language}
          answers={answers}
          onAnswersChange={(next) => {
            setAnswers(next);
            setServerErrors({});
          }}
          onSubmit={submit}
          seed={sessionId}
          submitting={sending}
          serverErrors={serverErrors}
          submitLabel={t('questionnaire.next')}
        />
      </Stack>
    </Paper>
  );
}
