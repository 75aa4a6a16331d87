import { join } from 'node:path';
import { DOT_TEST_LIMITS, type DotTestResult, dotTestVerdict, pxToDegrees, roundedDegrees } from '@emolens/contracts';
import {
  decodeFramesTable,
  ENGINE_VERSION,
  type GazePrecision,
  type SessionEvent,
  type SessionResult,
  storedGazePrecision,
} from '@emolens/engine';
import type { AppContext } from '../../../context.ts';
import type { DotTestRow } from '../../../db/types.ts';
import type { JobAttempt } from '../../../jobs/define.ts';
import { joinStored, runEngineWork } from '../../processing/engine-job.ts';

const round = (value: number | null, digits = 1) =>
  value === null || !Number.isFinite(value) ? null : Number(value.toFixed(digits));

/**
 * What the page shows of the engine's result: the calibration's validation, accuracy and precision (`precision`, from
 * the stored gaze on the validation dots, decision 052), and a verdict.
 */
export function resultOf(
  test: DotTestRow,
  result: SessionResult,
  precision: GazePrecision | null = null,
): DotTestResult {
  const { summary } = result;
  const calibration = summary.calibration;
  const accuracyPercent = calibration.status === 'calibrated' ? round(calibration.accuracyPercent, 2) : null;
  const distanceCm = summary.distance?.cm ?? null;
  return {
    verdict: summary.faceFound ? dotTestVerdict(accuracyPercent) : 'poor',
    face_found: summary.faceFound,
    frames: summary.frames,
    bad_frame_share: round(summary.badFrameShare, 3) ?? 0,
    calibration_status: calibration.status,
    calibration_reason: calibration.reason,
    accuracy_px: calibration.status === 'calibrated' ? round(calibration.accuracyPx, 0) : null,
    accuracy_percent: accuracyPercent,
    // Degrees at the distance estimated from the iris's size (decision 043).
    accuracy_degrees:
      calibration.status === 'calibrated' ? roundedDegrees(pxToDegrees(calibration.accuracyPx, distanceCm)) : null,
    precision_px: round(precision?.px ?? null, 1),
    precision_percent: round(precision?.percentOfDiagonal ?? null, 2),
    precision_degrees: roundedDegrees(pxToDegrees(precision?.px, distanceCm)),
    distance_cm: distanceCm === null ? null : Math.round(distanceCm),
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
  let events: SessionEvent[] = [];
  const result = await runEngineWork(ctx, attempt, {
    log,
    progressEveryMs: 1000,
    async prepare(dir, signal) {
      const file = join(dir, `recording.${test.mime_type === 'video/mp4' ? 'mp4' : 'webm'}`);
      const chunks = await ctx.deps.recording.chunks('dotTest', id);
      await joinStored(
        ctx,
        chunks.map((c) => c.storage_key),
        file,
        signal,
      );
      events = (await ctx.deps.recording.events('dotTest', id)) as SessionEvent[];
      return { sources: [{ file, offsetMs: 0 }], events, research: null, fps: DOT_TEST_LIMITS.fps, gazeRequired: true };
    },
    // Deleted meanwhile (the person pressed retry): the engine stops.
    progress: (percent) => repo.progress(id, percent),
    fail: (code) => repo.fail(id, code),
  });
  if (!result) return;
  let precision: GazePrecision | null = null;
  try {
    precision = storedGazePrecision(decodeFramesTable(result.frames), events, null);
  } catch (err) {
    log.warn({ err }, 'gaze precision not measured');
  }
  const shown = resultOf(test, result, precision);
  await repo.finish(id, shown, ENGINE_VERSION);
  log.info({ verdict: shown.verdict, accuracyPx: shown.accuracy_px, frames: result.frameCount }, 'dot test analysed');
}
