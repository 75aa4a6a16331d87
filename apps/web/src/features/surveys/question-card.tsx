import {
  type Language,
  OPTION_RULES,
  type OptionRule,
  profileFits,
  QUESTION_PROFILES,
  QUESTION_TYPES,
  type Question,
  type QuestionType,
  quotaShareSum,
  SEXES,
  type Sex,
  SURVEY_LIMITS,
  type SurveyType,
} from '@emolens/contracts';
import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Divider,
  Group,
  Menu,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconCopy, IconDots, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { OrderMenu, SortableList, type SortableRow } from '../../components/sortable-list.tsx';
import { DisplayLogic } from './display-logic.tsx';
import { DraftNumberInput, LocalizedInput } from './localized-input.tsx';
import { hasOptions, type ItemList, isChoice, type SurveyAction } from './survey-draft.ts';
import { QUESTION_ICONS } from './survey-ui.tsx';

export interface QuestionCardProps {
  question: Question;
  index: number;
  questions: readonly Question[];
  surveyType: SurveyType;
  language: Language;
  readOnly: boolean;
  dispatch: (action: SurveyAction) => void;
  errorAt: (path: string) => string | undefined;
  errorsUnder: (prefix: string) => [string, string][];
  row: SortableRow;
  onMove: (from: number, to: number) => void;
  onRemove: () => void;
}

/** The paths of a question's problems that one of its fields shows; the card lists the others at its foot. */
function shownPaths(q: Question, index: number, language: Language): Set<string> {
  const at = `questions.${index}`;
  const paths = [`${at}.text.${language}`, `${at}.options`, `${at}.rows`, `${at}.min`, `${at}.max`, `${at}.conditions`];
  paths.push(`${at}.min_label.${language}`, `${at}.max_label.${language}`, `${at}.type`);
  for (const list of ['options', 'rows'] as const) {
    for (const [i] of q[list].entries()) paths.push(`${at}.${list}.${i}.text.${language}`, `${at}.${list}.${i}.share`);
  }
  for (const [i] of q.conditions.entries()) {
    paths.push(`${at}.conditions.${i}.question`, `${at}.conditions.${i}.operator`, `${at}.conditions.${i}.value`);
  }
  return new Set(paths);
}

