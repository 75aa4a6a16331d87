import type { GazeDrift } from '@emolens/contracts';
import { Group, Text, type TextProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatFixed } from '../i18n/format.ts';
import { driftView } from './gaze-drift-view.ts';
import { InfoNote } from './info-note.tsx';

/**
 * A respondent's drift (decision 053): the gaze's mean offset on the drift checkpoint dots shown during the content,
 * in px, % of the screen's diagonal and degrees at the estimated distance (as the accuracy, whose note says how the
 * degrees were estimated), with a short note on what it is (the offset taken off the gaze between the checkpoints),
 * its largest, the checkpoints used and whether the gaze was corrected; "—" and a short reason without a checkpoint
 * or without a measured one.
 */
export function GazeDriftFigure({
  drift,
  distanceCm,
  size = 'xs',
  testId = 'gaze-drift',
  ...text
}: {
  drift: GazeDrift | null | undefined;
  distanceCm: number | null | undefined;
  size?: TextProps['size'];
  testId?: string;
} & Omit<TextProps, 'size'>) {
  const { t, i18n } = useTranslation();
  const number = (value: number, digits: number) => formatFixed(value, digits, i18n.language);
  const view = driftView(drift, distanceCm);
  const px = (value: number) => t('gazeDrift.px', { px: number(value, value < 10 ? 1 : 0) });
  let parts: string[];
  let why: string[];
  if (view.state === 'measured') {
    parts = [
      px(view.px),
      ...(view.percent === null ? [] : [t('gazeDrift.percent', { percent: number(view.percent, 2) })]),
      view.degrees === null
        ? t('gazeDegrees.unknown')
        : t('gazeDrift.degrees', { degrees: number(view.degrees, view.degrees < 10 ? 2 : 1) }),
    ];
    why = [
      t('gazeDrift.used', { count: view.checkpoints, max: view.maxPx === null ? '—' : px(view.maxPx) }),
      view.corrected ? t('gazeDrift.corrected') : t('gazeDrift.notCorrected'),
      view.degrees === null ? t('gazeDrift.noDistance') : t('gazeDrift.degreesHow'),
    ];
  } else if (view.state === 'unmeasured') {
    parts = [`— (${t('gazeDrift.notMeasured')})`];
    why = [t('gazeDrift.notMeasuredWhy')];
  } else {
    parts = [`— (${t('gazeDrift.none')})`];
    why = [t('gazeDrift.noneWhy')];
  }
  const how = [t('gazeDrift.how'), ...why].join(' ');
  return (
    <Group gap={4} wrap="nowrap" data-testid={testId} data-state={view.state}>
      <Text size={size} c="dimmed" {...text}>
        {t('gazeDrift.label')}: {parts.join(' · ')}
      </Text>
      <InfoNote label={how} testId={`${testId}-how`} />
    </Group>
  );
}
