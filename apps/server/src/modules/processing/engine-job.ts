import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PROCESS_ERROR_CODES, type ProcessErrorCode } from '@emolens/contracts';
import {
  analyzeReadings,
  EngineError,
  type ReadingsTask,
  type SessionProgress,
  type SessionResult,
  type SessionTask,
} from '@emolens/engine';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import { isFinalAttempt, type JobAttempt } from '../../jobs/define.ts';

/**
 * The one way a job runs the engine (respondent recordings, demo and interview uploads, dot tests):
 * the job's own preparation in a directory of its own under WORK_DIR (not the system's temporary directory:
 * what a killed worker leaves there is removed by the next to start), the analysis in the engine pool with
 * progress written at most every couple of seconds, and one rule for failures.
 */

/** A failure of the job's own preparation, with the code shown to people. */
export class ProcessError extends Error {
  constructor(readonly code: ProcessErrorCode) {
    super(code);
  }
}

/**
 * The errors another run may cure: the machine's (ffmpeg missing, the engine's process died) and the unexpected.
 * Every other code is the recording's or its log's, which no retry changes.
 */
const RETRYABLE: readonly ProcessErrorCode[] = ['ffmpeg_missing', 'engine_crashed', 'internal'];

export function processErrorCode(err: unknown): ProcessErrorCode {
  if (err instanceof ProcessError) return err.code;
  if (err instanceof EngineError && (PROCESS_ERROR_CODES as readonly string[]).includes(err.code)) {
    return err.code as ProcessErrorCode;
  }
  return 'internal';
}

/**
 * A device session's readings (privacy mode, decision 064): analysed in this process (`analyzeReadings`), without
 * ffmpeg and without the engine pool's face models.
 */
export interface ReadingsWork {
  readings: ReadingsTask;
}

export interface EngineWork {
  log: Logger;
  /** Writes the stored files the task needs into `dir` and says what to analyse (video files, or readings). */
  prepare(dir: string, signal: AbortSignal): Promise<SessionTask | ReadingsWork>;
  /** Writes progress (0–100); false when the work is gone (canceled, restarted, deleted): the engine stops. */
  progress(percent: number): Promise<boolean>;
  /** The typed error of a failure that will not be retried. */
  fail(code: ProcessErrorCode): Promise<unknown>;
  /** Progress is written at most this often. Default 2000 ms. */
  progressEveryMs?: number;
}

/** The share of the bar the preparation (downloading the recording) takes. */
const PREPARING_PERCENT = 5;

/**
 * Runs one analysis for a job. The result, or undefined when there is nothing to write: the work is gone,
 * or it failed for good (its typed error written). A failure a retry may cure (a crashed engine, the
 * database away for a moment) and a shutdown of this process are thrown, so the queue runs the job again.
 */
export async function runEngineWork(
  ctx: AppContext,
  attempt: JobAttempt,
  work: EngineWork,
): Promise<SessionResult | undefined> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  attempt.signal?.addEventListener('abort', stop, { once: true });
  const dir = await ctx.deps.workDir.make('engine');
  try {
    const task = await work.prepare(dir, controller.signal);
    if (!(await work.progress(PREPARING_PERCENT))) return undefined;
    const every = work.progressEveryMs ?? 2000;
    let lastWrite = 0;
    let writing: Promise<void> = Promise.resolve();
    const options = {
      signal: controller.signal,
      onProgress: (progress: SessionProgress) => {
        const now = Date.now();
        if (now - lastWrite < every) return;
        lastWrite = now;
        const percent = PREPARING_PERCENT + progress.fraction * (99 - PREPARING_PERCENT);
        writing = writing
          .then(() => work.progress(percent))
          .then((current) => (current ? undefined : stop()))
          .catch((err) => work.log.warn({ err }, 'progress not written'));
      },
    };
    const result =
      'readings' in task ? await analyzeReadings(task.readings, options) : await ctx.deps.engine.run(task, options);
    await writing;
    return controller.signal.aborted ? undefined : result;
  } catch (err) {
    if (attempt.signal?.aborted) throw err;
    if (controller.signal.aborted) {
      work.log.info('the work was canceled or deleted while running');
      return undefined;
    }
    const code = processErrorCode(err);
    const final = !RETRYABLE.includes(code) || isFinalAttempt(attempt);
    work.log.warn({ err, code, final }, 'analysis failed');
    if (!final) throw err;
    await work.fail(code);
    return undefined;
  } finally {
    attempt.signal?.removeEventListener('abort', stop);
    await rm(dir, { recursive: true, force: true });
  }
}

/** Stored parts (recorder chunks) joined into one file, through one handle. */
export async function joinStored(
  ctx: Pick<AppContext, 'deps'>,
  keys: string[],
  file: string,
  signal: AbortSignal,
): Promise<void> {
  if (!keys.length) throw new ProcessError('recording_missing');
  const out = await open(file, 'w');
  try {
    for (const key of keys) {
      const body = await ctx.deps.storage.stream(key).catch(() => {
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
}

/** A session's recorded segment with its stored chunks in order. */
export interface StoredSegment {
  segment: number;
  offset_ms: number;
  mime_type: string;
  chunks: { storage_key: string }[];
}

/**
 * Each recorded segment of a session as one file (its chunks in order are the recorder's file), on the session clock:
 * what the recording's processing and the calibration check before the content give the engine.
 */
export async function joinSegments(
  ctx: Pick<AppContext, 'deps'>,
  segments: readonly StoredSegment[],
  dir: string,
  signal: AbortSignal,
): Promise<SessionTask['sources']> {
  const sources: SessionTask['sources'] = [];
  for (const segment of segments) {
    if (!segment.chunks.length) continue;
    const file = join(dir, `segment-${segment.segment}.${segment.mime_type === 'video/mp4' ? 'mp4' : 'webm'}`);
    await joinStored(
      ctx,
      segment.chunks.map((c) => c.storage_key),
      file,
      signal,
    );
    sources.push({ file, offsetMs: segment.offset_ms });
  }
  if (!sources.length) throw new ProcessError('recording_missing');
  return sources;
}
