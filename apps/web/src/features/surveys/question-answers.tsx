// A question's answers in the editor (question-card.tsx): its choices or matrix rows and columns, or its range.
import {
  type Language,
  OPTION_RULES,
  type OptionRule,
  type Question,
  quotaShareSum,
  SEXES,
  type Sex,
  SURVEY_LIMITS,
  type SurveyType,
} from '@emolens/contracts';
import { Badge, Button, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { SortableList } from '../../components/sortable-list.tsx';
import { TipIconButton } from '../../components/tip-icon-button.tsx';
import { DraftNumberInput, LocalizedInput } from './localized-input.tsx';
import { type ItemList, isChoice, type SurveyAction } from './survey-draft.ts';

/** Pass is the quiet default; the rules that act stand out. */
const RULE_COLORS: Record<OptionRule, string | undefined> = { pass: undefined, dropout: 'red', quota: 'teal' };

/** What the question card hands each group of its fields (the answers' here, the display logic's). */
export interface QuestionFieldsProps {
  question: Question;
  index: number;
  language: Language;
  readOnly: boolean;
  dispatch: (action: SurveyAction) => void;
  errorAt: (path: string) => string | undefined;
}

/** Choices (or a matrix's rows or columns): their texts, order and, in a screener, their rules. */
export function ItemsEditor({
  question: q,
  index,
  list,
  title,
  surveyType,
  language,
  readOnly,
  dispatch,
  errorAt,
}: QuestionFieldsProps & { list: ItemList; title: string; surveyType: SurveyType }) {
  const { t } = useTranslation('surveys');
  const at = `questions.${index}.${list}`;
  const items = q[list];
  const withRules = surveyType === 'screener' && list === 'options' && isChoice(q.type);
  const limit = list === 'rows' ? SURVEY_LIMITS.rows : SURVEY_LIMITS.options;
  const kind = list === 'rows' ? 'row' : 'option';
  /** How the items are named: a matrix's options are its columns. */
  const words = list === 'rows' ? 'row' : q.type === 'matrix' ? 'column' : 'option';
  const quota = withRules && q.options.some((o) => o.rule === 'quota');
  const sum = quotaShareSum(q);
  const listError = errorAt(at);
  const move = (from: number, to: number) => dispatch({ type: 'moveItem', id: q.id, list, from, to });

  return (
    <Stack gap={6} data-testid={`${kind}-editor`}>
      <Text size="sm" fw={500}>
        {title}
      </Text>
      <SortableList
        items={items}
        getId={(item) => item.id}
        texts={kind}
        valuesOf={(_, i) => ({ number: i + 1 })}
        editable={!readOnly}
        gap={6}
        testId={kind}
        onMove={move}
      >
        {(item, i, row) => {
          const option = list === 'options' ? q.options[i] : undefined;
          return (
            <Paper {...row.props} radius="sm" p={4} bg="transparent" data-testid={`${kind}-row`}>
              <Group gap={6} wrap="wrap" align="flex-start">
                <Group gap={4} wrap="nowrap" align="flex-start" style={{ flex: '1 1 240px', minWidth: 0 }}>
                  <div style={{ paddingTop: 4 }}>{row.handle}</div>
                  <div style={{ flex: 1, minWidth: 0 }}>
                    <LocalizedInput
                      ariaLabel={t(`question.${words}Label`, { number: i + 1 })}
                      placeholder={t(`question.${words}Label`, { number: i + 1 })}
                      value={item.text}
                      language={language}
                      maxLength={SURVEY_LIMITS.optionChars}
                      readOnly={readOnly}
                      error={errorAt(`${at}.${i}.text.${language}`)}
                      onChange={(value) =>
                        dispatch({ type: 'setItemText', id: q.id, list, itemId: item.id, language, value })
                      }
                      testId={`${kind}-text`}
                    />
                  </div>
                </Group>
                {withRules && option && (
                  <Group gap={6} wrap="nowrap" align="flex-start" ml={{ base: 30, sm: 0 }}>
                    <SegmentedControl
                      size="xs"
                      mt={4}
                      readOnly={readOnly}
                      color={RULE_COLORS[option.rule]}
                      value={option.rule}
                      onChange={(value) =>
                        dispatch({ type: 'setOptionRule', id: q.id, optionId: option.id, rule: value as OptionRule })
                      }
                      data={OPTION_RULES.map((rule) => ({ value: rule, label: t(`rules.${rule}`) }))}
                      aria-label={t('rules.label')}
                      data-testid="option-rule"
                    />
                    {option.rule === 'quota' && (
                      <DraftNumberInput
                        aria-label={t('rules.share')}
                        value={option.share}
                        onChange={(share) => dispatch({ type: 'setOptionShare', id: q.id, optionId: option.id, share })}
                        min={0}
                        max={100}
                        decimalScale={2}
                        suffix="%"
                        readOnly={readOnly}
                        error={errorAt(`${at}.${i}.share`)}
                        w={90}
                        data-testid="option-share"
                      />
                    )}
                  </Group>
                )}
                {q.profile === 'sex' && option && (
                  <SegmentedControl
                    size="xs"
                    mt={4}
                    ml={30}
                    readOnly={readOnly}
                    value={option.sex ?? 'none'}
                    onChange={(value) =>
                      dispatch({
                        type: 'setOptionSex',
                        id: q.id,
                        optionId: option.id,
                        sex: value === 'none' ? null : (value as Sex),
                      })
                    }
                    data={[...SEXES, 'none' as const].map((sex) => ({ value: sex, label: t(`sex.${sex}`) }))}
                    aria-label={t('sex.label')}
                    data-testid="option-sex"
                  />
                )}
                {!readOnly && (
                  <TipIconButton
                    label={t(`question.${words}Remove`)}
                    color="gray"
                    mt={4}
                    onClick={() => dispatch({ type: 'removeItem', id: q.id, list, itemId: item.id })}
                    testId={`${kind}-remove`}
                  >
                    <IconX size={16} />
                  </TipIconButton>
                )}
              </Group>
            </Paper>
          );
        }}
      </SortableList>
      <Group justify="space-between" gap="sm" wrap="wrap">
        {!readOnly && (
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconPlus size={14} />}
            disabled={items.length >= limit}
            onClick={() => dispatch({ type: 'addItem', id: q.id, list })}
            data-testid={`${kind}-add`}
          >
            {t(`question.${words}Add`)}
          </Button>
        )}
        {quota && (
          <Group gap={6} data-testid="quota-sum" data-sum={sum}>
            <Text size="sm" c="dimmed">
              {t('rules.sum')}
            </Text>
            <Badge color={sum >= 100 ? 'teal' : 'red'} variant="light" size="lg">
              {t('rules.sumValue', { sum })}
            </Badge>
          </Group>
        )}
      </Group>
      {listError && (
        <Text size="sm" c="red.7" data-testid={`${kind}-list-error`}>
          {listError}
        </Text>
      )}
    </Stack>
  );
}

