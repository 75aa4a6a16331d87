import { Box, Group, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { type KeyboardEvent, type MouseEvent, useMemo } from 'react';

export interface ChartLine {
  key: string;
  label: string;
  color: string;
  /** One value per second of `seconds`; null where nothing was measured. */
  values: (number | null)[];
  seconds: number[];
}

const PAD = { left: 36, right: 20, top: 8, bottom: 24 };

/** "m:ss" of a second count. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

function pathOf(line: ChartLine, x: (t: number) => number, y: (v: number) => number): string {
  let d = '';
  let open = false;
  for (let i = 0; i < line.values.length; i++) {
    const v = line.values[i];
    const t = line.seconds[i];
    if (v === null || v === undefined || t === undefined) {
      open = false;
      continue;
    }
    // A bucket covers its whole second: the point sits at its middle.
    d += `${open ? 'L' : 'M'}${x(t + 0.5).toFixed(1)},${y(v).toFixed(1)}`;
    open = true;
  }
  return d;
}

/**
 * Curves over the video's time (drawn as SVG): one cursor at the video's current time; a click seeks
 * the video there. Lines with a gap (no face) break instead of bridging it.
 */
export function TimeChart({
  lines,
  duration,
  domain,
  current,
  onSeek,
  height = 180,
  testId,
  label,
}: {
  /** What the chart shows (its accessible name). */
  label: string;
  lines: ChartLine[];
  duration: number;
  domain: [number, number];
  current: number;
  onSeek: (seconds: number) => void;
  height?: number;
  testId?: string;
}) {
  const { ref, width } = useElementSize();
  const w = Math.max(width, 200);
  const span = Math.max(duration, 1);
  const x = (t: number) => PAD.left + (t / span) * (w - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - domain[0]) / (domain[1] - domain[0])) * (height - PAD.top - PAD.bottom);
  // biome-ignore lint/correctness/useExhaustiveDependencies: x and y follow w, span, domain and height
  const paths = useMemo(() => lines.map((line) => ({ line, d: pathOf(line, x, y) })), [lines, w, span, domain, height]);
  const ticks = useMemo(() => {
    const step = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800].find((s) => span / s <= 8) ?? 3600;
    return Array.from({ length: Math.floor(span / step) + 1 }, (_, i) => i * step);
  }, [span]);
  const yTicks = domain[0] < 0 ? [domain[0], 0, domain[1]] : [domain[0], (domain[0] + domain[1]) / 2, domain[1]];

  const seek = (event: MouseEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const px = ((event.clientX - box.left) / box.width) * w;
    onSeek(Math.min(span, Math.max(0, ((px - PAD.left) / (w - PAD.left - PAD.right)) * span)));
  };

  // The chart is a slider over the video's time: arrows step a second, with Shift ten.
  const key = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? 10 : 1;
    if (event.key === 'ArrowRight') onSeek(Math.min(span, current + step));
    else if (event.key === 'ArrowLeft') onSeek(Math.max(0, current - step));
    else return;
    event.preventDefault();
  };

  return (
    <Box data-testid={testId}>
      <Box
        ref={ref}
        w="100%"
        onClick={seek}
        onKeyDown={key}
        style={{ cursor: 'pointer' }}
        role="slider"
        tabIndex={0}
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={Math.round(span)}
        aria-valuenow={Math.round(current)}
        aria-valuetext={clock(current)}
      >
        <svg width="100%" height={height} viewBox={`0 0 ${w} ${height}`} style={{ display: 'block' }} aria-hidden>
          {yTicks.map((v) => (
            <g key={v}>
              <line
                x1={PAD.left}
                x2={w - PAD.right}
                y1={y(v)}
                y2={y(v)}
                stroke="var(--mantine-color-gray-3)"
                strokeDasharray={v === 0 ? undefined : '3 3'}
              />
              <text x={PAD.left - 4} y={y(v) + 4} fontSize={10} textAnchor="end" fill="var(--mantine-color-dimmed)">
                {v}
              </text>
            </g>
          ))}
          {ticks.map((t) => (
            <text
              key={t}
              x={x(t)}
              y={height - 4}
              fontSize={10}
              textAnchor={t === 0 ? 'start' : t >= span ? 'end' : 'middle'}
              fill="var(--mantine-color-dimmed)"
            >
              {clock(t)}
            </text>
          ))}
          {paths.map(({ line, d }) => (
            <path key={line.key} d={d} fill="none" stroke={line.color} strokeWidth={1.8} strokeLinejoin="round" />
          ))}
          <line
            data-testid="chart-cursor"
            x1={x(Math.min(current, span))}
            x2={x(Math.min(current, span))}
            y1={PAD.top}
            y2={height - PAD.bottom}
            stroke="var(--mantine-color-dark-6)"
            strokeWidth={1.5}
          />
        </svg>
      </Box>
      <Group gap="md" mt={4} wrap="wrap">
        {lines.map((line) => (
          <Group key={line.key} gap={6} wrap="nowrap">
            <Box w={12} h={3} style={{ background: line.color, borderRadius: 2 }} />
            <Text size="xs" c="dimmed">
              {line.label}
            </Text>
          </Group>
        ))}
      </Group>
    </Box>
  );
}
