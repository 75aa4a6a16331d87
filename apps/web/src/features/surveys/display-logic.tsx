import {
  type Condition,
  type ConditionOperator,
  conditionOperators,
  type Language,
  OTHER_OPTION,
  type Question,
  SURVEY_LIMITS,
  textIn,
} from '@emolens/contracts';
import { Button, Group, SegmentedControl, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconGitBranch, IconInfoCircle, IconPlus, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TipIconButton } from '../../components/tip-icon-button.tsx';
import { DraftNumberInput } from './localized-input.tsx';
import type { QuestionFieldsProps } from './question-answers.tsx';
import { conditionOn, conditionTargets } from './survey-draft.ts';

/** How a question is named in a list of questions: its number and the start of its text. */
export function questionLabel(question: Question, index: number, language: Language, untitled: string): string {
  const text = textIn(question.text, language).replace(/\s+/g, ' ');
  const short = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  return `${index + 1}. ${short || untitled}`;
}

/**
 * A question's display logic: conditions on earlier questions (each with its operator and value), combined by
 * AND (all) or OR (any). Without conditions the question is always shown.
 */
export function DisplayLogic({
  question,
  index,
  questions,
  language,
  readOnly,
  dispatch,
  errorAt,
}: QuestionFieldsProps & { questions: readonly Question[] }) {
  const { t } = useTranslation('surveys');
  const targets = conditionTargets(questions, index);
  const at = `questions.${index}.conditions`;
  const canAdd = !readOnly && targets.length > 0 && question.conditions.length < SURVEY_LIMITS.conditions;
  const conditions = question.conditions;

  // The first question that takes an answer has nothing to refer to: it says so instead of offering a button.
  const addButton =
    readOnly || targets.length === 0 ? null : (
      <Button
        size="xs"
        variant="subtle"
        leftSection={<IconPlus size={14} />}
        disabled={!canAdd}
        onClick={() => dispatch({ type: 'addCondition', id: question.id })}
        data-testid="condition-add"
      >
        {t('logic.add')}
      </Button>
    );

  return (
    <Stack gap="xs" data-testid="display-logic">
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Group gap={6} wrap="nowrap" align="flex-start">
          <IconGitBranch
            size={16}
            color="var(--mantine-color-dimmed)"
            aria-hidden
            style={{ marginTop: 2, flexShrink: 0 }}
          />
          <Text size="sm">
            <Text span fw={600} inherit>
              {t('logic.title')}
            </Text>
            {conditions.length === 0 && (
              <Text span c="dimmed" inherit>
                {' · '}
                {t('logic.always')}
              </Text>
            )}
          </Text>
          {conditions.length === 0 && targets.length === 0 && !readOnly && (
            <Tooltip label={t('logic.noEarlier')} withArrow multiline w={260}>
              <IconInfoCircle
                size={14}
                color="var(--mantine-color-dimmed)"
                aria-label={t('logic.noEarlier')}
                style={{ marginTop: 3, flexShrink: 0 }}
              />
            </Tooltip>
          )}
        </Group>
        {conditions.length === 0 && addButton}
      </Group>
      {conditions.length > 0 && (
        <>
          <Group gap="xs" wrap="wrap">
            <Text size="sm">{t('logic.showWhen')}</Text>
            {conditions.length > 1 && (
              <SegmentedControl
                size="xs"
                value={question.logic_operator}
                readOnly={readOnly}
                onChange={(value) =>
                  dispatch({
                    type: 'setQuestionFlags',
                    id: question.id,
                    flags: { logic_operator: value === 'or' ? 'or' : 'and' },
                  })
                }
                data={[
                  { value: 'and', label: t('logic.and') },
                  { value: 'or', label: t('logic.or') },
                ]}
                data-testid="logic-operator"
              />
            )}
          </Group>
          {conditions.map((condition, ci) => (
            <ConditionRow
              // Conditions have no ids; their place is who they are.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={ci}
              condition={condition}
              joiner={ci === 0 ? null : question.logic_operator}
              targets={targets}
              questions={questions}
              language={language}
              readOnly={readOnly}
              onChange={(next) => dispatch({ type: 'setCondition', id: question.id, index: ci, condition: next })}
              onRemove={() => dispatch({ type: 'removeCondition', id: question.id, index: ci })}
              errors={{
                question: errorAt(`${at}.${ci}.question`),
                operator: errorAt(`${at}.${ci}.operator`),
                value: errorAt(`${at}.${ci}.value`),
              }}
            />
          ))}
          <Group>{addButton}</Group>
        </>
      )}
      {errorAt(at) && (
        <Text size="sm" c="red.7">
          {errorAt(at)}
        </Text>
      )}
    </Stack>
  );
}

