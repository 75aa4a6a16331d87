import { readFile, writeFile } from 'node:fs/promises';
import type {
  HeatmapTheme,
  Language,
  Question,
  QuestionStatistics,
  ReportItem,
  ReportSnapshot,
  ReportType,
} from '@emolens/contracts';
import { buildPresentation } from './presentation.ts';
import { FILE_TEXTS } from './texts.ts';
import { renderVideoExport, videoFrame } from './video.ts';

/**
 * What the child process is asked to make (a JSON file): everything it needs, the stored media as local paths.
 * Charts, rasterising and the PPTX are synchronous CPU work: they run here, in a process of their own, never on
 * the API's event loop; ffmpeg runs as this process's child.
 */
export type RenderJob =
  | {
      kind: 'presentation';
      out: string;
      language: Language;
      theme: HeatmapTheme;
      name: string;
      research: string;
      project: string;
      type: ReportType;
      step: number;
      builtAt: string;
      snapshot: ReportSnapshot;
      questionnaires: { title: string; questions: Question[]; statistics: QuestionStatistics[] }[];
      /** Pictures by media id. */
      pictures: Record<string, { path: string; mime: string }>;
      /** A video item's file, its media id and length (s), and the seconds of its key moments to show. */
      videos: { item: number; media: string; path: string; duration: number; seconds: number[] }[];
    }
  | {
      kind: 'video';
      out: string;
      language: Language;
      theme: HeatmapTheme;
      video: string;
      item: ReportItem;
      duration: number;
      step: number;
    };

const progress = (fraction: number) => process.send?.({ progress: fraction });

async function run(job: RenderJob): Promise<void> {
  if (job.kind === 'video') {
    await renderVideoExport({ ...job, texts: FILE_TEXTS[job.language], onProgress: progress });
    return;
  }
  const pictures = new Map<string, { bytes: Uint8Array; mime: string }>();
  for (const [id, picture] of Object.entries(job.pictures)) {
    pictures.set(id, { bytes: await readFile(picture.path), mime: picture.mime });
  }
  const frames = new Map<number, Map<number, Uint8Array>>();
  for (const video of job.videos) {
    const shots = new Map<number, Uint8Array>();
    // Half a second into the moment's second: the frame the second is about.
    for (const second of video.seconds) shots.set(second, await videoFrame(video.path, second + 0.5, 960));
    frames.set(video.item, shots);
    // The whole video's heatmap is drawn over a still from its middle.
    if (!pictures.has(video.media)) {
      pictures.set(video.media, { bytes: await videoFrame(video.path, video.duration / 2, 960), mime: 'image/png' });
    }
  }
  const bytes = await buildPresentation({
    ...job,
    builtAt: new Date(job.builtAt),
    pictures,
    frames,
    onProgress: async (fraction) => {
      progress(fraction);
    },
  });
  await writeFile(job.out, bytes);
}

const path = process.argv[2];
if (!path) throw new Error('usage: render-child <job.json>');
run(JSON.parse(await readFile(path, 'utf8')) as RenderJob).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
