import { GAZE_DEGREE_ASSUMPTIONS } from '@emolens/contracts';
import { Group, Text, type TextProps, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * Gaze accuracy in degrees of visual angle beside its px and % (decision 043), with the estimated distance and a note
 * on how both were estimated (the iris's size, the camera's assumed field of view, the CSS pixel's assumed size).
 * `degrees` and `distanceCm` come from the server; undefined (a result made before the estimate) shows as not known.
 */
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
  const number = (value: number, digits: number) =>
    value.toLocaleString(i18n.language, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const known = degrees !== null && degrees !== undefined && distanceCm !== null && distanceCm !== undefined;
  const how = t('gazeDegrees.how', {
    iris: number(GAZE_DEGREE_ASSUMPTIONS.irisMm, 1),
    fov: number(GAZE_DEGREE_ASSUMPTIONS.cameraHorizontalFovDegrees, 0),
    ppi: number(GAZE_DEGREE_ASSUMPTIONS.cssPxPerInch, 0),
  });
  const label = known ? how : `${t('gazeDegrees.noDistance')} ${how}`;
  return (
    <Group gap={4} wrap="nowrap" data-testid={testId}>
      <Text size={size} c="dimmed" style={{ whiteSpace: 'nowrap' }} {...text}>
        {known
          ? t('gazeDegrees.value', { degrees: number(degrees, degrees < 10 ? 2 : 1), cm: number(distanceCm, 0) })
          : t('gazeDegrees.unknown')}
      </Text>
      <Tooltip label={label} withArrow multiline maw={300} events={{ hover: true, focus: true, touch: true }}>
        <span
          role="img"
          aria-label={label}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the note opens on focus for keyboards and touch
          tabIndex={0}
          style={{ display: 'inline-flex', color: 'var(--mantine-color-dimmed)', cursor: 'help' }}
          data-testid={`${testId}-how`}
        >
          <IconInfoCircle size={14} stroke={1.6} />
        </span>
      </Tooltip>
    </Group>
  );
}
