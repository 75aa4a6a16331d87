import { type RecruitingPlatform, type Research, recruitingPlatformOf } from '@emolens/contracts';
import { Anchor, Button, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDeviceFloppy, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ContentTypeLabel, useResearchFormat } from './research-ui.tsx';
import type { ResearchEditorState } from './use-research-editor.tsx';

/** The details' label of a research's pool or HIT, by recruiting platform. */
const RECRUITING_LABEL: Record<RecruitingPlatform, string> = {
  toloka: 'form.tolokaPool',
  mturk: 'form.mturkHit',
  prolific: 'form.prolificStudy',
};

/** Create or save, discard, delete: what may be done with the research now. */
export function ResearchActions({ editor, research }: { editor: ResearchEditorState; research: Research | null }) {
  const { t } = useTranslation('researches');
  const { mode, editable, dirty, pending } = editor;
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="campaign-actions">
      <Stack gap="sm">
        <Title order={3} size="h5">
          {mode === 'create' ? t('form.createActions') : t('form.actions')}
        </Title>
        {editable ? (
          <>
            {dirty && mode === 'edit' && (
              <Text size="sm" c="orange.8" data-testid="unsaved-changes">
                {t('form.unsaved')}
              </Text>
            )}
            <Button
              type="submit"
              fullWidth
              leftSection={<IconDeviceFloppy size={16} />}
              disabled={(mode === 'edit' && !dirty) || pending.remove}
              loading={pending.save}
              data-testid="campaign-save"
            >
              {mode === 'create' ? t('form.create') : t('form.save')}
            </Button>
            {mode === 'edit' ? (
              <Button variant="default" fullWidth disabled={!dirty || pending.any} onClick={editor.discard}>
                {t('form.discard')}
              </Button>
            ) : (
              <Button variant="default" fullWidth component={Link} to="/cabinet/campaigns">
                {t('actions.cancel')}
              </Button>
            )}
          </>
        ) : (
          <Text size="sm" c="dimmed">
            {t('form.noActions')}
          </Text>
        )}
        {mode === 'edit' && research?.can_edit && (
          <>
            <Divider my={4} />
            <Button
              fullWidth
              color="red"
              variant="outline"
              leftSection={<IconTrash size={16} />}
              onClick={editor.confirmDelete}
              disabled={pending.any}
              loading={pending.remove}
              data-testid="campaign-delete"
            >
              {t('delete.button')}
            </Button>
            <Text size="xs" c="dimmed">
              {t('delete.hint')}
            </Text>
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** A saved research's facts. `video_count` counts respondents' recordings, not uploaded content. */
export function ResearchDetails({ research }: { research: Research }) {
  const { t } = useTranslation('researches');
  const format = useResearchFormat();
  const recruiting = recruitingPlatformOf(research.project.platform);
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="campaign-details">
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('form.details')}
        </Title>
        <Detail label="ID">
          <Text span size="xs" ff="monospace" data-testid="campaign-id">
            {research.id}
          </Text>
        </Detail>
        <Detail label={t('fields.contentType')}>
          <ContentTypeLabel type={research.content_type} />
        </Detail>
        <Detail label={t('columns.recordings')} testId="campaign-recordings">
          <Anchor component={Link} to={`/cabinet/campaign/${research.id}/statistic`} size="sm">
            {format.number(research.video_count)}
          </Anchor>
        </Detail>
        <Detail label={t('columns.reports')}>{format.number(research.report_count)}</Detail>
        {recruiting && (
          <Detail label={t(RECRUITING_LABEL[recruiting])}>
            <Anchor
              component={Link}
              to={`/cabinet/campaign/${research.id}/${recruiting}`}
              size="sm"
              data-testid={`campaign-${recruiting}`}
            >
              {t('form.tolokaPoolOpen')}
            </Anchor>
          </Detail>
        )}
        <Detail label={t('form.flow')}>{research.is_new_user_flow ? t('form.flowNew') : t('form.flowOld')}</Detail>
        <Detail label={t('columns.created')}>{format.dateTime(research.created_at)}</Detail>
        <Detail label={t('columns.updated')}>{format.dateTime(research.updated_at)}</Detail>
      </Stack>
    </Paper>
  );
}

/** The project a new research goes into, as a link. */
export function ChosenProject({ project }: { project: { id: string; title: string } }) {
  const { t } = useTranslation('researches');
  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap={4}>
        <Text size="sm" c="dimmed">
          {t('form.inProject')}
        </Text>
        <Anchor component={Link} to={`/cabinet/projects/${project.id}`} fw={600}>
          {project.title}
        </Anchor>
      </Stack>
    </Paper>
  );
}

function Detail({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right" component="div">
        {children}
      </Text>
    </Group>
  );
}
