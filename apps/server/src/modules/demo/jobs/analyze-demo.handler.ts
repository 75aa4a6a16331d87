import { PROCESS_ERROR_CODES, type ProcessErrorCode, sessionsCounted } from '@emolens/contracts';
import { decodeFramesTable, ENGINE_VERSION, EngineError, FRAME_FLAGS, type SessionTask } from '@emolens/engine';
import type { AppContext } from '../../../context.ts';
import { isFinalAttempt, type JobAttempt } from '../../../jobs/define.ts';
import type { FlagCounts } from '../demo.repository.ts';

/** Progress is written at most this often: a 2-hour interview should not write thousands of rows. */
const PROGRESS_EVERY_MS = 2000;

/** Errors no retry can cure: the file is what it is. */
const PERMANENT: readonly ProcessErrorCode[] = [
  'recording_missing',
  'file_not_found',
  'empty_file',
  'not_a_video',
  'no_frames',
  'decode_failed',
  'invalid_options',
  'recording_too_long',
];

function errorCode(err: unknown): ProcessErrorCode {
  if (err instanceof EngineError && (PROCESS_ERROR_CODES as readonly string[]).includes(err.code)) {
    return err.code as ProcessErrorCode;
  }
  return 'internal';
}

/** Frames carrying each quality flag. */
export function flagCounts(frames: Uint8Array): FlagCounts {
  const flags = decodeFramesTable(frames).columns.flags;
  const counts: FlagCounts = { no_face: 0, several_faces: 0, head_turned: 0, too_dark: 0 };
  for (const value of flags) {
    for (const name of Object.keys(counts) as (keyof FlagCounts)[]) if (value & FRAME_FLAGS[name]) counts[name]++;
  }
  return counts;
}

export async function handle(payload: { demo_id: string }, ctx: AppContext, attempt: JobAttempt): Promise<void> {
  const repo = ctx.deps.demo;
  const id = payload.demo_id;
  const claimed = await repo.claim(id, ENGINE_VERSION);
  if (!claimed) return;
  const log = ctx.log.child({ demo: id, attempt: attempt.retryCount });
  const work = new AbortController();
  const stop = () => work.abort();
  attempt.signal?.addEventListener('abort', stop, { once: true });
  try {
    const result = await ctx.deps.storage.withLocalFile(claimed.storage_key, async (file) => {
      // The whole recording, no research window; interviews track every face.
      const task: SessionTask = {
        sources: [{ file, offsetMs: 0 }],
        events: [],
        research: null,
        fps: 10,
        multiFace: claimed.kind === 'interview',
      };
      let lastWrite = 0;
      let writing: Promise<void> = Promise.resolve();
      const out = await ctx.deps.engine.run(task, {
        signal: work.signal,
        onProgress: (progress) => {
          const now = Date.now();
          if (now - lastWrite < PROGRESS_EVERY_MS) return;
          lastWrite = now;
          writing = writing
            .then(() => repo.progress(id, progress.fraction * 99))
            // Deleted meanwhile: the engine stops.
            .then((current) => (current ? undefined : stop()))
            .catch((err) => log.warn({ err }, 'progress not written'));
        },
      });
      await writing;
      return out;
    });
    const sessions = claimed.kind === 'interview' ? sessionsCounted(result.recordingSeconds) : null;
    const written = await repo.finish(id, result, { flags: flagCounts(result.frames), sessionsCounted: sessions });
    log.info({ written, frames: result.frameCount, seconds: result.recordingSeconds }, 'demo analysed');
  } catch (err) {
    if (attempt.signal?.aborted) throw err;
    if (work.signal.aborted) {
      log.info('demo analysis deleted while running');
      return;
    }
    const code = errorCode(err);
    const final = PERMANENT.includes(code) || isFinalAttempt(attempt);
    log.warn({ err, code, final }, 'demo analysis failed');
    if (final) {
      await repo.fail(id, code);
      return;
    }
    throw err;
  } finally {
    attempt.signal?.removeEventListener('abort', stop);
  }
}
