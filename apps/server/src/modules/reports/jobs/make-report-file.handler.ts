import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Language, type MessageKey, PRESENTATION_UPLOAD_TYPES, type ReportFileKind } from '@emolens/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../../context.ts';
import { isFinalAttempt, type JobAttempt } from '../../../jobs/define.ts';
import { questionnairesOfSessions } from '../../surveys/survey-statistics.service.ts';
import { buildPresentation } from '../files/presentation.ts';
import { FILE_TEXTS } from '../files/texts.ts';
import { renderVideoExport, videoFrame } from '../files/video.ts';
import type { makeReportFilePayload } from './make-report-file.job.ts';

type Payload = z.infer<typeof makeReportFilePayload> & { language: Language };
type Source = NonNullable<Awaited<ReturnType<AppContext['deps']['reportFiles']['source']>>>;
type Made = { file: string; mime: string; extension: string };

export const FILE_TYPES: Record<ReportFileKind, { mime: string; extension: string }> = {
  presentation: { mime: PRESENTATION_UPLOAD_TYPES.pptx, extension: 'pptx' },
  video: { mime: 'video/mp4', extension: 'mp4' },
};

/** A file that cannot be made whatever the retries (the message says why). */
class FileRefused extends Error {
  constructor(readonly key: MessageKey) {
    super(key);
  }
}

/** The PPTX: pictures under the heatmaps, a video's frames at its key moments, the report's questionnaires. */
async function presentation(
  ctx: AppContext,
  source: Source,
  payload: Payload,
  dir: string,
  progress: (f: number) => Promise<void>,
): Promise<Made> {
  const snapshot = source.snapshot;
  if (!snapshot) throw new Error('report has no snapshot');
  const { storage, reportFiles } = ctx.deps;
  const { language } = payload;
  const ids = snapshot.items.flatMap((item) => (item.media_id ? [item.media_id] : []));
  const media = await reportFiles.mediaFiles(source.campaign_id, ids);
  const pictures = new Map<string, { bytes: Uint8Array; mime: string }>();
  const frames = new Map<number, Map<number, Uint8Array>>();
  for (const m of media) {
    if (m.kind === 'image') {
      pictures.set(m.id, { bytes: await storage.withLocalFile(m.storage_key, (path) => readFile(path)), mime: m.mime });
      continue;
    }
    // A video: its frames at the key moments (the peaks first), at most three.
    for (const item of snapshot.items.filter((it) => it.media_id === m.id)) {
      const seconds = [...item.moments]
        .sort((a, b) => Number(b.kind === 'peak') - Number(a.kind === 'peak') || b.prominence - a.prominence)
        .slice(0, 3)
        .map((moment) => moment.second)
        .sort((a, b) => a - b);
      const shots = new Map<number, Uint8Array>();
      await storage.withLocalFile(m.storage_key, async (path) => {
        for (const second of seconds) shots.set(second, await videoFrame(path, second + 0.5, 960));
      });
      frames.set(item.index, shots);
    }
  }
  const included = snapshot.people.filter((p) => p.included).map((p) => p.session_id);
  const bytes = await buildPresentation({
    name: source.name,
    research: source.research,
    project: source.project,
    type: source.type,
    step: source.step,
    builtAt: source.built_at ?? new Date(),
    snapshot,
    language,
    theme: payload.theme,
    pictures,
    frames,
    questionnaires: await questionnairesOfSessions(ctx.deps, source.campaign_id, included),
    onProgress: progress,
  });
  const file = join(dir, 'presentation.pptx');
  await writeFile(file, bytes);
  return { file, ...FILE_TYPES.presentation };
}

/** The MP4: the research's video with the heatmaps and the engagement curve over it. */
async function video(
  ctx: AppContext,
  source: Source,
  payload: Payload,
  dir: string,
  progress: (f: number) => Promise<void>,
): Promise<Made> {
  const snapshot = source.snapshot;
  const item = snapshot?.items[0];
  if (!snapshot || !item?.media_id) throw new Error('report has no video item');
  const [media] = await ctx.deps.reportFiles.mediaFiles(source.campaign_id, [item.media_id]);
  if (media?.kind !== 'video') throw new FileRefused('reportFile.noVideo');
  const { language } = payload;
  const file = join(dir, 'video.mp4');
  let last = 0;
  await ctx.deps.storage.withLocalFile(media.storage_key, (path) =>
    renderVideoExport({
      video: path,
      item,
      duration: media.duration_seconds ?? item.seconds.length * snapshot.step,
      step: snapshot.step,
      theme: payload.theme,
      texts: FILE_TEXTS[language],
      out: file,
      onProgress: (fraction) => {
        // At most a write every 5%.
        if (fraction - last >= 0.05) {
          last = fraction;
          void progress(fraction);
        }
      },
    }),
  );
  return { file, ...FILE_TYPES.video };
}

/**
 * Makes the file of one attempt. A superseded attempt (a newer request, an attached presentation, the row gone)
 * writes nothing; a failure on the last try records `reportFile.failed` so the cabinet never waits forever.
 */
export async function handle(
  job: z.infer<typeof makeReportFilePayload>,
  ctx: AppContext,
  attempt: JobAttempt,
): Promise<void> {
  const { report_id: id, kind } = job;
  const { reportFiles, storage } = ctx.deps;
  const row = await reportFiles.get(job.report_id, job.kind);
  if (!row || row.attempt !== job.attempt || row.status !== 'in_progress') return;
  const payload: Payload = { ...job, language: row.language };
  const log = ctx.log.child({ report: id, kind, attempt: payload.attempt });
  const source = await reportFiles.source(id);
  if (source?.status !== 'done' || !source.snapshot) {
    await reportFiles.fail(id, kind, payload.attempt, 'report.notDone');
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'emolens-report-file-'));
  try {
    const started = performance.now();
    const progress = (fraction: number) => reportFiles.progress(id, kind, payload.attempt, fraction * 100);
    const made = await (kind === 'presentation' ? presentation : video)(ctx, source, payload, dir, progress);
    const key = `reports/${id}/${kind}-${randomUUID()}.${made.extension}`;
    const size = (await stat(made.file)).size;
    await storage.putFile(key, made.file, made.mime);
    const written = await reportFiles.finish(id, kind, payload.attempt, {
      storage_key: key,
      filename: `${source.name} - ${kind}.${made.extension}`,
      mime: made.mime,
      size,
    });
    if (!written) await storage.delete(key);
    log.info({ written, size, ms: Math.round(performance.now() - started) }, 'report file made');
  } catch (err) {
    if (err instanceof FileRefused) {
      await reportFiles.fail(id, kind, payload.attempt, err.key);
      return;
    }
    log.error({ err }, 'report file failed');
    if (!isFinalAttempt(attempt)) throw err;
    await reportFiles.fail(id, kind, payload.attempt, 'reportFile.failed');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
