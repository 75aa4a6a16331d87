import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { IconHammer } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';

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

export function DotTestPage() {
  const { t } = useTranslation();
  return <RespondentFrame title={t('respondent.dotTest.title')} text={t('respondent.dotTest.description')} />;
}

export function QuotaPage() {
  const { t } = useTranslation();
  const { projectId } = useParams();
  return (
    <RespondentFrame title={t('respondent.quota.title', { projectId })} text={t('respondent.quota.description')} />
  );
}

/** The respondent's entry from a quota link: consent, camera, calibration, content, questionnaires. */
export function ProjectResearchPage() {
  const { t } = useTranslation();
  return <RespondentFrame title={t('respondent.research.title')} text={t('respondent.research.description')} />;
}
