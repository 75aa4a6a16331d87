import {
  type Language,
  profileFits,
  QUESTION_PROFILES,
  QUESTION_TYPES,
  type Question,
  type QuestionType,
  SURVEY_LIMITS,
  type SurveyType,
} from '@emolens/contracts';
import {
  ActionIcon,
  Badge,
  Box,
  Divider,
  Group,
  Menu,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconCopy, IconDots, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { OrderMenu, type SortableRow } from '../../components/sortable-list.tsx';
import { TipIconButton } from '../../components/tip-icon-button.tsx';
import { DisplayLogic } from './display-logic.tsx';
import { LocalizedInput } from './localized-input.tsx';
import { ItemsEditor, RangeFields } from './question-answers.tsx';
import { hasOptions, isChoice, type SurveyAction } from './survey-draft.ts';
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
  const fields = { question: q, index, language, readOnly, dispatch, errorAt };
  const items = { ...fields, surveyType };

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
              <TipIconButton
                label={t('question.duplicate')}
                disabled={questions.length >= SURVEY_LIMITS.questions}
                onClick={() => dispatch({ type: 'duplicateQuestion', id: q.id })}
                testId="question-duplicate"
              >
                <IconCopy size={16} />
              </TipIconButton>
              <TipIconButton label={t('question.delete')} color="red" onClick={onRemove} testId="question-delete">
                <IconTrash size={16} />
              </TipIconButton>
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
        {(q.type === 'scale' || q.type === 'number') && <RangeFields {...fields} />}

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
        <DisplayLogic {...fields} questions={questions} />

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
