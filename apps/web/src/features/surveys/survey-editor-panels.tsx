// The survey editor's side panels (where it is used, its translations, its dates) and its save bar.
import { LANGUAGES } from '@emolens/contracts';
import { Badge, Button, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconDeviceFloppy } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES } from '../../components/language-switcher.tsx';
import { useResearchFormat } from '../researches/research-ui.tsx';
import { missingCounts } from './survey-draft.ts';
import { EnabledBadge, SurveyLinks } from './survey-ui.tsx';
import type { SurveyEditorState } from './use-survey-editor.tsx';

/** Where the questionnaire is used, its translations, and its dates. */
export function SidePanels({ editor }: { editor: SurveyEditorState }) {
  const { t } = useTranslation('surveys');
  const format = useResearchFormat();
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
export function SaveBar({ editor }: { editor: SurveyEditorState }) {
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
