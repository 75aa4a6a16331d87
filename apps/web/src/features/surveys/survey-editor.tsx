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
  Badge,
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
import {
  IconAlertTriangle,
  IconCheck,
  IconChevronDown,
  IconCopy,
  IconDeviceFloppy,
  IconEye,
  IconLock,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openConfirm } from '../../components/confirm.ts';
import { FormSection } from '../../components/form-section.tsx';
import { LANGUAGE_NAMES } from '../../components/language-switcher.tsx';
import { BackLink, ConflictAlert } from '../../components/page-notices.tsx';
import { SortableList } from '../../components/sortable-list.tsx';
import { translateMessage } from '../../i18n/messages.ts';
import { useCampaignFormat } from '../campaigns/campaign-ui.tsx';
import { SURVEYS_PATH } from './paths.ts';
import { QuestionCard } from './question-card.tsx';
import { missingCounts } from './survey-draft.ts';
import { SurveyPreview } from './survey-preview.tsx';
import { EnabledBadge, FrozenBadge, QUESTION_ICONS, SurveyLinks, SurveyTypeBadge } from './survey-ui.tsx';
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

      <Grid gutter="lg">
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

/** Where the questionnaire is used, its translations, and its dates. */
function SidePanels({ editor }: { editor: SurveyEditorState }) {
  const { t } = useTranslation('surveys');
  const format = useCampaignFormat();
  const { survey } = editor;
  return (
    <Stack gap="lg" style={{ position: 'sticky', top: 76 }}>
      <Paper withBorder radius="lg" p="lg">
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('editor.usedIn')}
          </Title>
          <SurveyLinks links={survey.links} />
        </Stack>
      </Paper>
      <TranslationsPanel editor={editor} />
      <Paper withBorder radius="lg" p="lg">
        <Stack gap={6}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" c="dimmed">
              {t('editor.state')}
            </Text>
            <EnabledBadge enabled={survey.enabled} />
          </Group>
          <Group justify="space-between" gap="xs">
            <Text size="sm" c="dimmed">
              {t('editor.created')}
            </Text>
            <Text size="sm">{format.dateTime(survey.created_at)}</Text>
          </Group>
          <Group justify="space-between" gap="xs">
            <Text size="sm" c="dimmed">
              {t('editor.updated')}
            </Text>
            <Text size="sm" data-testid="survey-updated">
              {format.dateTime(survey.updated_at)}
            </Text>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}

/**
 * How many texts each language lacks in the draft (live), and which languages the linked projects' respondents
 * need (the server's check of the saved version): those must be complete before launch.
 */
function TranslationsPanel({ editor }: { editor: SurveyEditorState }) {
  const { t } = useTranslation('surveys');
  const missing = useMemo(() => missingCounts(editor.draft), [editor.draft]);
  const needed = new Set(editor.survey.missing_translations);
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="survey-translations">
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('editor.translations')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('editor.translationsHint')}
        </Text>
        <Stack gap={6}>
          {LANGUAGES.map((language) => (
            <Group
              key={language}
              justify="space-between"
              gap="xs"
              wrap="nowrap"
              data-testid={`translation-${language}`}
            >
              <Group gap={6} wrap="nowrap">
                <Text size="sm">{LANGUAGE_NAMES[language]}</Text>
                {needed.has(language) && (
                  <Tooltip label={t('translations.neededHint')} withArrow multiline w={240}>
                    <Badge size="xs" color="red" variant="light">
                      {t('translations.needed')}
                    </Badge>
                  </Tooltip>
                )}
              </Group>
              {missing[language] > 0 ? (
                <Badge size="sm" color="orange" variant="light" miw="max-content">
                  {t('translations.missingBadge', { count: missing[language] })}
                </Badge>
              ) : (
                <Badge size="sm" color="teal" variant="light" miw="max-content">
                  {t('translations.doneBadge')}
                </Badge>
              )}
            </Group>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}

/** Fixed to the window's foot: whether there is something to save, its problems, discard and save. */
function SaveBar({ editor }: { editor: SurveyEditorState }) {
  const { t } = useTranslation('surveys');
  const problems = editor.problems.size;
  const status = editor.dirty ? (
    problems > 0 ? (
      <Group gap={6} c="red.7" wrap="nowrap">
        <IconAlertTriangle size={16} />
        <Text size="sm" inherit>
          {t('editor.problems', { count: problems })}
        </Text>
      </Group>
    ) : (
      <Text size="sm" c="orange.8">
        {t('editor.unsaved')}
      </Text>
    )
  ) : (
    <Group gap={6} c="teal.7" wrap="nowrap">
      <IconCheck size={16} />
      <Text size="sm" inherit>
        {t('editor.allSaved')}
      </Text>
    </Group>
  );
  return (
    <Paper
      withBorder
      shadow="md"
      radius="lg"
      px="lg"
      py="sm"
      data-testid="survey-save-bar"
      style={{ position: 'sticky', bottom: 12, zIndex: 5 }}
    >
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <div data-testid="survey-save-status">{status}</div>
        <Group gap="sm" wrap="nowrap">
          {editor.dirty && (
            <Button variant="subtle" color="gray" onClick={editor.discard} data-testid="survey-discard">
              {t('editor.discard')}
            </Button>
          )}
          <Button
            leftSection={<IconDeviceFloppy size={16} />}
            disabled={!editor.dirty}
            loading={editor.pending.save}
            onClick={editor.save}
            data-testid="survey-save"
          >
            {t('actions.save')}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
