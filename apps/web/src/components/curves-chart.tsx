import { type CurvesOption, clock, cursorUpdate } from '@emolens/contracts/charts';
import { Box } from '@mantine/core';
import { LineChart } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  MarkPointComponent,
  TooltipComponent,
} from 'echarts/components';
import { type EChartsType, init, use } from 'echarts/core';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';
import { type KeyboardEvent, useEffect, useRef } from 'react';

use([
  LineChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  MarkLineComponent,
  MarkPointComponent,
  CanvasRenderer,
  SVGRenderer,
]);

/**
 * Curves over a video's time drawn by ECharts — the report's (`curvesOption`) and interview analysis' lines
 * (`timeLinesOption`), both from `@emolens/contracts/charts` —, the time cursor moved on its own (no rebuild per
 * video tick). With `onSeek`, a click on the plot (or the arrow keys) asks for that second. Canvas by default; SVG
 * for a few short lines (sharper, and each line an element of the page).
 */
export function CurvesChart({
  option,
  cursor,
  onSeek,
  span,
  height,
  label,
  testId,
  renderer = 'canvas',
}: {
  option: CurvesOption;
  /** The cursor's time in seconds; null: none. */
  cursor: number | null;
  onSeek?: (seconds: number) => void;
  /** The time axis' end (seconds): how far the keys may move the cursor. */
  span: number;
  height: number;
  /** The chart's accessible name. */
  label: string;
  testId?: string;
  /** How it is drawn, fixed for the chart's life. */
  renderer?: 'canvas' | 'svg';
}) {
  const rendererRef = useRef(renderer);
  const ref = useRef<HTMLDivElement>(null);
  const chartRef = useRef<EChartsType | null>(null);
  const seekRef = useRef(onSeek);
  seekRef.current = onSeek;

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const chart = init(element, undefined, { renderer: rendererRef.current });
    chartRef.current = chart;
    const zr = chart.getZr();
    const inPlot = (x: number, y: number) => chart.containPixel({ gridIndex: 0 }, [x, y]);
    zr.on('click', (event) => {
      if (!seekRef.current || !inPlot(event.offsetX, event.offsetY)) return;
      const [seconds] = chart.convertFromPixel({ gridIndex: 0 }, [event.offsetX, event.offsetY]) as number[];
      if (seconds !== undefined && Number.isFinite(seconds)) seekRef.current(Math.max(0, seconds));
    });
    zr.on('mousemove', (event) => {
      if (seekRef.current && inPlot(event.offsetX, event.offsetY)) zr.setCursorStyle('pointer');
    });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.dispose();
      chartRef.current = null;
    };
  }, []);

  useEffect(() => {
    chartRef.current?.setOption(option, { notMerge: true });
  }, [option]);

  // After the option (which resets the cursor), and on every move of the video.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new option drops the cursor, so it is set again
  useEffect(() => {
    chartRef.current?.setOption(cursorUpdate(cursor));
  }, [cursor, option]);

  // A keyboard user moves through the time like a slider: arrows a second, with Shift ten.
  const key = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!onSeek) return;
    const step = event.shiftKey ? 10 : 1;
    const now = cursor ?? 0;
    if (event.key === 'ArrowRight') onSeek(Math.min(span, now + step));
    else if (event.key === 'ArrowLeft') onSeek(Math.max(0, now - step));
    else return;
    event.preventDefault();
  };

  return onSeek ? (
    <Box
      ref={ref}
      h={height}
      w="100%"
      data-testid={testId}
      role="slider"
      tabIndex={0}
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={Math.round(span)}
      aria-valuenow={Math.round(cursor ?? 0)}
      aria-valuetext={clock(cursor ?? 0)}
      onKeyDown={key}
    />
  ) : (
    <Box ref={ref} h={height} w="100%" data-testid={testId} role="img" aria-label={label} />
  );
}