/** One question of the editor: its type, text, answers' settings, screener rules and display logic. */
export function QuestionCard({
  question: q,
  index,
  questions,
  surveyType,
  language,
  readOnly,
  dispatch,
  errorAt,
  errorsUnder,
  row,
  onMove,
  onRemove,
}: QuestionCardProps) {
  const { t } = useTranslation('surveys');
  const at = `questions.${index}`;
  const TypeIcon = QUESTION_ICONS[q.type];
  const shown = shownPaths(q, index, language);
  const leftover = errorsUnder(`${at}.`).filter(([path]) => !shown.has(path));
  const flag = (flags: Partial<Pick<Question, 'required' | 'random_order' | 'other' | 'min' | 'max'>>) =>
    dispatch({ type: 'setQuestionFlags', id: q.id, flags });
  const hasProblems = errorsUnder(`${at}.`).length > 0;
  // What every list of the question (options, matrix rows and columns) is edited with.
  const items = { question: q, index, surveyType, language, readOnly, dispatch, errorAt };

  return (
    <Paper
      {...row.props}
      withBorder
      radius="md"
      p={{ base: 'xs', sm: 'md' }}
      data-testid="question-card"
      data-question-id={q.id}
      data-question-type={q.type}
      data-has-problems={hasProblems || undefined}
      style={{
        ...row.props.style,
        borderLeft: `4px solid var(--mantine-color-${hasProblems ? 'red-5' : 'indigo-4'})`,
      }}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
            {row.handle}
            <Badge size="lg" variant="light" radius="sm" data-testid="question-number">
              {index + 1}
            </Badge>
            <Select
              aria-label={t('question.type')}
              data={QUESTION_TYPES.map((type) => ({ value: type, label: t(`questionTypes.${type}`) }))}
              value={q.type}
              readOnly={readOnly}
              allowDeselect={false}
              leftSection={<TypeIcon size={16} />}
              onChange={(value) =>
                value && dispatch({ type: 'setQuestionType', id: q.id, questionType: value as QuestionType })
              }
              style={{ flex: '0 1 220px', minWidth: 120 }}
              comboboxProps={{ withinPortal: true }}
              data-testid="question-type"
            />
          </Group>
          {!readOnly && (
            <PhoneActions
              index={index}
              count={questions.length}
              canDuplicate={questions.length < SURVEY_LIMITS.questions}
              onMove={onMove}
              onDuplicate={() => dispatch({ type: 'duplicateQuestion', id: q.id })}
              onRemove={onRemove}
            />
          )}
          {!readOnly && (
            <Group gap={2} wrap="nowrap" visibleFrom="xs">
              <OrderMenu
                index={index}
                count={questions.length}
                onMove={onMove}
                testId="question"
                labels={{ order: t('question.order'), up: t('question.moveUp'), down: t('question.moveDown') }}
              />
              <Tooltip label={t('question.duplicate')} withArrow>
                <ActionIcon
                  variant="subtle"
                  aria-label={t('question.duplicate')}
                  disabled={questions.length >= SURVEY_LIMITS.questions}
                  onClick={() => dispatch({ type: 'duplicateQuestion', id: q.id })}
                  data-testid="question-duplicate"
                >
                  <IconCopy size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('question.delete')} withArrow>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('question.delete')}
                  onClick={onRemove}
                  data-testid="question-delete"
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
        </Group>

        <LocalizedInput
          label={q.type === 'info' ? t('question.infoText') : t('question.text')}
          value={q.text}
          language={language}
          multiline
          maxLength={SURVEY_LIMITS.questionChars}
          readOnly={readOnly}
          error={errorAt(`${at}.text.${language}`)}
          onChange={(value) => dispatch({ type: 'setQuestionText', id: q.id, field: 'text', language, value })}
          testId="question-text"
        />

        {(q.type === 'single' || q.type === 'multiple') && (
          <ItemsEditor {...items} list="options" title={t('question.options')} />
        )}
        {q.type === 'matrix' && (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <ItemsEditor {...items} list="rows" title={t('question.rows')} />
            <ItemsEditor {...items} list="options" title={t('question.columns')} />
          </SimpleGrid>
        )}
        {(q.type === 'scale' || q.type === 'number') && (
          <RangeFields
            question={q}
            index={index}
            language={language}
            readOnly={readOnly}
            dispatch={dispatch}
            errorAt={errorAt}
          />
        )}

        {q.type !== 'info' && (
          <Group gap="lg" wrap="wrap">
            <Switch
              label={t('question.required')}
              checked={q.required}
              disabled={readOnly}
              onChange={(event) => flag({ required: event.currentTarget.checked })}
              data-testid="question-required"
            />
            {hasOptions(q.type) && (
              <Switch
                label={q.type === 'matrix' ? t('question.randomRows') : t('question.randomOrder')}
                checked={q.random_order}
                disabled={readOnly}
                onChange={(event) => flag({ random_order: event.currentTarget.checked })}
                data-testid="question-random"
              />
            )}
            {isChoice(q.type) && (
              <Switch
                label={t('question.other')}
                checked={q.other}
                disabled={readOnly}
                onChange={(event) => flag({ other: event.currentTarget.checked })}
                data-testid="question-other"
              />
            )}
            {QUESTION_PROFILES.filter((profile) => profileFits(profile, q.type)).map((profile) => (
              <Switch
                key={profile}
                label={t(`question.profile.${profile}`)}
                description={t('question.profile.hint')}
                checked={q.profile === profile}
                disabled={readOnly}
                error={errorAt(`questions.${index}.profile`)}
                onChange={(event) =>
                  dispatch({
                    type: 'setQuestionProfile',
                    id: q.id,
                    profile: event.currentTarget.checked ? profile : null,
                  })
                }
                data-testid={`question-profile-${profile}`}
              />
            ))}
          </Group>
        )}

        <Divider variant="dashed" />
        <DisplayLogic
          question={q}
          index={index}
          questions={questions}
          language={language}
          readOnly={readOnly}
          dispatch={dispatch}
          errorAt={errorAt}
        />

        {leftover.length > 0 && (
          <Stack gap={2} data-testid="question-problems">
            {leftover.map(([path, message]) => (
              <Text key={path} size="sm" c="red.7">
                {message}
              </Text>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/** Pass is the quiet default; the rules that act stand out. */
/** A phone's one menu for what the wider card shows as buttons: order, duplicate, delete. */
function PhoneActions(props: {
  index: number;
  count: number;
  canDuplicate: boolean;
  onMove: (from: number, to: number) => void;
  onDuplicate: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('surveys');
  const { index, count, onMove } = props;
  return (
    <Box hiddenFrom="xs">
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" aria-label={t('question.actions')} data-testid="question-actions">
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconArrowUp size={14} />}
            disabled={index === 0}
            onClick={() => onMove(index, index - 1)}
          >
            {t('question.moveUp')}
          </Menu.Item>
          <Menu.Item
            leftSection={<IconArrowDown size={14} />}
            disabled={index === count - 1}
            onClick={() => onMove(index, index + 1)}
          >
            {t('question.moveDown')}
          </Menu.Item>
          <Menu.Item leftSection={<IconCopy size={14} />} disabled={!props.canDuplicate} onClick={props.onDuplicate}>
            {t('question.duplicate')}
          </Menu.Item>
          <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={props.onRemove}>
            {t('question.delete')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Box>
  );
}

const RULE_COLORS: Record<OptionRule, string | undefined> = { pass: undefined, dropout: 'red', quota: 'teal' };

/** Choices (or a matrix's rows or columns): their texts, order and, in a screener, their rules. */
function ItemsEditor({
  question: q,
  index,
  list,
  title,
  surveyType,
  language,
  readOnly,
  dispatch,
  errorAt,
}: {
  question: Question;
  index: number;
  list: ItemList;
  title: string;
  surveyType: SurveyType;
  language: Language;
  readOnly: boolean;
  dispatch: (action: SurveyAction) => void;
  errorAt: (path: string) => string | undefined;
}) {
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
                  <Tooltip label={t(`question.${words}Remove`)} withArrow>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      mt={4}
                      aria-label={t(`question.${words}Remove`)}
                      onClick={() => dispatch({ type: 'removeItem', id: q.id, list, itemId: item.id })}
                      data-testid={`${kind}-remove`}
                    >
                      <IconX size={16} />
                    </ActionIcon>
                  </Tooltip>
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

/** A scale's ends (whole steps) with their labels, or a number's allowed range. */
function RangeFields({
  question: q,
  index,
  language,
  readOnly,
  dispatch,
  errorAt,
}: {
  question: Question;
  index: number;
  language: Language;
  readOnly: boolean;
  dispatch: (action: SurveyAction) => void;
  errorAt: (path: string) => string | undefined;
}) {
  const { t } = useTranslation('surveys');
  const at = `questions.${index}`;
  const scale = q.type === 'scale';
  const flag = (flags: Partial<Pick<Question, 'min' | 'max'>>) =>
    dispatch({ type: 'setQuestionFlags', id: q.id, flags });
  return (
    <Stack gap="xs">
      <Group gap="sm" align="flex-start" wrap="wrap">
        <DraftNumberInput
          label={scale ? t('question.scaleMin') : t('question.numberMin')}
          placeholder={scale ? undefined : t('question.noLimit')}
          value={q.min}
          onChange={(min) => flag({ min })}
          allowDecimal={!scale}
          readOnly={readOnly}
          error={errorAt(`${at}.min`)}
          w={{ base: 120, xs: 140 }}
          data-testid="question-min"
        />
        <DraftNumberInput
          label={scale ? t('question.scaleMax') : t('question.numberMax')}
          placeholder={scale ? undefined : t('question.noLimit')}
          value={q.max}
          onChange={(max) => flag({ max })}
          allowDecimal={!scale}
          readOnly={readOnly}
          error={errorAt(`${at}.max`)}
          w={{ base: 120, xs: 140 }}
          data-testid="question-max"
        />
      </Group>
      {scale && (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <LocalizedInput
            label={t('question.minLabel', { value: q.min ?? '' })}
            value={q.min_label}
            language={language}
            maxLength={SURVEY_LIMITS.optionChars}
            readOnly={readOnly}
            error={errorAt(`${at}.min_label.${language}`)}
            onChange={(value) => dispatch({ type: 'setQuestionText', id: q.id, field: 'min_label', language, value })}
            testId="question-min-label"
          />
          <LocalizedInput
            label={t('question.maxLabel', { value: q.max ?? '' })}
            value={q.max_label}
            language={language}
            maxLength={SURVEY_LIMITS.optionChars}
            readOnly={readOnly}
            error={errorAt(`${at}.max_label.${language}`)}
            onChange={(value) => dispatch({ type: 'setQuestionText', id: q.id, field: 'max_label', language, value })}
            testId="question-max-label"
          />
        </SimpleGrid>
      )}
    </Stack>
  );
}
