import { drawable, gridImage, type HeatmapGrid, type HeatmapTheme } from '@emolens/contracts';
import { Resvg } from '@resvg/resvg-js';
import type { EChartsOption } from 'echarts';
import * as echarts from 'echarts';
import { encodePng } from './png.ts';

/**
 * Server-side drawing for a report's presentation and video export: ECharts options rendered to SVG (its
 * server-side renderer, no DOM), SVG rasterised to PNG by resvg with the system's fonts, heatmap grids coloured
 * as the cabinet colours them. CPU work: it runs in the report-file job, never on the API's event loop.
 */

/** Latin, Cyrillic and Hangul in one family where installed (fonts-noto-cjk), else DejaVu. */
export const FONT_FAMILY = "'Noto Sans CJK KR', 'DejaVu Sans', sans-serif";

/** An SVG as PNG bytes, `width` pixels wide when given (else its own size). */
export function svgToPng(svg: string, options: { width?: number; background?: string } = {}): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: options.width ? { mode: 'width', value: options.width } : { mode: 'original' },
    background: options.background,
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
  });
  return Buffer.from(resvg.render().asPng());
}

/** An ECharts option drawn at `width` × `height` CSS pixels, rasterised at `scale` (sharp on slides). */
export function chartPng(option: EChartsOption, width: number, height: number, scale = 2): Buffer {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ animation: false, textStyle: { fontFamily: FONT_FAMILY }, ...option });
    return svgToPng(chart.renderToSVGString(), { width: width * scale, background: '#ffffff' });
  } finally {
    chart.dispose();
  }
}

const dataUri = (mime: string, bytes: Uint8Array) => `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;

/**
 * The heatmap layer as SVG markup over a `width` × `height` box: the grid coloured by the theme (edge cells
 * repeated so the blur does not fade the edges), stretched smoothly to the box and softened by a blur of half a
 * cell. Empty when the grid has nothing to draw.
 */
export function heatmapLayer(
  grid: HeatmapGrid | null | undefined,
  box: { width: number; height: number },
  theme: HeatmapTheme,
  opacity: number,
): string {
  if (!drawable(grid)) return '';
  const cellW = box.width / grid.cols;
  const cellH = box.height / grid.rows;
  const pad = 2;
  const image = gridImage(grid, theme, pad);
  const png = encodePng(image.width, image.height, image.data);
  const blur = Math.max(cellW, cellH) / 2;
  return [
    `<defs><filter id="soft" x="-10%" y="-10%" width="120%" height="120%"><feGaussianBlur stdDeviation="${blur.toFixed(1)}"/></filter>`,
    `<clipPath id="box"><rect width="${box.width}" height="${box.height}"/></clipPath></defs>`,
    `<g clip-path="url(#box)" opacity="${opacity}"><image filter="url(#soft)" x="${-pad * cellW}" y="${-pad * cellH}"`,
    ` width="${image.width * cellW}" height="${image.height * cellH}" preserveAspectRatio="none"`,
    ` href="${dataUri('image/png', png)}"/></g>`,
  ].join('');
}

/** An area of interest drawn over a picture: item pixels, and the label it is named by (its id). */
export interface AreaOutline {
  x: number;
  y: number;
  width: number;
  height: number;
  /** A polygon's points (item pixels); absent: the rectangle. */
  points?: readonly { x: number; y: number }[];
  label: string;
}

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/**
 * Areas of interest as the cabinet outlines them over the heatmap: a white frame with a dark edge, its label on a
 * dark tab at the top-left corner. Sized for a picture `size` pixels large (lines and text scale with it).
 */
export function areaOutlines(areas: readonly AreaOutline[], size: { width: number; height: number }): string {
  const unit = Math.max(size.width, size.height) / 400;
  const line = Math.max(1.5, unit);
  const font = Math.max(10, unit * 7);
  return areas
    .map((a) => {
      const tab = font * (0.75 + 0.62 * a.label.length);
      const outline = a.points
        ? (attributes: string) => `<polygon points="${a.points?.map((p) => `${p.x},${p.y}`).join(' ')}" ${attributes}/>`
        : (attributes: string) => `<rect x="${a.x}" y="${a.y}" width="${a.width}" height="${a.height}" ${attributes}/>`;
      return [
        outline(`fill="none" stroke="#000" stroke-opacity="0.6" stroke-width="${line * 2.2}"`),
        outline(`fill="none" stroke="#fff" stroke-width="${line}"`),
        `<rect x="${a.x}" y="${a.y}" width="${tab}" height="${font * 1.4}" fill="#000" fill-opacity="0.65"/>`,
        `<text x="${a.x + font * 0.35}" y="${a.y + font * 1.05}" font-family="${FONT_FAMILY.replaceAll("'", '')}" font-size="${font}" font-weight="700" fill="#fff">${escapeXml(a.label)}</text>`,
      ].join('');
    })
    .join('');
}

/**
 * A picture (PNG or JPEG bytes; a grey box when absent) with its heatmap over it and its areas of interest
 * outlined, as PNG `width` pixels wide. `size` is the item's natural size: the grid's cells and the areas land on
 * the picture's pixels.
 */
export function heatmapPicture(
  picture: { bytes: Uint8Array; mime: string } | null,
  size: { width: number; height: number },
  grid: HeatmapGrid | null | undefined,
  options: { theme: HeatmapTheme; opacity: number; width: number; areas?: readonly AreaOutline[] },
): Buffer {
  const { width, height } = size;
  const background = picture
    ? `<image width="${width}" height="${height}" preserveAspectRatio="none" href="${dataUri(picture.mime, picture.bytes)}"/>`
    : `<rect width="${width}" height="${height}" fill="#e9ecef"/>`;
  const layers = `${background}${heatmapLayer(grid, size, options.theme, options.opacity)}${areaOutlines(options.areas ?? [], size)}`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${layers}</svg>`;
  return svgToPng(svg, { width: Math.min(options.width, Math.max(width, 1) * 2) });
}