/** One condition: its question (of `targets`), operator and value; `joiner` says how it joins the one before. */
export function ConditionRow({
  condition,
  joiner,
  targets,
  questions,
  language,
  readOnly,
  onChange,
  onRemove,
  errors,
}: {
  condition: Condition;
  joiner: 'and' | 'or' | null;
  targets: Question[];
  questions: readonly Question[];
  language: Language;
  readOnly: boolean;
  onChange: (condition: Condition) => void;
  onRemove: () => void;
  errors: { question?: string; operator?: string; value?: string };
}) {
  const { t } = useTranslation('surveys');
  const target = questions.find((q) => q.id === condition.question);
  const operators = target ? conditionOperators(target.type) : [];
  const untitled = t('logic.untitled');

  const questionData = targets.map((q) => ({
    value: q.id,
    label: questionLabel(q, questions.indexOf(q), language, untitled),
  }));
  // A condition on a question that is not (or no longer) earlier still shows what it refers to.
  if (target && !targets.includes(target)) {
    questionData.push({
      value: target.id,
      label: questionLabel(target, questions.indexOf(target), language, untitled),
    });
  }

  return (
    <Group gap="xs" align="flex-start" wrap="nowrap" data-testid="condition-row">
      <Text size="xs" c="dimmed" fw={700} tt="uppercase" w={40} pt={9} ta="right" style={{ flexShrink: 0 }}>
        {joiner ? t(`logic.joiner.${joiner}`) : t('logic.if')}
      </Text>
      {/* The question takes a line of its own when the three do not fit in one. */}
      <Group gap="xs" align="flex-start" wrap="wrap" style={{ flex: 1, minWidth: 0 }}>
        <Select
          aria-label={t('logic.question')}
          data={questionData}
          value={target ? target.id : null}
          placeholder={t('logic.question')}
          readOnly={readOnly}
          allowDeselect={false}
          error={errors.question}
          onChange={(id) => {
            const next = questions.find((q) => q.id === id);
            if (next) onChange(conditionOn(next));
          }}
          style={{ flex: '2 1 240px', minWidth: 0 }}
          comboboxProps={{ withinPortal: true }}
          data-testid="condition-question"
        />
        <Select
          aria-label={t('logic.operator')}
          data={operators.map((op) => ({ value: op, label: t(`logic.operators.${op}`) }))}
          value={condition.operator}
          readOnly={readOnly}
          allowDeselect={false}
          error={errors.operator}
          onChange={(op) => {
            if (!op) return;
            const operator = op as ConditionOperator;
            const keepsValue = isChoiceOperator(operator) === isChoiceOperator(condition.operator);
            onChange({
              ...condition,
              operator,
              value: operator === 'answered' || !keepsValue ? null : condition.value,
            });
          }}
          style={{ flex: '1 1 140px', minWidth: 0 }}
          comboboxProps={{ withinPortal: true }}
          data-testid="condition-operator"
        />
        {target && condition.operator !== 'answered' && (
          <ConditionValue
            condition={condition}
            target={target}
            language={language}
            readOnly={readOnly}
            error={errors.value}
            onChange={(value) => onChange({ ...condition, value })}
          />
        )}
      </Group>
      {!readOnly && (
        <TipIconButton label={t('logic.remove')} color="gray" mt={4} onClick={onRemove} testId="condition-remove">
          <IconX size={16} />
        </TipIconButton>
      )}
    </Group>
  );
}

const isChoiceOperator = (op: ConditionOperator) => op === 'selected' || op === 'not_selected';

function ConditionValue({
  condition,
  target,
  language,
  readOnly,
  error,
  onChange,
}: {
  condition: Condition;
  target: Question;
  language: Language;
  readOnly: boolean;
  error: string | undefined;
  onChange: (value: string | number | null) => void;
}) {
  const { t } = useTranslation('surveys');
  if (isChoiceOperator(condition.operator)) {
    const optionLabel = (text: Question['options'][number]['text'], n: number) =>
      textIn(text, language) || t('logic.optionNumber', { number: n + 1 });
    const data =
      target.type === 'matrix'
        ? target.rows.map((row, ri) => ({
            group: textIn(row.text, language) || t('logic.rowNumber', { number: ri + 1 }),
            items: target.options.map((o, oi) => ({ value: `${row.id}:${o.id}`, label: optionLabel(o.text, oi) })),
          }))
        : [
            ...target.options.map((o, oi) => ({ value: o.id, label: optionLabel(o.text, oi) })),
            ...(target.other ? [{ value: OTHER_OPTION, label: t('form.other') }] : []),
          ];
    return (
      <Select
        aria-label={t('logic.value')}
        placeholder={t('logic.chooseOption')}
        data={data}
        value={typeof condition.value === 'string' ? condition.value : null}
        readOnly={readOnly}
        allowDeselect={false}
        error={error}
        onChange={(value) => onChange(value)}
        style={{ flex: '1 1 140px', minWidth: 0 }}
        comboboxProps={{ withinPortal: true }}
        data-testid="condition-value"
      />
    );
  }
  return (
    <DraftNumberInput
      aria-label={t('logic.value')}
      placeholder={t('logic.number')}
      value={typeof condition.value === 'number' ? condition.value : null}
      onChange={onChange}
      readOnly={readOnly}
      error={error}
      style={{ flex: '1 1 110px', minWidth: 0 }}
      data-testid="condition-value"
    />
  );
}
