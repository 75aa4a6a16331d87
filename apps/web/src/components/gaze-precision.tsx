import { Group, Text, type TextProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatFixed } from '../i18n/format.ts';
import { degreesHow } from './gaze-degrees.tsx';
import { InfoNote } from './info-note.tsx';

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
  const number = (value: number, digits: number) => formatFixed(value, digits, i18n.language);
  const measured = px !== null && px !== undefined;
  const withDegrees = measured && degrees !== null && degrees !== undefined && distanceCm != null;
  const how = [
    t('gazePrecision.how'),
    withDegrees
      ? degreesHow(t, i18n.language)
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
      <InfoNote label={how} testId={`${testId}-how`} />
    </Group>
  );
}
