import type { DotTestResult } from '@emolens/contracts';
import { Box, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const DOT_COLOR = 'var(--mantine-color-blue-7)';
const GAZE_COLOR = 'var(--mantine-color-orange-6)';
const MISSING_COLOR = 'var(--mantine-color-gray-5)';

/**
 * The respondent's screen drawn to fit the page, with each validation dot, where the gaze was
 * measured on it and a line between them (the error). Gaze off the screen widens the view so it is
 * still drawn; sizes are in the screen's own pixels, so the picture scales as a whole.
 */
export function AccuracyDrawing({ result }: { result: DotTestResult }) {
  const { t } = useTranslation('respondent');
  const { width, height } = result.screen;
  const diagonal = Math.hypot(width, height);
  const r = diagonal * 0.014;
  const pad = diagonal * 0.02;
  let minX = 0;
  let minY = 0;
  let maxX = width;
  let maxY = height;
  for (const v of result.validation) {
    if (v.gaze_x === null || v.gaze_y === null) continue;
    minX = Math.min(minX, v.gaze_x);
    minY = Math.min(minY, v.gaze_y);
    maxX = Math.max(maxX, v.gaze_x);
    maxY = Math.max(maxY, v.gaze_y);
  }
  // A wild estimate far off the screen must not shrink the screen to a speck.
  const limit = diagonal * 0.5;
  minX = Math.max(minX, -limit);
  minY = Math.max(minY, -limit);
  maxX = Math.min(maxX, width + limit);
  maxY = Math.min(maxY, height + limit);
  const clampX = (x: number) => Math.min(maxX, Math.max(minX, x));
  const clampY = (y: number) => Math.min(maxY, Math.max(minY, y));
  const viewBox = `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`;

  return (
    <Box>
      <Box
        component="svg"
        viewBox={viewBox}
        role="img"
        aria-label={t('dotTest.drawingLabel', { count: result.validation.length })}
        data-testid="dot-test-drawing"
        style={{ width: '100%', height: 'auto', maxHeight: 420, display: 'block' }}
      >
        <rect
          x={0}
          y={0}
          width={width}
          height={height}
          rx={diagonal * 0.006}
          fill="var(--mantine-color-gray-0)"
          stroke="var(--mantine-color-gray-5)"
          strokeWidth={diagonal * 0.002}
        />
        {result.validation.map((v, i) => {
          const measured = v.gaze_x !== null && v.gaze_y !== null;
          const gx = measured ? clampX(v.gaze_x as number) : 0;
          const gy = measured ? clampY(v.gaze_y as number) : 0;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the dots are a fixed list in the order shown
            <g key={i} data-testid="dot-test-point">
              {measured && (
                <line
                  x1={v.x}
                  y1={v.y}
                  x2={gx}
                  y2={gy}
                  stroke={GAZE_COLOR}
                  strokeWidth={diagonal * 0.004}
                  strokeDasharray={`${diagonal * 0.008} ${diagonal * 0.005}`}
                />
              )}
              <circle
                cx={v.x}
                cy={v.y}
                r={r}
                fill="white"
                stroke={measured ? DOT_COLOR : MISSING_COLOR}
                strokeWidth={diagonal * 0.003}
              />
              <circle cx={v.x} cy={v.y} r={r * 0.35} fill={measured ? DOT_COLOR : MISSING_COLOR} />
              {measured ? (
                <circle cx={gx} cy={gy} r={r * 0.6} fill={GAZE_COLOR} fillOpacity={0.85} />
              ) : (
                <title>{t('dotTest.noGaze')}</title>
              )}
            </g>
          );
        })}
      </Box>
      <Group gap="lg" mt="xs" justify="center" wrap="wrap">
        <Legend color={DOT_COLOR} ring label={t('dotTest.legendDot')} />
        <Legend color={GAZE_COLOR} label={t('dotTest.legendGaze')} />
        <Group gap={6} wrap="nowrap">
          <Box w={22} style={{ borderTop: `2px dashed ${GAZE_COLOR}` }} />
          <Text size="sm" c="dimmed">
            {t('dotTest.legendLine')}
          </Text>
        </Group>
        <Text size="sm" c="dimmed">
          {t('dotTest.screenSize', { width, height })}
        </Text>
      </Group>
    </Box>
  );
}

function Legend({ color, label, ring = false }: { color: string; label: string; ring?: boolean }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Box
        w={12}
        h={12}
        style={{
          borderRadius: '50%',
          background: ring ? 'white' : color,
          border: ring ? `2px solid ${color}` : undefined,
        }}
      />
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Group>
  );
}
