/**
 * The calibration check before the content (decision 050) on two phantom respondents with the same page events: eyes
 * that follow the dots pass the research's default threshold, a still face looking at the centre fails it. The engine
 * runs as the check's job runs it (`calibrationCheckTask`, in the pool, 5 fps, just the calibration and validation).
 */
import { resolve } from 'node:path';
import { CALIBRATION_CHECK_LIMITS, VALIDATION_THRESHOLD } from '@emolens/contracts';
import { calibrationCheckTask, EnginePool, type SessionResult } from '@emolens/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CalibrationPhantom, calibrationPhantoms } from './calibration-phantoms.ts';

let pool: EnginePool;
let phantoms: { following: CalibrationPhantom; still: CalibrationPhantom };

beforeAll(async () => {
  phantoms = await calibrationPhantoms(resolve(import.meta.dirname, '../../../../.tmp/phantoms-calibration'));
  pool = new EnginePool({ size: 1 });
}, 120_000);
afterAll(async () => {
  await pool?.close();
});

async function check(phantom: CalibrationPhantom): Promise<{ result: SessionResult }> {
  const task = calibrationCheckTask(
    [{ file: phantom.video, offsetMs: 0 }],
    phantom.plan.events,
    phantom.plan.validation.end,
    CALIBRATION_CHECK_LIMITS.fps,
  );
  const result = await pool.run(task);
  return { result };
}

describe('the calibration check on phantom respondents', () => {
  it('passes eyes that follow the dots and fails a still face', { timeout: 300_000 }, async () => {
    const good = await check(phantoms.following);
    const poor = await check(phantoms.still);
    const accuracy = (r: SessionResult) =>
      r.summary.calibration.status === 'calibrated' ? r.summary.calibration.accuracyPercent : null;
    // Only the calibration and validation (plus the short tail) were analysed: ~19 s of a 22 s recording.
    expect(good.result.summary.windowMs.start).toBe(phantoms.following.plan.validation.end);
    expect(good.result.summary.faceFound).toBe(true);
    expect(good.result.summary.calibration.status).toBe('calibrated');
    expect(accuracy(good.result)).toBeLessThanOrEqual(VALIDATION_THRESHOLD.default);
    expect(poor.result.summary.faceFound).toBe(true);
    const poorAccuracy = accuracy(poor.result);
    // A face that does not follow the dots: no fit at all, or a fit far off the validation dots.
    if (poorAccuracy !== null) expect(poorAccuracy).toBeGreaterThan(VALIDATION_THRESHOLD.default);
  });
});
