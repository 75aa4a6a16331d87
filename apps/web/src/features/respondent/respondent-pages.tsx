import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { IconHammer } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { FaceCheck } from './face-check.tsx';

function RespondentFrame({ title, text }: { title: string; text: string }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="xl" radius="lg">
      <Stack gap="md">
        <Title order={2}>{title}</Title>
        <Text c="dimmed">{text}</Text>
        <Alert variant="light" color="gray" icon={<IconHammer size={18} />}>
          {t('sections.notReadyText')}
        </Alert>
      </Stack>
    </Paper>
  );
}

/** The calibration check starts with the live face check (camera, one face, light, pose). */
export function DotTestPage() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="xl" radius="lg">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={2}>{t('respondent.dotTest.title')}</Title>
          <Text c="dimmed">{t('respondent.dotTest.description')}</Text>
        </Stack>
        <FaceCheck />
      </Stack>
    </Paper>
  );
}

export function QuotaPage() {
  const { t } = useTranslation();
  const { projectId } = useParams();
  return (
    <RespondentFrame title={t('respondent.quota.title', { projectId })} text={t('respondent.quota.description')} />
  );
}

/** The respondent's entry from a quota link: consent, camera, calibration, content, save, end. */
export { ProjectResearchPage } from './research-page.tsx';