const ENDS = ['min', 'max'] as const;
/** Each end's texts: its field on a scale and on a number, and its label's field on a scale. */
const END_TEXT = {
  min: { scale: 'question.scaleMin', number: 'question.numberMin', label: 'question.minLabel' },
  max: { scale: 'question.scaleMax', number: 'question.numberMax', label: 'question.maxLabel' },
} as const;

/** A scale's ends (whole steps) with their labels, or a number's allowed range. */
export function RangeFields({ question: q, index, language, readOnly, dispatch, errorAt }: QuestionFieldsProps) {
  const { t } = useTranslation('surveys');
  const at = `questions.${index}`;
  const scale = q.type === 'scale';
  const flag = (flags: Partial<Pick<Question, 'min' | 'max'>>) =>
    dispatch({ type: 'setQuestionFlags', id: q.id, flags });
  return (
    <Stack gap="xs">
      <Group gap="sm" align="flex-start" wrap="wrap">
        {ENDS.map((end) => (
          <DraftNumberInput
            key={end}
            label={t(scale ? END_TEXT[end].scale : END_TEXT[end].number)}
            placeholder={scale ? undefined : t('question.noLimit')}
            value={q[end]}
            onChange={(value) => flag({ [end]: value })}
            allowDecimal={!scale}
            readOnly={readOnly}
            error={errorAt(`${at}.${end}`)}
            w={{ base: 120, xs: 140 }}
            data-testid={`question-${end}`}
          />
        ))}
      </Group>
      {scale && (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {ENDS.map((end) => (
            <LocalizedInput
              key={end}
              label={t(END_TEXT[end].label, { value: q[end] ?? '' })}
              value={q[`${end}_label`]}
              language={language}
              maxLength={SURVEY_LIMITS.optionChars}
              readOnly={readOnly}
              error={errorAt(`${at}.${end}_label.${language}`)}
              onChange={(value) =>
                dispatch({ type: 'setQuestionText', id: q.id, field: `${end}_label`, language, value })
              }
              testId={`question-${end}-label`}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
