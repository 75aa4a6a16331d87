import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HeatmapTheme, Language, ReportItem } from '@emolens/contracts';
import { curvesGrid } from '@emolens/contracts/charts';
import { runFfmpeg } from '@emolens/engine';
import { fileCurvesOption } from './charts.ts';
import { chartPng, heatmapLayer, svgToPng } from './render.ts';
import type { FileTexts } from './texts.ts';

/** One frame of a video at `second`, `width` pixels wide, as PNG. */
export function videoFrame(path: string, second: number, width: number): Promise<Buffer> {
  return runFfmpeg([
    ...['-ss', second.toFixed(3), '-i', path, '-frames:v', '1'],
    ...['-vf', `scale=${width}:-2`, '-f', 'image2pipe', '-c:v', 'png', 'pipe:1'],
  ]);
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * The video export (issue 13, item 8): the research's video with the report's heatmap of each point drawn over
 * it as the video plays, and below it the engagement curve with its 95% band and a cursor at the playing time;
 * the video's sound kept. H.264 MP4 at most 1280 pixels wide. The heatmaps and the curve are rendered once
 * (PNG) and ffmpeg lays them over the video, so the cost is the video's encoding.
 */
export async function renderVideoExport(input: {
  video: string;
  item: ReportItem;
  duration: number;
  step: number;
  theme: HeatmapTheme;
  language: Language;
  texts: FileTexts;
  out: string;
  onProgress?: (fraction: number) => void;
}): Promise<void> {
  const { item, duration, step } = input;
  const width = even(Math.min(1280, item.width ?? 1280));
  const height = even((width * (item.height ?? 720)) / (item.width ?? 1280));
  const strip = even(Math.max(180, width * 0.22));
  const dir = await mkdtemp(join(tmpdir(), 'emolens-video-'));
  try {
    // One transparent overlay per point of the report (a point nobody looked at draws nothing).
    const frames = item.heatmap_frames ?? [];
    const count = Math.max(1, Math.ceil(duration / step));
    for (let p = 0; p < count; p++) {
      const layer = heatmapLayer(frames[p] ?? null, { width, height }, input.theme, 0.6);
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${layer}</svg>`;
      await writeFile(join(dir, `heat-${String(p).padStart(5, '0')}.png`), svgToPng(svg));
    }
    // The strip is short: its axis fits the curve (within −1..1, the widest engagement of either report type).
    const option = fileCurvesOption(item, {
      metrics: ['engagement'],
      texts: input.texts,
      language: input.language,
      type: 'calibration_subtraction',
      step,
      fit: true,
      showN: false,
      span: duration,
    });
    await writeFile(join(dir, 'curve.png'), chartPng(option, width, strip, 1));
    const grid = curvesGrid(false);
    const plot = width - grid.left - grid.right;
    const graph = [
      `[0:v]scale=${width}:${height},setsar=1,pad=${width}:${height + strip}:0:0:white[base]`,
      `[base][1:v]overlay=0:0:eof_action=repeat[heat]`,
      `[heat][2:v]overlay=0:${height}:shortest=1[curve]`,
      `color=c=0x212529:s=2x${strip - grid.top - grid.bottom}:r=25[bar]`,
      `[curve][bar]overlay=x='${grid.left}+min(t,${duration})/${duration}*${plot}':y=${height + grid.top}:eval=frame:shortest=1[out]`,
    ].join(';');
    await runFfmpeg(
      [
        ...['-y', '-i', input.video],
        ...['-framerate', `1/${step}`, '-i', join(dir, 'heat-%05d.png')],
        ...['-loop', '1', '-framerate', '25', '-i', join(dir, 'curve.png')],
        ...['-filter_complex', graph, '-map', '[out]', '-map', '0:a?'],
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p'],
        ...['-c:a', 'aac', '-b:a', '128k', '-t', duration.toFixed(3), '-movflags', '+faststart'],
        ...['-progress', 'pipe:1', input.out],
      ],
      { onTime: (seconds) => input.onProgress?.(Math.min(1, seconds / duration)) },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
