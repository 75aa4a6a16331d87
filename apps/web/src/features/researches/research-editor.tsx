import type { Research } from '@emolens/contracts';
import { Alert, Anchor, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle, IconLock, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormSection } from '../../components/form-section.tsx';
import { BackLink, ConflictAlert } from '../../components/page-notices.tsx';
import { ResearchContent } from '../content/research-content.tsx';
import { CategoryFields } from './category-fields.tsx';
import { ResearchMainFields } from './research-main-fields.tsx';
import { ResearchSettingsFields } from './research-settings-fields.tsx';
import { ChosenProject, ResearchActions, ResearchDetails } from './research-side-panels.tsx';
import { ResearchStatusBadge, useResearchFormat } from './research-ui.tsx';
import { type EditorOptions, useResearchEditor } from './use-research-editor.tsx';

/** The research form: its fields and content on the left, what may be done and its facts on the right. */
export function ResearchEditor({ isArmi, ...options }: EditorOptions & { isArmi: boolean }) {
  const { t } = useTranslation('researches');
  const editor = useResearchEditor(options);
  const { research, contentless } = options;
  const { form, editable } = editor;

  return (
    <Stack gap="lg" maw={1200} data-testid="campaign-form-page">
      <ResearchHeading research={research} contentless={contentless} />

      {research && !research.can_edit && (
        <Alert color="blue" variant="light" icon={<IconLock size={18} />} data-testid="campaign-read-only">
          {t('form.readOnly')}
        </Alert>
      )}

      {editor.conflict && (
        <ConflictAlert
          title={t('form.conflictTitle')}
          message={editor.conflict}
          text={t('form.conflictText')}
          reloadLabel={t('form.conflictReload')}
          onReload={editor.reload}
          testId="campaign-conflict"
        />
      )}

      <form onSubmit={editor.save} noValidate>
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Stack gap="lg">
              <ResearchMainFields editor={editor} contentless={contentless} isArmi={isArmi} />

              <FormSection title={t('content.title')}>
                {research && !contentless ? (
                  <ResearchContent form={form} research={research} />
                ) : (
                  <Alert
                    variant="light"
                    color="gray"
                    icon={contentless ? <IconInfoCircle size={18} /> : <IconUpload size={18} />}
                    data-testid="campaign-content-note"
                  >
                    {contentless ? t('content.contentless') : t('content.afterSaving')}
                  </Alert>
                )}
              </FormSection>

              <FormSection title={t('categories.title')} description={t('categories.description')}>
                <CategoryFields form={form} readOnly={!editable} />
              </FormSection>

              <ResearchSettingsFields form={form} readOnly={!editable} contentType={form.values.content_type} />
            </Stack>
          </Grid.Col>

          <Grid.Col span={{ base: 12, md: 4 }}>
            <Stack gap="lg" style={{ position: 'sticky', top: 76 }}>
              <ResearchActions editor={editor} research={research} />
              {research && <ResearchDetails research={research} />}
              {editor.chosenProject && editor.mode === 'create' && <ChosenProject project={editor.chosenProject} />}
            </Stack>
          </Grid.Col>
        </Grid>
      </form>
      {editor.guard.dialog}
    </Stack>
  );
}

/** The research's name and status, and its project; or what is being created. */
function ResearchHeading({ research, contentless }: { research: Research | null; contentless: boolean }) {
  const { t } = useTranslation('researches');
  const format = useResearchFormat();
  const heading = research ? research.title : contentless ? t('form.newContentlessTitle') : t('form.newTitle');
  return (
    <Stack gap={6}>
      <BackLink to="/cabinet/campaigns" label={t('form.backToList')} />
      <Group gap="sm" align="center">
        <Title order={2} style={{ overflowWrap: 'anywhere' }} data-testid="campaign-heading">
          {heading}
        </Title>
        {research && <ResearchStatusBadge status={research.status} size="lg" />}
      </Group>
      {research ? (
        <Group gap="xs" c="dimmed">
          <Text size="sm">{t('form.inProject')}</Text>
          <Anchor component={Link} to={`/cabinet/projects/${research.project.id}`} size="sm">
            {research.project.title}
          </Anchor>
          <Text size="sm">· {t('form.updatedAt', { date: format.dateTime(research.updated_at) })}</Text>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          {contentless ? t('form.newContentlessSubtitle') : t('form.newSubtitle')}
        </Text>
      )}
    </Stack>
  );
}
