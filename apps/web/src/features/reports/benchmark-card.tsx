import { type ReportBenchmark, reportFormat } from '@emolens/contracts';
import { Alert, Badge, Group, Paper, Progress, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useResearchFormat } from '../researches/research-ui.tsx';

/** Under this many researches and norms a percentile is shown as indicative. */
const SMALL_BASE = 10;

const colorOf = (percentile: number) => (percentile >= 75 ? 'teal' : percentile < 25 ? 'red' : 'blue');

/** The report's benchmark (decision 016): each key metric, its percentile among the base, and the base's size. */
export function BenchmarkCard({ benchmark }: { benchmark: ReportBenchmark }) {
  const { t, i18n } = useTranslation('reportView');
  // Shares as percents, valence signed, the score out of 100: as the presentation writes them.
  const value = reportFormat(i18n.resolvedLanguage ?? 'en');
  const tc = useTranslation('researches').t;
  const format = useResearchFormat();
  const base = benchmark.researches + benchmark.imported;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="report-benchmark">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={2}>
            <Title order={3} size="h4">
              {t('benchmark.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('benchmark.base', {
                subtype: benchmark.subtype,
                contentType: tc(`contentTypes.${benchmark.content_type}`),
                researches: format.number(benchmark.researches),
                imported: format.number(benchmark.imported),
              })}
            </Text>
          </Stack>
          <Badge variant="light" color={base >= SMALL_BASE ? 'blue' : 'orange'} data-testid="benchmark-base-size">
            {t('benchmark.baseSize', { n: format.number(base) })}
          </Badge>
        </Group>
        {base === 0 ? (
          <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />}>
            {t('benchmark.emptyBase')}
          </Alert>
        ) : base < SMALL_BASE ? (
          <Alert variant="light" color="orange" icon={<IconInfoCircle size={18} />}>
            {t('benchmark.smallBase', { n: SMALL_BASE })}
          </Alert>
        ) : null}
        {!benchmark.whole_sample && (
          <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} data-testid="benchmark-filtered">
            {t('benchmark.filtered')}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="md">
          {benchmark.metrics.map((m) => (
            <Stack key={m.metric} gap={6} data-testid={`benchmark-${m.metric}`}>
              <Text size="sm" c="dimmed">
                {t(`benchmark.metrics.${m.metric}`)}
              </Text>
              <Text fw={700} size="xl">
                {value.benchmarkValue(m.metric, m.value)}
              </Text>
              {m.percentile === null ? (
                <Text size="xs" c="dimmed">
                  {t('benchmark.noPercentile')}
                </Text>
              ) : (
                <Tooltip label={t('benchmark.percentileHint', { p: Math.round(m.percentile) })}>
                  <Stack gap={4}>
                    <Progress value={m.percentile} color={colorOf(m.percentile)} size="md" radius="xl" />
                    <Text size="xs" fw={600} c={colorOf(m.percentile)}>
                      {t('benchmark.percentile', { p: Math.round(m.percentile) })}
                    </Text>
                  </Stack>
                </Tooltip>
              )}
            </Stack>
          ))}
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('benchmark.method')}
        </Text>
      </Stack>
    </Paper>
  );
}
