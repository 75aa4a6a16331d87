import { useTranslation } from 'react-i18next';
import type { Rect } from './zone-geometry.ts';

// The zones' colours and how their sizes read, shared by the zone editor, its canvas and its new-zone dialog.

const ZONE_COLORS = ['blue', 'orange', 'teal', 'grape', 'pink', 'cyan', 'lime', 'indigo', 'red', 'yellow'];

export interface Size {
  width: number;
  height: number;
}

export const zoneColor = (index: number) => `var(--mantine-color-${ZONE_COLORS[index % ZONE_COLORS.length]}-6)`;

export function usePercent() {
  const { i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  return (fraction: number) => format.format(fraction);
}

/** "25 % × 30 % · 320 × 180 px": a zone's size, in pixels too when the image's own size is known. */
export function useZoneSize() {
  const { t } = useTranslation('content');
  const percent = usePercent();
  return (rect: Pick<Rect, 'width' | 'height'>, natural: Size | null) => {
    const parts = [t('zones.size', { width: percent(rect.width), height: percent(rect.height) })];
    if (natural) {
      parts.push(
        t('units.pixels', {
          width: Math.round(rect.width * natural.width),
          height: Math.round(rect.height * natural.height),
        }),
      );
    }
    return parts.join(' · ');
  };
}
