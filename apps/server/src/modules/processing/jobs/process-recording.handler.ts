import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROCESS_ERROR_CODES, type ProcessErrorCode } from '@emolens/contracts';
import {
  type ContentItemSize,
  type ContentKind,
  ENGINE_VERSION,
  EngineError,
  type ResearchTarget,
  type SessionEvent,
  type SessionTask,
} from '@emolens/engine';
import type { AppContext } from '../../../context.ts';
import { isFinalAttempt, type JobAttempt } from '../../../jobs/define.ts';
import { deleteRecordingIfProcessed } from '../../retention/retention.service.ts';
import type { ProcessingRepository, ProcessJobInput } from '../processing.repository.ts';

/** Progress is written at most this often: a 2-hour interview should not write thousands of rows. */
const PROGRESS_EVERY_MS = 2000;
/** The share of the bar the download of the recording takes before the engine starts. */
const PREPROCESSING_PERCENT = 5;

/** Errors that no retry can cure: the recording or its log is what it is. */
const PERMANENT: readonly ProcessErrorCode[] = [
  'recording_missing',
  'file_not_found',
  'empty_file',
  'not_a_video',
  'no_frames',
  'decode_failed',
  'invalid_event_log',
  'event_log_inconsistent',
  'recording_too_long',
  'invalid_options',
];

class ProcessError extends Error {
  constructor(readonly code: ProcessErrorCode) {
    super(code);
  }
}

export async function handle(
  payload: { process_id: string; generation: number },
  ctx: AppContext,
  attempt: JobAttempt,
): Promise<void> {
  const repo = ctx.deps.processing;
  const { process_id: id, generation } = payload;
  if (!(await repo.claim(id, generation, ENGINE_VERSION))) return;
  const log = ctx.log.child({ process: id, generation, attempt: attempt.retryCount });
  log.info('video process started');
  const work = new AbortController();
  const stop = () => work.abort();
  attempt.signal?.addEventListener('abort', stop, { once: true });
  const dir = await mkdtemp(join(tmpdir(), 'emolens-process-'));
  try {
    const input = await repo.jobInput(id);
    if (!input) return;
    const sources = await downloadSegments(ctx, input, dir, work.signal);
    if (!(await repo.progress(id, generation, 'in_process', PREPROCESSING_PERCENT))) return;
    const task = await taskFor(repo, input, sources);
    let lastWrite = 0;
    let writing: Promise<void> = Promise.resolve();
    const result = await ctx.deps.engine.run(task, {
      signal: work.signal,
      onProgress: (progress) => {
        const now = Date.now();
        if (now - lastWrite < PROGRESS_EVERY_MS) return;
        lastWrite = now;
        const percent = PREPROCESSING_PERCENT + progress.fraction * (99 - PREPROCESSING_PERCENT);
        writing = writing
          .then(() => repo.progress(id, generation, 'in_process', percent))
          // Canceled or restarted meanwhile: the engine stops, nothing is written.
          .then((current) => (current ? undefined : stop()))
          .catch((err) => log.warn({ err }, 'progress not written'));
      },
    });
    await writing;
    const status = result.summary.faceFound ? 'done' : 'detection_error';
    const written = await repo.finish(id, generation, { status, result });
    log.info({ status, written, usable: result.summary.usable, frames: result.frameCount }, 'video processed');
    // Retention "delete after processing": the recording goes as soon as the session's last video is done.
    if (written) {
      await deleteRecordingIfProcessed(ctx.deps, input.session_id).catch((err) =>
        log.warn({ err }, 'recording not deleted yet; the hourly retention run will'),
      );
    }
  } catch (err) {
    // The process is shutting down: the queue runs the job again later.
    if (attempt.signal?.aborted) throw err;
    if (work.signal.aborted) {
      log.info('video process canceled while running');
      return;
    }
    const code = errorCode(err);
    const final = PERMANENT.includes(code) || isFinalAttempt(attempt);
    log.warn({ err, code, final }, 'video process failed');
    if (final) {
      await repo.fail(id, generation, code);
      return;
    }
    // Retried by the queue (a crashed engine, the database gone for a moment).
    throw err;
  } finally {
    attempt.signal?.removeEventListener('abort', stop);
    await rm(dir, { recursive: true, force: true });
  }
}

