import { Group, Paper, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import {
  IconCamera,
  IconCheckbox,
  IconCpu,
  IconFocus2,
  IconLink,
  IconListCheck,
  IconPlayerPlay,
  IconReportAnalytics,
  IconTicket,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import classes from './public.module.css';

const STEPS = [
  { key: 'link', Icon: IconLink },
  { key: 'consent', Icon: IconCheckbox },
  { key: 'camera', Icon: IconCamera },
  { key: 'calibration', Icon: IconFocus2 },
  { key: 'content', Icon: IconPlayerPlay },
  { key: 'questionnaire', Icon: IconListCheck },
  { key: 'code', Icon: IconTicket },
] as const;

/** The respondent's path through a session, then what happens on the Emolens side. */
/** `benchmarkCount`: the benchmark base's size, formatted; null when the base holds no creatives. */
export function RespondentJourney({ benchmarkCount }: { benchmarkCount: string | null }) {
  const { t } = useTranslation('public');
  return (
    <>
      <Text fw={700} c="indigo.7" mb="lg" ta={{ base: 'left', md: 'center' }}>
        {t('home.how.respondentSide')}
      </Text>
      <ol className={classes.journey} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {STEPS.map(({ key, Icon }, i) => (
          <li key={key} className={classes.step}>
            <span className={classes.stepIcon}>
              <Icon size={22} stroke={1.7} />
              <span className={classes.stepNumber}>{i + 1}</span>
            </span>
            <div>
              <Text fw={700} size="sm" mb={2}>
                {t(`home.how.${key}Title`)}
              </Text>
              <Text size="sm" c="dimmed" lh={1.45}>
                {t(`home.how.${key}Text`)}
              </Text>
            </div>
          </li>
        ))}
      </ol>
      <Text fw={700} c="indigo.7" mt={48} mb="lg" ta={{ base: 'left', md: 'center' }}>
        {t('home.how.afterSide')}
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder radius="lg" p="lg" className={classes.card}>
          <Group gap="md" wrap="nowrap" align="flex-start">
            <ThemeIcon size={44} radius="md" variant="light">
              <IconCpu size={24} stroke={1.7} />
            </ThemeIcon>
            <div>
              <Text fw={700} mb={4}>
                {t('home.how.workerTitle')}
              </Text>
              <Text size="sm" c="dimmed" lh={1.55}>
                {t('home.how.workerText')}
              </Text>
            </div>
          </Group>
        </Paper>
        <Paper withBorder radius="lg" p="lg" className={classes.card}>
          <Group gap="md" wrap="nowrap" align="flex-start">
            <ThemeIcon size={44} radius="md" variant="light" color="teal">
              <IconReportAnalytics size={24} stroke={1.7} />
            </ThemeIcon>
            <div>
              <Text fw={700} mb={4}>
                {t('home.how.analystTitle')}
              </Text>
              <Text size="sm" c="dimmed" lh={1.55}>
                {benchmarkCount === null
                  ? t('home.how.analystTextNoBase')
                  : t('home.how.analystText', { n: benchmarkCount })}
              </Text>
            </div>
          </Group>
        </Paper>
      </SimpleGrid>
    </>
  );
}
