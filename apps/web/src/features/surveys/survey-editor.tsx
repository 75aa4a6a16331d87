import {
  LANGUAGES,
  type Language,
  QUESTION_TYPES,
  type QuestionType,
  SURVEY_LIMITS,
  type Survey,
} from '@emolens/contracts';
import {
  Alert,
  Button,
  Grid,
  Group,
  Menu,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconChevronDown, IconCopy, IconEye, IconLock, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openConfirm } from '../../components/confirm.ts';
import { FormSection } from '../../components/form-section.tsx';
import { BackLink, ConflictAlert } from '../../components/page-notices.tsx';
import { SortableList } from '../../components/sortable-list.tsx';
import { translateMessage } from '../../i18n/messages.ts';
import { SURVEYS_PATH } from './paths.ts';
import { QuestionCard } from './question-card.tsx';
import { missingCounts } from './survey-draft.ts';
import { SaveBar, SidePanels } from './survey-editor-panels.tsx';
import { SurveyPreview } from './survey-preview.tsx';
import { FrozenBadge, QUESTION_ICONS, SurveyTypeBadge } from './survey-ui.tsx';
import { type SurveyEditorState, useSurveyEditor } from './use-survey-editor.tsx';

/** `/cabinet/surveys/{id}`: the questionnaire's settings and questions, with save, preview, copy and delete. */
export function SurveyEditor({
  survey,
  refetch,
}: {
  survey: Survey;
  refetch: () => Promise<{ data?: Survey | undefined }>;
}) {
  const { t } = useTranslation('surveys');
  const editor = useSurveyEditor(survey, refetch);
  const { draft, editable, dispatch } = editor;
  const [previewing, setPreviewing] = useState(false);
  const readOnly = !editable;

  return (
    <Stack gap="lg" maw={1280} pb={editable ? 88 : 0} data-testid="survey-editor">
      <Stack gap={6}>
        <BackLink to={SURVEYS_PATH} label={t('editor.backToList')} />
        <Group justify="space-between" align="flex-start" gap="md">
          <Group gap="sm" align="center" style={{ minWidth: 0 }}>
            <Title order={2} style={{ overflowWrap: 'anywhere' }} data-testid="survey-heading">
              {draft.title.trim() || t('editor.untitled')}
            </Title>
            <SurveyTypeBadge type={survey.type} size="lg" />
            {survey.frozen && <FrozenBadge />}
          </Group>
          <Group gap="sm">
            <Button
              variant="default"
              leftSection={<IconEye size={16} />}
              onClick={() => setPreviewing(true)}
              data-testid="survey-preview-open"
            >
              {t('editor.preview')}
            </Button>
            <EditorMenu editor={editor} />
          </Group>
        </Group>
      </Stack>

      {survey.frozen ? (
        <Alert color="blue" variant="light" icon={<IconLock size={18} />} data-testid="survey-read-only">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{translateMessage({ key: 'survey.frozen' })}</Text>
            {survey.can.copy && (
              <Button
                size="xs"
                leftSection={<IconCopy size={14} />}
                loading={editor.pending.copy}
                onClick={editor.makeCopy}
                data-testid="survey-frozen-copy"
              >
                {t('actions.copyToChange')}
              </Button>
            )}
          </Stack>
        </Alert>
      ) : (
        readOnly && (
          <Alert color="gray" variant="light" icon={<IconLock size={18} />} data-testid="survey-read-only">
            {t('editor.readOnly')}
          </Alert>
        )
      )}

      {editor.conflict && (
        <ConflictAlert
          title={t('editor.conflictTitle')}
          message={editor.conflict}
          text={t('editor.conflictText')}
          reloadLabel={t('editor.conflictReload')}
          onReload={() => void editor.reload()}
          testId="survey-conflict"
        />
      )}

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="lg">
            <FormSection title={t('editor.settings')}>
              <TextInput
                label={t('fields.title')}
                required
                value={draft.title}
                readOnly={readOnly}
                error={editor.errorAt('title')}
                onChange={(event) => dispatch({ type: 'setTitle', title: event.currentTarget.value })}
                data-testid="survey-title"
              />
              <Switch
                label={t('fields.enabled')}
                description={t('fields.enabledHint')}
                checked={draft.enabled}
                disabled={readOnly}
                onChange={(event) => dispatch({ type: 'setEnabled', enabled: event.currentTarget.checked })}
                data-testid="survey-enabled-switch"
              />
            </FormSection>
            <QuestionsSection editor={editor} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <SidePanels editor={editor} />
        </Grid.Col>
      </Grid>

      {editable && <SaveBar editor={editor} />}
      {editor.guard.dialog}
      <SurveyPreview
        opened={previewing}
        onClose={() => setPreviewing(false)}
        draft={draft}
        type={survey.type}
        initialLanguage={editor.language}
      />
    </Stack>
  );
}