function errorCode(err: unknown): ProcessErrorCode {
  if (err instanceof ProcessError) return err.code;
  if (err instanceof EngineError && (PROCESS_ERROR_CODES as readonly string[]).includes(err.code)) {
    return err.code as ProcessErrorCode;
  }
  return 'internal';
}

/** Each recorded segment as one file: its chunks in order are the recorder's file. */
async function downloadSegments(
  ctx: AppContext,
  input: ProcessJobInput,
  dir: string,
  signal: AbortSignal,
): Promise<SessionTask['sources']> {
  const sources: SessionTask['sources'] = [];
  for (const segment of input.segments) {
    if (!segment.chunks.length) continue;
    const file = join(dir, `segment-${segment.segment}.${segment.mime_type === 'video/mp4' ? 'mp4' : 'webm'}`);
    const out = await open(file, 'w');
    try {
      for (const chunk of segment.chunks) {
        const body = await ctx.deps.storage.stream(chunk.storage_key).catch(() => {
          throw new ProcessError('recording_missing');
        });
        for await (const data of body) {
          signal.throwIfAborted();
          await out.write(data as Buffer);
        }
      }
    } finally {
      await out.close();
    }
    sources.push({ file, offsetMs: segment.offset_ms });
  }
  if (!sources.length) throw new ProcessError('recording_missing');
  return sources;
}

const KINDS: Record<string, ContentKind> = {
  video: 'video',
  pictures: 'pictures',
  shelf: 'shelf',
  site: 'site',
  contentless: 'contentless',
};

/**
 * What the engine is asked: the research's window of the respondent's recording, its content's item
 * sizes (by the index the event log shows them under) and the research's quality settings.
 */
async function taskFor(
  repo: ProcessingRepository,
  input: ProcessJobInput,
  sources: SessionTask['sources'],
): Promise<SessionTask> {
  const kind = KINDS[input.content_type] ?? 'contentless';
  const events = input.events as SessionEvent[];
  const items: ContentItemSize[] = [];
  let durationSeconds: number | null = null;
  if (kind === 'video' && input.video?.width && input.video.height) {
    items.push({ width: input.video.width, height: input.video.height });
    durationSeconds = input.video.duration_seconds;
  } else if (kind === 'contentless') {
    durationSeconds = Number(input.settings.contentVideoDuration ?? 60);
  } else if (kind !== 'video') {
    const sizes = new Map((await repo.imageSizes(input.campaign_id)).map((m) => [m.id, m]));
    const place = (index: number, image: unknown) => {
      const size = typeof image === 'string' ? sizes.get(image) : undefined;
      if (size?.width && size.height && index >= 0 && index < 1000) {
        items[index] = { width: size.width, height: size.height };
      }
    };
    if (kind === 'site') {
      const tasks = (input.settings.webResourceScenario ?? []) as { image?: string }[];
      for (const [i, t] of tasks.entries()) place(i, t.image);
    } else {
      const shown = kind === 'pictures' ? 'picture_shown' : 'shelf_shown';
      for (const e of events) if (e.type === shown) place(Number(e.index), e.image);
    }
  }
  const research: ResearchTarget = {
    campaignId: input.campaign_id,
    kind,
    // Holes (an item never shown) get the screen's shape from the engine: a zero size says "unknown".
    items: Array.from(items, (item) => item ?? { width: 0, height: 0 }),
    durationSeconds,
  };
  return {
    sources,
    events,
    research,
    fps: 10,
    multiFace: input.settings.multiFacesMode === true,
    allowedBadFrameShare: Number(input.settings.badFramesPercent ?? 25) / 100,
    gazeRequired: kind === 'pictures' || kind === 'shelf' || kind === 'site',
  };
}
