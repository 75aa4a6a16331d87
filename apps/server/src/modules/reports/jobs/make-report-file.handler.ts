import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Language, MADE_FILE_TYPES, type MessageKey, type ReportSnapshot } from '@emolens/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../../context.ts';
import { isFinalAttempt, type JobAttempt } from '../../../jobs/define.ts';
import { withLocalFiles } from '../../media/storage.ts';
import { questionnairesOfSessions } from '../../surveys/survey-statistics.service.ts';
import type { RenderJob } from '../files/render-child.ts';
import { renderInChild } from '../files/render-in-child.ts';
import type { makeReportFilePayload } from './make-report-file.job.ts';

type Payload = z.infer<typeof makeReportFilePayload> & { language: Language };
type Source = NonNullable<Awaited<ReturnType<AppContext['deps']['reportFiles']['source']>>>;

/** A file that cannot be made whatever the retries (the message says why). */
class FileRefused extends Error {
  constructor(readonly key: MessageKey) {
    super(key);
  }
}

/** The PPTX's job: the report, its pictures and videos (key moments' frames), its questionnaires. */
/** A file's job: what it reads for the file, then the render it hands to the file thread (`run`). */
type FileJob = (
  ctx: AppContext,
  source: Source,
  payload: Payload,
  out: string,
  run: (job: RenderJob) => Promise<void>,
) => Promise<void>;

const presentationJob: FileJob = async (ctx, source, payload, out, run) => {
  const snapshot = source.snapshot as ReportSnapshot;
  const ids = snapshot.items.flatMap((item) => (item.media_id ? [item.media_id] : []));
  const media = await ctx.deps.reportFiles.mediaFiles(source.campaign_id, ids);
  const included = snapshot.people.filter((p) => p.included).map((p) => p.session_id);
  const questionnaires = await questionnairesOfSessions(ctx.deps, source.campaign_id, included);
  await withLocalFiles(
    ctx.deps.storage,
    media.map((m) => m.storage_key),
    async (paths) => {
      const pictures: Record<string, { path: string; mime: string }> = {};
      const videos: Extract<RenderJob, { kind: 'presentation' }>['videos'] = [];
      for (const [i, m] of media.entries()) {
        const path = paths[i] as string;
        if (m.kind === 'image') pictures[m.id] = { path, mime: m.mime };
        // A video: a still for its heatmap, and its frames at the key moments (the most prominent peaks first), at
        // most three, in time order.
        for (const item of m.kind === 'video' ? snapshot.items.filter((it) => it.media_id === m.id) : []) {
          const seconds = [...item.moments]
            .sort((a, b) => Number(b.kind === 'peak') - Number(a.kind === 'peak') || b.prominence - a.prominence)
            .slice(0, 3)
            .map((moment) => moment.second)
            .sort((a, b) => a - b);
          const duration = m.duration_seconds ?? item.seconds.length * snapshot.step;
          videos.push({ item: item.index, media: m.id, path, duration, seconds });
        }
      }
      await run({
        kind: 'presentation',
        out,
        language: payload.language,
        theme: payload.theme,
        name: source.name,
        research: source.research,
        project: source.project,
        type: source.type,
        step: source.step,
        builtAt: (source.built_at ?? new Date()).toISOString(),
        snapshot,
        questionnaires,
        pictures,
        videos,
      });
    },
  );
};

/** The MP4's job: the research's video with the heatmaps and the engagement curve over it. */
const videoJob: FileJob = async (ctx, source, payload, out, run) => {
  const snapshot = source.snapshot as ReportSnapshot;
  const item = snapshot.items[0];
  const [media] = item?.media_id ? await ctx.deps.reportFiles.mediaFiles(source.campaign_id, [item.media_id]) : [];
  if (!item || media?.kind !== 'video') throw new FileRefused('report.noVideo');
  await ctx.deps.storage.withLocalFile(media.storage_key, (video) =>
    run({
      kind: 'video',
      out,
      language: payload.language,
      theme: payload.theme,
      video,
      item,
      duration: media.duration_seconds ?? item.seconds.length * snapshot.step,
      step: snapshot.step,
    }),
  );
};

/**
 * Makes the file of one attempt. A superseded attempt (a newer request, an attached presentation, the row gone)
 * writes nothing; a failure on the last try records `report.fileFailed` so the cabinet never waits forever.
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
    // Progress written at most every 5%.
    let shown = 0;
    const onProgress = (fraction: number) => {
      if (fraction - shown < 0.05) return;
      shown = fraction;
      reportFiles
        .progress(id, kind, payload.attempt, fraction * 100)
        .catch((err: unknown) => log.warn({ err }, 'report file progress not written'));
    };
    const { mime, extension } = MADE_FILE_TYPES[kind];
    const out = join(dir, `${kind}.${extension}`);
    const run = (job: RenderJob) => renderInChild(job, dir, { onProgress, signal: attempt.signal });
    await (kind === 'presentation' ? presentationJob : videoJob)(ctx, source, payload, out, run);
    const key = `reports/${id}/${kind}-${randomUUID()}.${extension}`;
    const size = (await stat(out)).size;
    await storage.putFile(key, out, mime);
    const written = await reportFiles.finish(id, kind, payload.attempt, {
      storage_key: key,
      filename: `${source.name} - ${kind}.${extension}`,
      mime,
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
    await reportFiles.fail(id, kind, payload.attempt, 'report.fileFailed');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
