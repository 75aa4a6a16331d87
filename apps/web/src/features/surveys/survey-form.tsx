import {
  type Answer,
  type Answers,
  type Language,
  OTHER_OPTION,
  type Question,
  SURVEY_LIMITS,
  textIn,
  visibleQuestions,
} from '@emolens/contracts';
import {
  Box,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Radio,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import type { TFunction } from 'i18next';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../i18n/messages.ts';
import { completeProblems, shownAnswers, shuffled, withAnswer } from './survey-answers.ts';

/** Below this width (of the form itself, not the window) a matrix is a list of rows instead of a table. */
const NARROW_PX = 560;

export interface SurveyFormProps {
  questions: readonly Question[];
  /** The respondent's language: of the questions' texts and of the form's own words. */
  language: Language;
  answers: Answers;
  onAnswersChange: (answers: Answers) => void;
  /** Complete, checked answers of the shown questions only. */
  onSubmit: (answers: Answers) => void;
  /** Fixes the random order of options (a respondent's session): the same seed, the same order. */
  seed: string;
  submitting?: boolean;
  /** Problems the server found, by question id, in the respondent's language. */
  serverErrors?: Readonly<Record<string, string>>;
  submitLabel?: string;
}

/**
 * A questionnaire as the respondent sees it: the questions shown for the answers so far (display logic, by
 * `visibleQuestions`), each with its input; on submit the answers are checked by `checkAnswers` (required, ranges,
 * "other" text) and the problems shown at their questions. Used by the editor's preview and the respondent flow.
 */
export function SurveyForm({
  questions,
  language,
  answers,
  onAnswersChange,
  onSubmit,
  seed,
  submitting = false,
  serverErrors = {},
  submitLabel,
}: SurveyFormProps) {
  const { i18n } = useTranslation('surveys');
  const t = i18n.getFixedT(language, 'surveys');
  const { ref, width } = useElementSize();
  const narrow = width > 0 && width < NARROW_PX;
  const [checked, setChecked] = useState(false);

  const shown = useMemo(() => visibleQuestions(questions, answers), [questions, answers]);
  const problems = useMemo(
    () => (checked ? completeProblems(questions, answers) : new Map<string, string>()),
    [checked, questions, answers],
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    const found = completeProblems(questions, answers);
    if (found.size > 0) {
      const first = shown.find((q) => found.has(q.id));
      if (first)
        document.getElementById(questionAnchor(first.id))?.scrollIntoView({ behavior: 'smooth', block: 'center' });
      return;
    }
    onSubmit(shownAnswers(questions, answers));
  };

  let number = 0;
  return (
    <Box ref={ref} component="form" onSubmit={submit} noValidate data-testid="survey-form" lang={language}>
      <Stack gap="md">
        {shown.map((question) => {
          if (question.type !== 'info') number += 1;
          const problem = problems.get(question.id);
          const error = serverErrors[question.id] ?? (problem ? translateMessage(problem, language) : undefined);
          return (
            <QuestionBlock
              key={question.id}
              question={question}
              number={question.type === 'info' ? null : number}
              language={language}
              answer={answers[question.id]}
              onAnswer={(answer) => onAnswersChange(withAnswer(answers, question.id, answer))}
              seed={seed}
              narrow={narrow}
              error={error}
              t={t}
            />
          );
        })}
        <Group justify="flex-end">
          <Button type="submit" size="md" loading={submitting} data-testid="survey-form-submit">
            {submitLabel ?? t('form.submit')}
          </Button>
        </Group>
      </Stack>
    </Box>
  );
}

const questionAnchor = (id: string) => `survey-question-${id}`;

function QuestionBlock({
  question,
  number,
  language,
  answer,
  onAnswer,
  seed,
  narrow,
  error,
  t,
}: {
  question: Question;
  number: number | null;
  language: Language;
  answer: Answer | undefined;
  onAnswer: (answer: Answer | null) => void;
  seed: string;
  narrow: boolean;
  error: string | undefined;
  t: TFunction;
}) {
  const text = textIn(question.text, language);
  if (question.type === 'info') {
    return (
      <Paper
        id={questionAnchor(question.id)}
        radius="md"
        p="lg"
        bg="indigo.0"
        data-testid="survey-form-question"
        data-question-type="info"
      >
        <Text style={{ whiteSpace: 'pre-wrap' }}>{text}</Text>
      </Paper>
    );
  }
  const labelId = `${questionAnchor(question.id)}-label`;
  return (
    <Paper
      id={questionAnchor(question.id)}
      withBorder
      radius="md"
      p={{ base: 'md', xs: 'lg' }}
      data-testid="survey-form-question"
      data-question-type={question.type}
      style={error ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
      role="group"
      aria-labelledby={labelId}
    >
      <Stack gap="sm">
        <Group gap={8} wrap="nowrap" align="flex-start">
          <Text fw={700} c="indigo.7" miw={20}>
            {number}.
          </Text>
          <Text id={labelId} fw={600} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {text}
            {question.required && (
              <Text span c="red.6" ml={4} aria-label={t('form.required')}>
                *
              </Text>
            )}
          </Text>
        </Group>
        {question.type === 'multiple' && (
          <Text size="xs" c="dimmed">
            {t('form.chooseSeveral')}
          </Text>
        )}
        <AnswerInput
          question={question}
          language={language}
          answer={answer}
          onAnswer={onAnswer}
          seed={seed}
          narrow={narrow}
          labelId={labelId}
          t={t}
        />
        {error && (
          <Text size="sm" c="red.7" role="alert" data-testid="survey-form-error">
            {error}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function AnswerInput({
  question,
  language,
  answer,
  onAnswer,
  seed,
  narrow,
  labelId,
  t,
}: {
  question: Question;
  language: Language;
  answer: Answer | undefined;
  onAnswer: (answer: Answer | null) => void;
  seed: string;
  narrow: boolean;
  labelId: string;
  t: TFunction;
}) {
  const options = useMemo(
    () =>
      question.random_order && question.type !== 'matrix'
        ? shuffled(question.options, `${seed}:${question.id}`)
        : question.options,
    [question, seed],
  );
  const rows = useMemo(
    () => (question.random_order ? shuffled(question.rows, `${seed}:${question.id}`) : question.rows),
    [question, seed],
  );

  switch (question.type) {
    case 'single':
    case 'multiple': {
      const choices = answer && 'choices' in answer ? answer.choices : [];
      const otherText = answer && 'choices' in answer ? (answer.other_text ?? '') : '';
      const otherChosen = choices.includes(OTHER_OPTION);
      const all = [
        ...options.map((o) => ({ id: o.id, label: textIn(o.text, language) })),
        ...(question.other ? [{ id: OTHER_OPTION, label: t('form.other') }] : []),
      ];
      const set = (next: string[], other = otherText) =>
        onAnswer({
          choices: next,
          ...(next.includes(OTHER_OPTION) && other ? { other_text: other } : {}),
        });
      const otherInput = otherChosen && (
        <TextInput
          aria-label={t('form.otherSpecify')}
          placeholder={t('form.otherSpecify')}
          value={otherText}
          maxLength={SURVEY_LIMITS.answerChars}
          onChange={(event) => set(choices, event.currentTarget.value)}
          data-testid="survey-form-other-text"
        />
      );
      if (question.type === 'single') {
        return (
          <Stack gap="xs">
            <Radio.Group value={choices[0] ?? null} onChange={(value) => set([value])} aria-labelledby={labelId}>
              <Stack gap={6}>
                {all.map((o) => (
                  <Radio.Card key={o.id} value={o.id} radius="md" p="sm" data-testid="survey-form-option">
                    <Group wrap="nowrap" gap="sm">
                      <Radio.Indicator />
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {o.label}
                      </Text>
                    </Group>
                  </Radio.Card>
                ))}
              </Stack>
            </Radio.Group>
            {otherInput}
          </Stack>
        );
      }
      return (
        <Stack gap="xs">
          <Checkbox.Group value={choices} onChange={(value) => set(value)} aria-labelledby={labelId}>
            <Stack gap={6}>
              {all.map((o) => (
                <Checkbox.Card key={o.id} value={o.id} radius="md" p="sm" data-testid="survey-form-option">
                  <Group wrap="nowrap" gap="sm">
                    <Checkbox.Indicator />
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {o.label}
                    </Text>
                  </Group>
                </Checkbox.Card>
              ))}
            </Stack>
          </Checkbox.Group>
          {otherInput}
        </Stack>
      );
    }
    case 'scale':
      return (
        <ScaleInput
          question={question}
          language={language}
          value={answer && 'number' in answer ? answer.number : null}
          onChange={(value) => onAnswer(value === null ? null : { number: value })}
        />
      );
    case 'number': {
      const value = answer && 'number' in answer ? answer.number : '';
      const hint =
        question.min !== null && question.max !== null
          ? t('form.between', { min: question.min, max: question.max })
          : question.min !== null
            ? t('form.atLeast', { min: question.min })
            : question.max !== null
              ? t('form.atMost', { max: question.max })
              : undefined;
      return (
        <NumberInput
          aria-labelledby={labelId}
          description={hint}
          value={value}
          min={question.min ?? undefined}
          max={question.max ?? undefined}
          clampBehavior="none"
          maw={240}
          onChange={(next) => onAnswer(typeof next === 'number' ? { number: next } : null)}
          data-testid="survey-form-number"
        />
      );
    }
    case 'text':
      return (
        <Textarea
          aria-labelledby={labelId}
          autosize
          minRows={3}
          maxRows={10}
          maxLength={SURVEY_LIMITS.answerChars}
          value={answer && 'text' in answer ? answer.text : ''}
          onChange={(event) => onAnswer({ text: event.currentTarget.value })}
          data-testid="survey-form-text"
        />
      );
    case 'matrix': {
      const chosen = answer && 'rows' in answer ? answer.rows : {};
      const choose = (row: string, option: string) => onAnswer({ rows: { ...chosen, [row]: option } });
      if (narrow) {
        return (
          <Stack gap="md" data-testid="survey-form-matrix" data-layout="list">
            {rows.map((row) => (
              <Radio.Group
                key={row.id}
                label={textIn(row.text, language)}
                value={chosen[row.id] ?? null}
                onChange={(value) => choose(row.id, value)}
                data-testid="survey-form-matrix-row"
              >
                <Group gap="xs" mt={6}>
                  {options.map((o) => (
                    <Radio key={o.id} value={o.id} label={textIn(o.text, language)} />
                  ))}
                </Group>
              </Radio.Group>
            ))}
          </Stack>
        );
      }
      return (
        <Table.ScrollContainer minWidth={360} data-testid="survey-form-matrix" data-layout="table">
          <Table withRowBorders verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th />
                {options.map((o) => (
                  <Table.Th key={o.id} ta="center" fz="sm" fw={500}>
                    {textIn(o.text, language)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => {
                const rowLabel = textIn(row.text, language);
                return (
                  <Table.Tr key={row.id} data-testid="survey-form-matrix-row">
                    <Table.Td fz="sm">{rowLabel}</Table.Td>
                    {options.map((o) => (
                      <Table.Td key={o.id} ta="center">
                        <Radio
                          style={{ display: 'inline-block' }}
                          name={`${question.id}-${row.id}`}
                          aria-label={`${rowLabel}: ${textIn(o.text, language)}`}
                          checked={chosen[row.id] === o.id}
                          onChange={() => choose(row.id, o.id)}
                        />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      );
    }
    case 'info':
      return null;
  }
}

/** Whole steps from min to max as a row of buttons, with the end labels under the ends. */
function ScaleInput({
  question,
  language,
  value,
  onChange,
}: {
  question: Question;
  language: Language;
  value: number | null;
  onChange: (value: number | null) => void;
}) {
  const min = question.min ?? 1;
  const max = question.max ?? 5;
  const steps: number[] = [];
  for (let n = min; n <= max && steps.length < SURVEY_LIMITS.scaleSteps; n += 1) steps.push(n);
  const minLabel = textIn(question.min_label, language);
  const maxLabel = textIn(question.max_label, language);
  return (
    <Stack gap={6} data-testid="survey-form-scale">
      <Group gap={4} wrap="nowrap" role="radiogroup">
        {steps.map((n) => (
          <ScaleStep key={n} value={n} chosen={value === n} onChoose={() => onChange(value === n ? null : n)} />
        ))}
      </Group>
      {(minLabel || maxLabel) && (
        <Group justify="space-between" gap="md" wrap="nowrap">
          <Text size="xs" c="dimmed" maw="45%">
            {minLabel}
          </Text>
          <Text size="xs" c="dimmed" ta="right" maw="45%">
            {maxLabel}
          </Text>
        </Group>
      )}
    </Stack>
  );
}

function ScaleStep({ value, chosen, onChoose }: { value: number; chosen: boolean; onChoose: () => void }): ReactNode {
  return (
    <UnstyledButton
      role="radio"
      aria-checked={chosen}
      onClick={onChoose}
      data-testid="survey-form-scale-step"
      style={{
        flex: 1,
        minWidth: 0,
        height: 40,
        borderRadius: 'var(--mantine-radius-md)',
        border: `1px solid ${chosen ? 'var(--mantine-color-indigo-6)' : 'var(--mantine-color-gray-4)'}`,
        background: chosen ? 'var(--mantine-color-indigo-6)' : 'var(--mantine-color-white)',
        color: chosen ? 'var(--mantine-color-white)' : 'inherit',
        fontWeight: 600,
        textAlign: 'center',
      }}
    >
      {value}
    </UnstyledButton>
  );
}
