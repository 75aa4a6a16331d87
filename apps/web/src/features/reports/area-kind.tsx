import { builtShape, type ReportArea } from '@emolens/contracts';
import { Badge, Group } from '@mantine/core';
import { IconClock, IconPolygon, IconRectangle, IconRoute } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * What an area is (issue 31 item 5, decision 044), for the areas table and cards: its shape (a rectangle, or a
 * polygon with its points), whether it moves (its key frames) and, on a video, the time window it counts in.
 */
export function AreaKind({
  area,
  isVideo,
  format,
  card = false,
}: {
  area: ReportArea;
  isVideo: boolean;
  format: (v: number) => string;
  /** On a phone's card (its test ids end in `-card`, the table's being on the same page, hidden). */
  card?: boolean;
}) {
  const id = (name: string) => (card ? `${name}-card` : name);
  const { t } = useTranslation('reportView');
  const shape = builtShape(area);
  const frames = area.key_frames?.length ?? 0;
  const window =
    area.from !== null && area.to !== null
      ? t('draw.window', { from: format(area.from), to: format(area.to) })
      : area.from !== null
        ? t('areas.windowFrom', { from: format(area.from) })
        : area.to !== null
          ? t('areas.windowTo', { to: format(area.to) })
          : isVideo
            ? t('areas.windowAll')
            : null;
  const badge = { size: 'sm', variant: 'light', radius: 'sm', tt: 'none', fw: 500 } as const;
  return (
    <Group gap={4} mt={4} wrap="wrap" data-testid={id('area-kind')}>
      {shape.kind === 'polygon' ? (
        <Badge {...badge} color="grape" leftSection={<IconPolygon size={12} />} data-testid={id('area-kind-shape')}>
          {t('areas.polygon', { count: shape.points.length })}
        </Badge>
      ) : (
        <Badge {...badge} color="gray" leftSection={<IconRectangle size={12} />} data-testid={id('area-kind-shape')}>
          {t('areas.rectangle')}
        </Badge>
      )}
      {frames > 0 && (
        <Badge {...badge} color="blue" leftSection={<IconRoute size={12} />} data-testid={id('area-kind-moving')}>
          {t('draw.moving', { count: frames })}
        </Badge>
      )}
      {window !== null && (
        <Badge {...badge} color="teal" leftSection={<IconClock size={12} />} data-testid={id('area-window')}>
          {window}
        </Badge>
      )}
    </Group>
  );
}
