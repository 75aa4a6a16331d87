import type { videoprocessesStatisticOutput } from '@emolens/contracts';
import { Group, Paper, Stack, Text } from '@mantine/core';
import { IconDeviceLaptop } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import type { z } from 'zod';

type DeviceAnalysis = NonNullable<z.infer<typeof videoprocessesStatisticOutput>['items'][number]['device_analysis']>;

/**
 * Privacy mode's fieldwork figures of a research (issue 32; decision 064): of the respondents whose device was
 * measured (N), the shares analysed on the device, fallen back to video upload, and stopped as too slow.
 */
export function DeviceAnalysisFigures({ figures }: { figures: DeviceAnalysis }) {
  const { t, i18n } = useTranslation('fieldwork');
  const language = i18n.resolvedLanguage ?? i18n.language;
  const percent = useMemo(
    () => new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 }),
    [language],
  );
  const share = (count: number) => (figures.measured ? percent.format(count / figures.measured) : '—');
  const rows = [
    ['onDevice', figures.on_device],
    ['fellBack', figures.fell_back],
    ['tooSlow', figures.too_slow],
  ] as const;
  return (
    <Paper withBorder radius="md" px="sm" py="xs" maw={520} data-testid="device-analysis">
      <Stack gap={4}>
        <Group gap={6}>
          <IconDeviceLaptop size={16} />
          <Text size="sm" fw={600}>
            {t('processes.device.title')}
          </Text>
        </Group>
        <Text size="xs" c="dimmed" data-testid="device-measured">
          {t('processes.device.measured', { count: figures.measured })}
        </Text>
        {rows.map(([key, count]) => (
          <Text key={key} size="sm" data-testid={`device-${key}`}>
            {t(`processes.device.${key}`, { share: share(count), count })}
          </Text>
        ))}
      </Stack>
    </Paper>
  );
}
