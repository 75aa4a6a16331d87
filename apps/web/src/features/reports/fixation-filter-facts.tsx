import { FIXATION_FILTER, type ReportSnapshot } from '@emolens/contracts';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Which filter made the report's fixations and with which settings (issue 31, item 6; decision 042), as the
 * snapshot recorded them; a report built before the record says its fixations came from the earlier filter.
 */
export function FixationFilterFacts({ snapshot }: { snapshot: ReportSnapshot }) {
  const { t, i18n } = useTranslation('reports');
  const number = new Intl.NumberFormat(i18n.resolvedLanguage, { maximumFractionDigits: 2 });
  const used = snapshot.fixation_filter;
  if (!used) {
    return (
      <Stack gap={2} data-testid="report-fixation-filter">
        <Text size="xs" c="dimmed">
          {t('fixationFilter.title')}
        </Text>
        <Text size="xs" c="orange.8" data-testid="report-fixation-earlier">
          {t('fixationFilter.earlier', { name: FIXATION_FILTER.name })}
        </Text>
      </Stack>
    );
  }
  const s = used.settings;
  const noise =
    s.noise === 'none'
      ? t('fixationFilter.noiseNone')
      : t(s.noise === 'median' ? 'fixationFilter.noiseMedian' : 'fixationFilter.noiseAverage', { n: s.noiseWindow });
  return (
    <Stack gap={2} data-testid="report-fixation-filter">
      <Text size="xs" c="dimmed">
        {t('fixationFilter.title')}
      </Text>
      <Text size="sm" fw={600}>
        {used.name}
      </Text>
      <Text size="xs" c="dimmed" data-testid="report-fixation-settings">
        {t('fixationFilter.settings', {
          gap: number.format(s.gapFillMs),
          noise,
          window: number.format(s.velocityWindowMs),
          threshold: number.format(s.velocityThreshold),
          mergeGap: number.format(s.mergeGapMs),
          mergeAngle: number.format(s.mergeAngle),
          minDuration: number.format(s.minDurationMs),
          distance: number.format(used.distance_cm),
        })}
      </Text>
    </Stack>
  );
}
