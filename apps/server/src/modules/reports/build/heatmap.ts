/**
 * Gaze heatmaps as density grids (issue 13, item 3; design section 8): weighted points (fixations weighted by
 * their duration, or raw samples) binned into cells of `cell` content pixels, then smoothed by a Gaussian kernel
 * whose standard deviation is never narrower than the included respondents' measured gaze accuracy — a
 * heatmap must not look sharper than the data behind it. The blur is separable (rows, then columns), so a grid
 * costs O(cells × kernel width) whatever the number of points.
 */

export interface WeightedPoint {
  x: number;
  y: number;
  /** 1 when absent (a gaze sample). */
  weight?: number;
}

export interface HeatmapGrid {
  /** Cells across and down; `values[row * columns + column]`, scaled so that the densest cell is 1. */
  columns: number;
  rows: number;
  cell: number;
  values: Float32Array;
  /** The kernel used (content pixels): the wider of the one asked for and the gaze accuracy. */
  sigma: number;
  /** The sum of the weights that fell on the content. */
  total: number;
}

export function heatmapGrid(
  points: Iterable<WeightedPoint>,
  size: { width: number; height: number },
  options: { cell: number; sigma: number; accuracy: number | null },
): HeatmapGrid {
  const x: number[] = [];
  const y: number[] = [];
  const weight: number[] = [];
  for (const p of points) {
    x.push(p.x);
    y.push(p.y);
    weight.push(p.weight ?? 1);
  }
  return heatmapGridOf({ length: x.length, x, y, weight }, size, options);
}

/** The same over points column by column (`weight` absent: 1 each), without an object per point. */
export function heatmapGridOf(
  points: { length: number; x: ArrayLike<number>; y: ArrayLike<number>; weight?: ArrayLike<number> },
  size: { width: number; height: number },
  options: { cell: number; sigma: number; accuracy: number | null },
): HeatmapGrid {
  if (!(options.cell > 0) || !(size.width > 0) || !(size.height > 0)) throw new RangeError('empty heatmap');
  const columns = Math.ceil(size.width / options.cell);
  const rows = Math.ceil(size.height / options.cell);
  const grid = new Float32Array(columns * rows);
  let total = 0;
  for (let i = 0; i < points.length; i++) {
    const px = points.x[i] as number;
    const py = points.y[i] as number;
    const weight = points.weight ? (points.weight[i] as number) : 1;
    if (!(weight > 0) || !(px >= 0 && px < size.width && py >= 0 && py < size.height)) continue;
    const at = Math.floor(py / options.cell) * columns + Math.floor(px / options.cell);
    grid[at] = (grid[at] as number) + weight;
    total += weight;
  }
  const sigma = Math.max(options.sigma, options.accuracy ?? 0);
  const blurred = blur(grid, columns, rows, sigma / options.cell);
  let peak = 0;
  for (const v of blurred) if (v > peak) peak = v;
  if (peak > 0) for (let i = 0; i < blurred.length; i++) blurred[i] = (blurred[i] as number) / peak;
  return { columns, rows, cell: options.cell, values: blurred, sigma, total };
}

/** A normalised Gaussian kernel of standard deviation `sigma` cells, cut at 3σ. */
export function gaussianKernel(sigma: number): Float32Array {
  const radius = Math.max(0, Math.ceil(3 * sigma));
  const kernel = new Float32Array(2 * radius + 1);
  let sum = 0;
  for (let i = -radius; i <= radius; i++) {
    const v = sigma > 0 ? Math.exp(-(i * i) / (2 * sigma * sigma)) : i === 0 ? 1 : 0;
    kernel[i + radius] = v;
    sum += v;
  }
  for (let i = 0; i < kernel.length; i++) kernel[i] = (kernel[i] as number) / sum;
  return kernel;
}

/** Rows, then columns; what falls off the edges is lost (the content ends there). */
function blur(grid: Float32Array, columns: number, rows: number, sigma: number): Float32Array {
  const kernel = gaussianKernel(sigma);
  const across = new Float32Array(grid.length);
  convolve(grid, across, kernel, { lines: rows, length: columns, lineStride: columns, step: 1 });
  const out = new Float32Array(grid.length);
  convolve(across, out, kernel, { lines: columns, length: rows, lineStride: 1, step: columns });
  return out;
}

/**
 * One pass of the separable blur along each of `lines` lines of `length` cells: cell i of line l is at
 * `l · lineStride + i · step` (a row: stride `columns`, step 1; a column: stride 1, step `columns`). Empty cells
 * are skipped, so a sparse grid costs little.
 */
function convolve(
  input: Float32Array,
  output: Float32Array,
  kernel: Float32Array,
  axis: { lines: number; length: number; lineStride: number; step: number },
): void {
  const radius = (kernel.length - 1) / 2;
  for (let line = 0; line < axis.lines; line++) {
    const base = line * axis.lineStride;
    for (let i = 0; i < axis.length; i++) {
      const v = input[base + i * axis.step] as number;
      if (v === 0) continue;
      for (let k = Math.max(-radius, -i); k <= Math.min(radius, axis.length - 1 - i); k++) {
        const at = base + (i + k) * axis.step;
        output[at] = (output[at] as number) + v * (kernel[k + radius] as number);
      }
    }
  }
}