/** Copy and delete (delete says why it cannot when the questionnaire is linked). */
function EditorMenu({ editor }: { editor: SurveyEditorState }) {
  const { t } = useTranslation('surveys');
  const { survey } = editor;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" rightSection={<IconChevronDown size={14} />} data-testid="survey-actions">
          {t('editor.actions')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {survey.can.copy && (
          <Menu.Item leftSection={<IconCopy size={14} />} onClick={editor.makeCopy} data-testid="survey-copy">
            {t('actions.copy')}
          </Menu.Item>
        )}
        <Menu.Item
          color="red"
          leftSection={<IconTrash size={14} />}
          disabled={!survey.can.delete}
          onClick={editor.confirmDelete}
          data-testid="survey-delete"
        >
          <Stack gap={0}>
            <span>{t('actions.delete')}</span>
            {!survey.can.delete && (
              <Text size="xs" c="dimmed" maw={220}>
                {translateMessage({ key: 'survey.inUse' })}
              </Text>
            )}
          </Stack>
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The questions, in the editing language, reordered by dragging; a new one by type. */
function QuestionsSection({ editor }: { editor: SurveyEditorState }) {
  const { t } = useTranslation('surveys');
  const { draft, dispatch, editable, language, setLanguage } = editor;
  const readOnly = !editable;
  const missing = useMemo(() => missingCounts(draft), [draft]);
  const questionsError = editor.errorAt('questions');

  const move = (from: number, to: number) => dispatch({ type: 'moveQuestion', from, to });
  const remove = (id: string, number: number) =>
    openConfirm({
      title: t('question.deleteTitle', { number }),
      children: <Text size="sm">{t('question.deleteText')}</Text>,
      labels: { confirm: t('question.delete'), cancel: t('actions.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-question-delete' },
      centered: true,
      onConfirm: () => dispatch({ type: 'removeQuestion', id }),
    });

  return (
    <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'xl' }} data-testid="survey-questions">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={3} size="h4">
            {t('editor.questions', { count: draft.questions.length })}
          </Title>
          {!readOnly && (
            <Text size="sm" c="dimmed">
              {t('editor.questionsHint')}
            </Text>
          )}
        </Stack>
        {/* Stays in reach while a long questionnaire scrolls under it. */}
        <Group
          gap="sm"
          py={8}
          wrap="wrap"
          bg="white"
          style={{ position: 'sticky', top: 60, zIndex: 4, borderBottom: '1px solid var(--mantine-color-gray-2)' }}
        >
          <Text size="sm" fw={500} id="survey-language-label">
            {t('editor.textLanguage')}
          </Text>
          <SegmentedControl
            value={language}
            onChange={(value) => setLanguage(LANGUAGES.find((l) => l === value) ?? language)}
            data={LANGUAGES.map((l) => ({ value: l, label: <LanguageTab language={l} missing={missing[l]} /> }))}
            aria-labelledby="survey-language-label"
            data-testid="survey-language"
          />
        </Group>

        {draft.questions.length === 0 && (
          <Text c="dimmed" size="sm" ta="center" py="lg" data-testid="questions-empty">
            {readOnly ? t('editor.noQuestions') : t('editor.noQuestionsYet')}
          </Text>
        )}

        <SortableList
          items={draft.questions}
          getId={(q) => q.id}
          texts="question"
          valuesOf={(_, index) => ({ number: index + 1 })}
          editable={!readOnly}
          gap="md"
          testId="question"
          onMove={move}
        >
          {(question, index, row) => (
            <QuestionCard
              question={question}
              index={index}
              questions={draft.questions}
              surveyType={editor.survey.type}
              language={language}
              readOnly={readOnly}
              dispatch={dispatch}
              errorAt={editor.errorAt}
              errorsUnder={editor.errorsUnder}
              row={row}
              onMove={move}
              onRemove={() => remove(question.id, index + 1)}
            />
          )}
        </SortableList>

        {questionsError && (
          <Text size="sm" c="red.7">
            {questionsError}
          </Text>
        )}
        {!readOnly && <AddQuestion editor={editor} />}
      </Stack>
    </Paper>
  );
}

function LanguageTab({ language, missing }: { language: Language; missing: number }) {
  const { t } = useTranslation('surveys');
  return (
    <Tooltip
      label={missing ? t('translations.missingCount', { count: missing }) : t('translations.completeHere')}
      withArrow
    >
      <Group gap={4} wrap="nowrap" justify="center" data-testid={`language-tab-${language}`} data-missing={missing}>
        <span>{language.toUpperCase()}</span>
        {missing > 0 && (
          <Text span fz={11} fw={700} c="orange.7" lh={1}>
            {missing}
          </Text>
        )}
      </Group>
    </Tooltip>
  );
}

function AddQuestion({ editor }: { editor: SurveyEditorState }) {
  const { t } = useTranslation('surveys');
  const full = editor.draft.questions.length >= SURVEY_LIMITS.questions;
  const add = (questionType: QuestionType) => {
    editor.dispatch({ type: 'addQuestion', questionType });
    // The new question is the last: bring it into view with its text ready to type.
    requestAnimationFrame(() => {
      const cards = document.querySelectorAll<HTMLElement>('[data-testid="question-card"]');
      const card = cards[cards.length - 1];
      card?.scrollIntoView({ behavior: 'smooth', block: 'center' });
      card?.querySelector<HTMLTextAreaElement>('[data-testid="question-text"]')?.focus({ preventScroll: true });
    });
  };
  return (
    <Menu position="bottom-start" width={300} withinPortal>
      <Menu.Target>
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          rightSection={<IconChevronDown size={14} />}
          disabled={full}
          style={{ alignSelf: 'flex-start' }}
          data-testid="question-add"
        >
          {t('editor.addQuestion')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {QUESTION_TYPES.map((type) => {
          const Icon = QUESTION_ICONS[type];
          return (
            <Menu.Item
              key={type}
              leftSection={<Icon size={18} />}
              onClick={() => add(type)}
              data-testid={`question-add-${type}`}
            >
              <Text size="sm" fw={500}>
                {t(`questionTypes.${type}`)}
              </Text>
              <Text size="xs" c="dimmed">
                {t(`questionTypeHints.${type}`)}
              </Text>
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}
