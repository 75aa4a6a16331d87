import { Alert, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconHammer } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';

export type Section = 'demo' | 'faq' | 'interviewAnalysis' | 'selfService' | 'selfServiceAdd' | 'selfServiceProject';

/**
 * The frame of a cabinet section that a later release fills: its title, what it is for, and a
 * plain statement that it does not work yet. Nothing on it pretends to.
 */
export function SectionPage({ section }: { section: Section }) {
  const { t } = useTranslation();
  const { id } = useParams();
  return (
    <Stack gap="lg" maw={960} data-testid={`section-${section}`}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={2}>{t(`sections.${section}.title`, { id })}</Title>
          <Text c="dimmed">{t(`sections.${section}.description`)}</Text>
        </Stack>
        {id && id !== 'new' && <Badge variant="light">ID {id}</Badge>}
      </Group>
      <Paper withBorder p="lg" radius="lg">
        <Alert variant="light" color="gray" icon={<IconHammer size={18} />} title={t('sections.notReadyTitle')}>
          {t('sections.notReadyText')}
        </Alert>
      </Paper>
    </Stack>
  );
}
