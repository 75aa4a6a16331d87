import { Container, Paper, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useBenchmarkCreatives } from './benchmark-base.ts';
import { EMOTIONS } from './illustrations.tsx';
import { useFormatters } from './use-formatters.ts';

/** Calibration length of the new flow, spec section 9. */
const NEW_FLOW_CALIBRATION_SECONDS = 34;

/** The home page's figures: emotions measured, calibration, confidence level, and the benchmark base's real size. */
export function HomeStats() {
  const { t } = useTranslation('public');
  const { number } = useFormatters();
  const creatives = useBenchmarkCreatives();
  const items = [
    { key: 'emotions', value: number(EMOTIONS.length) },
    { key: 'calibration', value: t('home.stats.seconds', { seconds: number(NEW_FLOW_CALIBRATION_SECONDS) }) },
    { key: 'ci', value: number(0.95, { style: 'percent' }) },
    // The base's size only when it holds creatives (an installation starts with none).
    ...(creatives > 0 ? [{ key: 'benchmark', value: number(creatives) }] : []),
  ];
  return (
    <Container size="lg" mt={{ base: 32, md: 48 }}>
      <SimpleGrid cols={{ base: 2, md: items.length }} spacing={{ base: 'sm', md: 'lg' }} data-testid="home-stats">
        {items.map((item) => (
          <Paper
            key={item.key}
            withBorder
            radius="lg"
            p={{ base: 'md', md: 'lg' }}
            data-testid={`home-stat-${item.key}`}
          >
            <Text fz={{ base: 28, md: 36 }} fw={800} c="indigo.7" lh={1.1}>
              {item.value}
            </Text>
            <Text size="sm" c="dimmed" mt={6}>
              {t(`home.stats.${item.key}`)}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
    </Container>
  );
}
