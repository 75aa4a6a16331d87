import type { HeatmapGrid, ReportMetric } from './reports.ts';

/**
 * A report's colours: each metric's curve, compared segments, key moments, and how a density grid (heatmap) is
 * coloured. One home for the cabinet's charts and canvas and the server's presentation and video renderings, so a
 * report looks the same wherever it is drawn.
 */
export const METRIC_COLORS: Record<ReportMetric, string> = {
  engagement: '#d6336c',
  valence: '#66a80f',
  attention: '#1098ad',
  smile: '#0ca678',
  neutral: '#868e96',
  happy: '#f59f00',
  surprise: '#ae3ec9',
  sad: '#4263eb',
  angry: '#e03131',
  disgust: '#2b8a3e',
  fear: '#7048e8',
};
/** Segments compared: one colour each, in the snapshot's order. */
export const SEGMENT_COLORS = ['#1c7ed6', '#e8590c', '#2b8a3e', '#c2255c', '#7048e8', '#0b7285', '#5c940d', '#862e9c'];
export const MOMENT_COLORS = { peak: '#2f9e44', drop: '#e03131' } as const;

export const HEATMAP_THEMES = ['colour', 'dark'] as const;
export type HeatmapTheme = (typeof HEATMAP_THEMES)[number];

/** The colour theme's ramp: blue → green → yellow → red. */
const RAMP: readonly (readonly [number, readonly [number, number, number]])[] = [
  [0, [0, 64, 255]],
  [1 / 3, [0, 200, 80]],
  [2 / 3, [255, 230, 0]],
  [1, [230, 0, 0]],
];

/**
 * A cell's RGBA (0–255) for a density `v` (0–1). Colour: along the ramp, transparent at 0 and opaque from half
 * the densest cell up. Dark: black, as opaque as the place was unseen (alpha = 1 − v).
 */
export function cellColour(v: number, theme: HeatmapTheme): [number, number, number, number] {
  const d = Math.min(1, Math.max(0, Number.isFinite(v) ? v : 0));
  if (theme === 'dark') return [0, 0, 0, Math.round(255 * (1 - d))];
  if (d === 0) return [0, 0, 0, 0];
  let i = 1;
  while (i < RAMP.length - 1 && d > (RAMP[i]?.[0] ?? 1)) i++;
  const [p0, c0] = RAMP[i - 1] ?? RAMP[0] ?? [0, [0, 0, 0]];
  const [p1, c1] = RAMP[i] ?? [1, c0];
  const f = p1 === p0 ? 0 : (d - p0) / (p1 - p0);
  const mix = (a: number, b: number) => Math.round(a + (b - a) * f);
  return [mix(c0[0], c1[0]), mix(c0[1], c1[1]), mix(c0[2], c1[2]), Math.round(255 * Math.min(1, 2 * d))];
}

/** Whether a grid has anything to draw (a second nobody looked at draws nothing, in either theme). */
export function drawable(grid: HeatmapGrid | null | undefined): grid is HeatmapGrid {
  return !!grid && grid.samples > 0 && grid.cols > 0 && grid.rows > 0 && grid.cells.length === grid.cols * grid.rows;
}

/**
 * The grid as an RGBA image, `pad` cells wider on each side with the edge cells repeated (so a blur drawn
 * beyond the picture's edge does not fade it there).
 */
export function gridImage(
  grid: HeatmapGrid,
  theme: HeatmapTheme,
  pad = 0,
): { width: number; height: number; data: Uint8ClampedArray<ArrayBuffer> } {
  const width = grid.cols + 2 * pad;
  const height = grid.rows + 2 * pad;
  const data = new Uint8ClampedArray(new ArrayBuffer(width * height * 4));
  const lookup = new Map<number, [number, number, number, number]>();
  for (let y = 0; y < height; y++) {
    const row = Math.min(grid.rows - 1, Math.max(0, y - pad));
    for (let x = 0; x < width; x++) {
      const col = Math.min(grid.cols - 1, Math.max(0, x - pad));
      const cell = grid.cells[row * grid.cols + col] ?? 0;
      let rgba = lookup.get(cell);
      if (!rgba) {
        rgba = cellColour(cell / 255, theme);
        lookup.set(cell, rgba);
      }
      data.set(rgba, (y * width + x) * 4);
    }
  }
  return { width, height, data };
}
