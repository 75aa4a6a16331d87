import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DOT_TEST_LIMITS,
  type DotTestResult,
  dotTestVerdict,
  PROCESS_ERROR_CODES,
  type ProcessErrorCode,
} from '@emolens/contracts';
import { ENGINE_VERSION, EngineError, type SessionEvent, type SessionResult } from '@emolens/engine';
import type { AppContext } from '../../../context.ts';
import type { DotTestRow } from '../../../db/types.ts';
import { isFinalAttempt, type JobAttempt } from '../../../jobs/define.ts';

const PROGRESS_EVERY_MS = 1000;
/** The share of the bar the download of the recording takes. */
const PREPARING_PERCENT = 5;

/** Errors no retry can cure: the recording or its log is what it is. */
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

class DotTestError extends Error {
  constructor(readonly code: ProcessErrorCode) {
    super(code);
  }
}

function errorCode(err: unknown): ProcessErrorCode {
  if (err instanceof DotTestError) return err.code;
  if (err instanceof EngineError && (PROCESS_ERROR_CODES as readonly string[]).includes(err.code)) {
    return err.code as ProcessErrorCode;
  }
  return 'internal';
}

const round = (value: number | null, digits = 1) =>
  value === null || !Number.isFinite(value) ? null : Number(value.toFixed(digits));

/** What the page shows of the engine's result: the calibration's validation and accuracy, and a verdict. */
export function resultOf(test: DotTestRow, result: SessionResult): DotTestResult {
  const { summary } = result;
  const calibration = summary.calibration;
  const accuracyPercent = calibration.status === 'calibrated' ? round(calibration.accuracyPercent, 2) : null;
  return {
    verdict: summary.faceFound ? dotTestVerdict(accuracyPercent) : 'poor',
    face_found: summary.faceFound,
    frames: summary.frames,
    bad_frame_share: round(summary.badFrameShare, 3) ?? 0,
    calibration_status: calibration.status,
    calibration_reason: calibration.reason,
    accuracy_px: calibration.status === 'calibrated' ? round(calibration.accuracyPx, 0) : null,
    accuracy_percent: accuracyPercent,
    screen: summary.screen
      ? {
          width: summary.screen.width,
          height: summary.screen.height,
          device_pixel_ratio: summary.screen.devicePixelRatio,
        }
      : { width: test.screen_width, height: test.screen_height, device_pixel_ratio: test.device_pixel_ratio },
    validation: calibration.validation.map((v) => ({
      x: v.x,
      y: v.y,
      gaze_x: round(v.gazeX, 0),
      gaze_y: round(v.gazeY, 0),
    })),
    engine_version: result.engineVersion,
  };
}

/** One check: its chunks joined into the recorder's file, the whole recording through the engine. */
export async function handle(payload: { dot_test_id: string }, ctx: AppContext, attempt: JobAttempt): Promise<void> {
  const repo = ctx.deps.dotTests;
  const id = payload.dot_test_id;
  const test = await repo.claim(id);
  if (!test) return;
  const log = ctx.log.child({ dotTest: id, attempt: attempt.retryCount });
  const work = new AbortController();
  const stop = () => work.abort();
  attempt.signal?.addEventListener('abort', stop, { once: true });
  const dir = await mkdtemp(join(tmpdir(), 'emolens-dot-test-'));
  try {
    const file = join(dir, `recording.${test.mime_type === 'video/mp4' ? 'mp4' : 'webm'}`);
    const chunks = await repo.chunks(id);
    if (!chunks.length) throw new DotTestError('recording_missing');
    // Written part by part through one handle: a check's few chunks, no stream listeners piling up.
    const out = await open(file, 'w');
    try {
      for (const chunk of chunks) {
        if (work.signal.aborted) return;
        const body = await ctx.deps.storage.stream(chunk.storage_key).catch(() => {
          throw new DotTestError('recording_missing');
        });
        for await (const part of body) await out.write(part as Buffer);
      }
    } finally {
      await out.close();
    }
    if (!(await repo.progress(id, PREPARING_PERCENT))) return;
    const events = (await repo.events(id)) as SessionEvent[];
    let lastWrite = 0;
    let writing: Promise<void> = Promise.resolve();
    const result = await ctx.deps.engine.run(
      { sources: [{ file, offsetMs: 0 }], events, research: null, fps: DOT_TEST_LIMITS.fps, gazeRequired: true },
      {
        signal: work.signal,
        onProgress: (progress) => {
          const now = Date.now();
          if (now - lastWrite < PROGRESS_EVERY_MS) return;
          lastWrite = now;
          const percent = PREPARING_PERCENT + progress.fraction * (99 - PREPARING_PERCENT);
          writing = writing
            .then(() => repo.progress(id, percent))
            // Deleted meanwhile (the person pressed retry): the engine stops.
            .then((alive) => (alive ? undefined : stop()))
            .catch((err) => log.warn({ err }, 'progress not written'));
        },
      },
    );
    await writing;
    const shown = resultOf(test, result);
    await repo.finish(id, shown, ENGINE_VERSION);
    log.info({ verdict: shown.verdict, accuracyPx: shown.accuracy_px, frames: result.frameCount }, 'dot test analysed');
  } catch (err) {
    if (attempt.signal?.aborted) throw err;
    if (work.signal.aborted) return;
    const code = errorCode(err);
    const final = PERMANENT.includes(code) || isFinalAttempt(attempt);
    log.warn({ err, code, final }, 'dot test analysis failed');
    if (final) {
      await repo.fail(id, code);
      return;
    }
    throw err;
  } finally {
    attempt.signal?.removeEventListener('abort', stop);
    await rm(dir, { recursive: true, force: true });
  }
}
