import { GAZE_DEGREE_ASSUMPTIONS } from '@emolens/contracts';
import { Group, Text, type TextProps } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatFixed } from '../i18n/format.ts';
import { InfoNote } from './info-note.tsx';

/**
 * Gaze accuracy in degrees of visual angle beside its px and % (decision 043), with the estimated distance and a note
 * on how both were estimated (the iris's size, the camera's assumed field of view, the CSS pixel's assumed size).
 * `degrees` and `distanceCm` come from the server; undefined (a result made before the estimate) shows as not known.
 */
/** How degrees are estimated (the iris's size, the camera's field of view, the CSS pixel's size), in the UI's language. */
export function degreesHow(t: TFunction, language: string): string {
  return t('gazeDegrees.how', {
    iris: formatFixed(GAZE_DEGREE_ASSUMPTIONS.irisMm, 1, language),
    fov: formatFixed(GAZE_DEGREE_ASSUMPTIONS.cameraHorizontalFovDegrees, 0, language),
    ppi: formatFixed(GAZE_DEGREE_ASSUMPTIONS.cssPxPerInch, 0, language),
  });
}

export function GazeDegrees({
  degrees,
  distanceCm,
  size = 'xs',
  testId = 'gaze-degrees',
  ...text
}: {
  degrees: number | null | undefined;
  distanceCm: number | null | undefined;
  size?: TextProps['size'];
  testId?: string;
} & Omit<TextProps, 'size'>) {
  const { t, i18n } = useTranslation();
  const number = (value: number, digits: number) => formatFixed(value, digits, i18n.language);
  const known = degrees !== null && degrees !== undefined && distanceCm !== null && distanceCm !== undefined;
  const how = degreesHow(t, i18n.language);
  const label = known ? how : `${t('gazeDegrees.noDistance')} ${how}`;
  return (
    <Group gap={4} wrap="nowrap" data-testid={testId}>
      <Text size={size} c="dimmed" style={{ whiteSpace: 'nowrap' }} {...text}>
        {known
          ? t('gazeDegrees.value', { degrees: number(degrees, degrees < 10 ? 2 : 1), cm: number(distanceCm, 0) })
          : t('gazeDegrees.unknown')}
      </Text>
      <InfoNote label={label} testId={`${testId}-how`} maw={300} />
    </Group>
  );
}
