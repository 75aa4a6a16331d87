import { GAZE_DEGREE_ASSUMPTIONS } from '@emolens/contracts';
import { Group, Text, type TextProps, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * Gaze precision on the validation dots (decision 052) in px, % of the screen's diagonal and degrees at the estimated
 * distance, with a note on what it measures (RMS from sample to sample of the gaze the reports use) and how the degrees
 * were estimated (decision 043). Undefined or null figures (a result made before precision was measured, too few
 * samples) show as not measured, and the note says why.
 */
export function GazePrecisionFigure({
  pixels: px,
  percent,
  degrees,
  distanceCm,
  size = 'xs',
  testId = 'gaze-precision',
  ...text
}: {
  /** Screen CSS px. */
  pixels: number | null | undefined;
  /** % of the screen's diagonal (0..100). */
  percent: number | null | undefined;
  degrees: number | null | undefined;
  distanceCm: number | null | undefined;
  size?: TextProps['size'];
  testId?: string;
} & Omit<TextProps, 'size'>) {
  const { t, i18n } = useTranslation();
  const number = (value: number, digits: number) =>
    value.toLocaleString(i18n.language, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const measured = px !== null && px !== undefined;
  const withDegrees = measured && degrees !== null && degrees !== undefined && distanceCm != null;
  const how = [
    t('gazePrecision.how'),
    withDegrees
      ? t('gazeDegrees.how', {
          iris: number(GAZE_DEGREE_ASSUMPTIONS.irisMm, 1),
          fov: number(GAZE_DEGREE_ASSUMPTIONS.cameraHorizontalFovDegrees, 0),
          ppi: number(GAZE_DEGREE_ASSUMPTIONS.cssPxPerInch, 0),
        })
      : measured
        ? t('gazeDegrees.noDistance')
        : t('gazePrecision.notMeasured'),
  ].join(' ');
  const parts = measured
    ? [
        t('gazePrecision.px', { px: number(px, px < 10 ? 1 : 0) }),
        ...(percent !== null && percent !== undefined
          ? [t('gazePrecision.percent', { percent: number(percent, 2) })]
          : []),
        withDegrees
          ? t('gazePrecision.degrees', { degrees: number(degrees, degrees < 10 ? 2 : 1) })
          : t('gazeDegrees.unknown'),
      ]
    : [t('gazePrecision.unknown')];
  return (
    <Group gap={4} wrap="nowrap" data-testid={testId}>
      <Text size={size} c="dimmed" {...text}>
        {t('gazePrecision.label')}: {parts.join(' · ')}
      </Text>
      <Tooltip label={how} withArrow multiline maw={320} events={{ hover: true, focus: true, touch: true }}>
        <span
          role="img"
          aria-label={how}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the note opens on focus for keyboards and touch
          tabIndex={0}
          style={{ display: 'inline-flex', color: 'var(--mantine-color-dimmed)', cursor: 'help', flex: 'none' }}
          data-testid={`${testId}-how`}
        >
          <IconInfoCircle size={14} stroke={1.6} />
        </span>
      </Tooltip>
    </Group>
  );
}
