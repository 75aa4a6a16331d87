import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ffmpegPaths, type VideoInfo } from '@emolens/engine';
import type { AppContext } from '../../../context.ts';
import { isFinalAttempt, type JobAttempt } from '../../../jobs/define.ts';
import { InvalidContent, measureDuration, probeVideoContent } from '../content-check.ts';
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
  if (!(await made())) throw new InvalidContent('no frame decodes for the poster');
}

/**
 * Probes an uploaded video to a video stream with a duration, stores a poster frame and marks it
 * ready. A file that does not probe or decode is `failed` with 'invalid_format' at once (asking again
 * will not change it); any other trouble (storage, disk, ffmpeg missing) is retried, and the file
 * stays `processing` until the last run fails too, then it is 'processing_failed'.
 */
export async function handle(payload: { media_id: string }, ctx: AppContext, attempt: JobAttempt): Promise<void> {
  const repo = ctx.deps.media;
  const row = await repo.findById(payload.media_id);
  if (row?.kind !== 'video') return;
  const storage = ctx.deps.storage;
  const posterKey = posterKeyOf(row);
  try {
    const info = await storage.withLocalFile(row.storage_key, async (file) => {
      const probed = await probeVideoContent(file);
      const duration = probed.durationSeconds ?? (await playedDuration(file, probed.fps));
      if (!duration) throw new InvalidContent('the video has no duration');
      const out = join(tmpdir(), `emolens-poster-${randomUUID()}.jpg`);
      try {
        await extractPoster(file, probed, out);
        await storage.putFile(posterKey, out, 'image/jpeg');
      } finally {
        await rm(out, { force: true });
      }
      return { ...probed, durationSeconds: duration };
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
    if (err instanceof InvalidContent) {
      ctx.log.info({ err, media: row.id }, 'media is not a playable video');
      await repo.update(row.id, { status: 'failed', error: 'invalid_format' });
      return;
    }
    const final = isFinalAttempt(attempt);
    ctx.log.warn({ err, media: row.id, ...attempt, final }, 'media probe failed');
    if (final) await repo.update(row.id, { status: 'failed', error: 'processing_failed' });
    throw err;
  }
}

/** How long the video plays when its container does not say: the demuxed length plus its last frame. */
async function playedDuration(file: string, fps: number | null): Promise<number | null> {
  const measured = await measureDuration(file);
  return measured ? measured + (fps ? 1 / fps : 0) : null;
}
