import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FaceCheck } from './face-check.tsx';

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

/** The respondent's entry from a quota link: consent, camera, calibration, content, save, end. */
export { ProjectResearchPage } from './research-page.tsx';
