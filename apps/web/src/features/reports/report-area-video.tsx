import type { AreaKeyFrame } from '@emolens/contracts';
import { Button, Group, NumberInput, Slider, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../i18n/messages.ts';

/** A video's frame to draw on, the new area's key frames and its time window. */
export function VideoControls({
  at,
  duration,
  seek,
  pending,
  keyFrames,
  keyFrameFits,
  setKeyFrame,
  clearKeyFrames,
  timeWindow,
  setTimeWindow,
}: {
  at: number;
  duration: number;
  seek: (second: number) => void;
  pending: boolean;
  keyFrames: AreaKeyFrame[];
  keyFrameFits: boolean;
  setKeyFrame: () => void;
  clearKeyFrames: () => void;
  timeWindow: [number, number];
  setTimeWindow: (update: (current: [number, number]) => [number, number]) => void;
}) {
  const { t } = useTranslation('reportView');
  const max = Math.max(0, Math.round(duration * 10) / 10);
  return (
    <Stack gap="xs">
      <Stack gap={4}>
        <Text size="xs" c="dimmed">
          {t('draw.frame', { second: at })}
        </Text>
        <Slider
          min={0}
          max={max}
          step={0.1}
          value={at}
          onChange={seek}
          label={(v) => `${v} s`}
          marks={keyFrames.map((k) => ({ value: k.t }))}
          aria-label={t('draw.frameLabel')}
          data-testid="area-frame"
        />
      </Stack>
      {pending && (
        <>
          <Text size="xs" c="dimmed">
            {t('draw.keyFrameHint')}
          </Text>
          <Group gap="xs" align="center">
            <Button
              size="xs"
              variant="light"
              onClick={setKeyFrame}
              disabled={!keyFrameFits}
              data-testid="area-key-frame"
            >
              {t('draw.keyFrame', { second: at })}
            </Button>
            {keyFrames.length > 0 && (
              <>
                <Text size="xs" data-testid="area-key-frames">
                  {t('draw.keyFrames', { count: keyFrames.length })}
                </Text>
                <Button size="xs" variant="subtle" color="gray" onClick={clearKeyFrames}>
                  {t('draw.removeKeyFrames')}
                </Button>
              </>
            )}
            {!keyFrameFits && (
              <Text size="xs" c="red">
                {translateMessage({ key: 'report.areaKeyFrameShape' })}
              </Text>
            )}
          </Group>
          <Group gap="xs" align="flex-end">
            <NumberInput
              label={t('draw.from')}
              value={timeWindow[0]}
              min={0}
              max={duration}
              decimalScale={1}
              onChange={(v) => setTimeWindow(([, to]) => [typeof v === 'number' ? v : 0, to])}
              w={120}
              data-testid="area-from"
            />
            <NumberInput
              label={t('draw.to')}
              value={timeWindow[1]}
              min={0}
              max={duration}
              decimalScale={1}
              onChange={(v) => setTimeWindow(([from]) => [from, typeof v === 'number' ? v : duration])}
              error={timeWindow[1] <= timeWindow[0] ? translateMessage({ key: 'report.areaWindow' }) : undefined}
              w={120}
              data-testid="area-to"
            />
          </Group>
        </>
      )}
    </Stack>
  );
}
