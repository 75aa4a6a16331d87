import type { ProjectPreparation } from '@emolens/contracts';
import { Alert, Badge, Group, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconHourglassHigh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const percent = (p: ProjectPreparation) => (p.total ? Math.round((p.done / p.total) * 100) : 0);

/**
 * In the projects list (issue 28 item 11): the demo project being made, with its steps done of all, until its report
 * is built — instead of an empty project that looks finished.
 */
export function PreparationBadge({ preparation }: { preparation: ProjectPreparation }) {
  const { t } = useTranslation('projects');
  const steps = t('preparation.steps', { done: preparation.done, total: preparation.total });
  return (
    <Stack gap={4} my={4} maw={220} data-testid="project-preparation">
      <Badge
        color={preparation.stopped ? 'gray' : 'blue'}
        variant="light"
        size="sm"
        miw="max-content"
        leftSection={preparation.stopped ? <IconAlertTriangle size={12} /> : <IconHourglassHigh size={12} />}
      >
        {preparation.stopped ? t('preparation.badgeStopped') : t('preparation.badge')}
      </Badge>
      {!preparation.stopped && (
        <>
          <Progress value={percent(preparation)} size="sm" animated aria-label={steps} />
          <Text size="xs" c="dimmed">
            {steps}
          </Text>
        </>
      )}
    </Stack>
  );
}

/** On the project's page: what is being made, how far each step has come. */
export function PreparationPanel({ preparation }: { preparation: ProjectPreparation }) {
  const { t } = useTranslation('projects');
  const stopped = preparation.stopped;
  const parts = [
    { key: 'respondents', ...preparation.respondents },
    { key: 'recordings', ...preparation.recordings },
    { key: 'report', ...preparation.report },
  ] as const;
  return (
    <Alert
      color={stopped ? 'orange' : 'blue'}
      variant="light"
      radius="lg"
      icon={stopped ? <IconAlertTriangle size={20} /> : <IconHourglassHigh size={20} />}
      title={stopped ? t('preparation.titleStopped') : t('preparation.title')}
      data-testid="project-preparation-panel"
    >
      <Stack gap="sm">
        <Text size="sm">{stopped ? t('preparation.textStopped') : t('preparation.text')}</Text>
        <Stack gap={6}>
          <Progress
            value={percent(preparation)}
            size="lg"
            radius="xl"
            animated={!stopped}
            color={stopped ? 'gray' : 'blue'}
            aria-label={t('preparation.title')}
          />
          <Text size="sm" fw={600} data-testid="project-preparation-steps">
            {t('preparation.steps', { done: preparation.done, total: preparation.total })}
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
          {parts.map((part) => (
            <Group key={part.key} gap={6} wrap="nowrap" data-testid={`project-preparation-${part.key}`}>
              <Text size="sm" fw={700} style={{ whiteSpace: 'nowrap' }}>
                {part.done} / {part.total}
              </Text>
              <Text size="sm" c="dimmed">
                {t(`preparation.${part.key}`)}
              </Text>
            </Group>
          ))}
        </SimpleGrid>
      </Stack>
    </Alert>
  );
}
