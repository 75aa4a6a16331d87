import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EngineError, ffmpegPaths, probeVideo, type VideoInfo } from '@emolens/engine';
import type { AppContext } from '../../../context.ts';
import { posterKeyOf } from '../media.service.ts';

const run = promisify(execFile);

/** Poster frames are at most this wide. */
const POSTER_WIDTH = 640;

/** One JPEG frame at 10% of the duration (the first frame when the duration is unknown). */
async function extractPoster(file: string, info: VideoInfo, out: string): Promise<void> {
  const { ffmpeg } = ffmpegPaths();
  const at = info.durationSeconds ? info.startTime + info.durationSeconds * 0.1 : info.startTime;
  const attempt = (seconds: number) =>
    run(
      ffmpeg,
      [
        '-nostdin',
        '-v',
        'error',
        '-ss',
        seconds.toFixed(3),
        '-i',
        file,
        '-frames:v',
        '1',
        '-an',
        '-vf',
        `scale='min(${POSTER_WIDTH},iw)':-2`,
        '-q:v',
        '3',
        '-y',
        out,
      ],
      { timeout: 120_000 },
    );
  const made = async () => ((await stat(out).catch(() => undefined))?.size ?? 0) > 0;
  try {
    await attempt(at);
  } catch {
    // Retried from the start below.
  }
  if (!(await made()) && at > 0) await attempt(0).catch(() => undefined);
  if (!(await made())) throw new EngineError('decode_failed', 'No frame could be decoded for the poster');
}

export async function handle(payload: { media_id: string }, ctx: AppContext): Promise<void> {
  const repo = ctx.deps.media;
  const row = await repo.findById(payload.media_id);
  if (row?.kind !== 'video') return;
  const storage = ctx.deps.storage;
  const posterKey = posterKeyOf(row);
  try {
    const info = await storage.withLocalFile(row.storage_key, async (file) => {
      const probed = await probeVideo(file);
      const out = join(tmpdir(), `emolens-poster-${randomUUID()}.jpg`);
      try {
        await extractPoster(file, probed, out);
        await storage.putFile(posterKey, out, 'image/jpeg');
      } finally {
        await rm(out, { force: true });
      }
      return probed;
    });
    const updated = await repo.update(row.id, {
      status: 'ready',
      duration_seconds: info.durationSeconds,
      fps: info.fps,
      width: info.width,
      height: info.height,
      poster_key: posterKey,
      error: null,
    });
    // Deleted while it was being probed: the poster has no owner left.
    if (!updated) await storage.delete(posterKey);
    ctx.log.info({ media: row.id, ...info }, 'media probed');
  } catch (err) {
    const message = err instanceof EngineError ? `${err.code}: ${err.message}` : 'The video could not be processed';
    await repo.update(row.id, { status: 'failed', error: message });
    ctx.log.warn({ err, media: row.id }, 'media probe failed');
    // An unreadable video fails for good; anything else (storage, disk) is worth a retry.
    if (!(err instanceof EngineError)) throw err;
  }
}
