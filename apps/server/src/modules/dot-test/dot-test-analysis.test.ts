import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOT_TEST_LIMITS, type DotTestEvent, dotTestVerdict, pxToDegrees } from '@emolens/contracts';
import { ffmpegPaths } from '@emolens/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASTRONAUT, createTestApp, TEST_BACKEND, type TestApp } from '../../test/harness.ts';
import { sha256Hex } from '../../test/respondent.ts';
import { analyzeDotTestJob } from './jobs/dot-test-jobs.ts';

/** One dot position every 1.2 s on a row of a 1920×1080 screen: nine to calibrate, then three to validate. */
const STEP_S = 1.2;
const CALIBRATION_X = [160, 1760, 560, 1360, 960, 360, 1560, 760, 1160];
const VALIDATION_X = [400, 1500, 960];

/**
 * A webcam-like recording whose picture moves with the dot: the astronaut's head rolled by an angle
 * proportional to the dot's x, written to a pipe as MediaRecorder writes (no duration, no cues).
 */
function rollingHeadWebm(): Buffer {
  const all = [...CALIBRATION_X, ...VALIDATION_X];
  const angle = (x: number) => (((x - 960) / 960) * 20 * Math.PI) / 180;
  let expr = angle(all.at(-1) ?? 960).toFixed(5);
  for (let i = all.length - 1; i >= 0; i--) {
    expr = `if(lt(t,${((i + 1) * STEP_S).toFixed(2)}),${angle(all[i] ?? 960).toFixed(5)},${expr})`;
  }
  return execFileSync(
    ffmpegPaths().ffmpeg,
    [
      ...['-v', 'error', '-loop', '1', '-i', ASTRONAUT, '-t', String(all.length * STEP_S), '-r', '10'],
      ...['-vf', `rotate='${expr}':fillcolor=black,scale=512:512`, '-c:v', 'libvpx', '-threads', '1', '-b:v', '1M'],
      ...['-deadline', 'realtime', '-f', 'webm', 'pipe:1'],
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
}

/** The log the page writes for that recording, on its clock (ms). */
function events(): DotTestEvent[] {
  const ms = (i: number) => Math.round(i * STEP_S * 1000);
  const out: DotTestEvent[] = [
    { type: 'screen', t: 0, width: 1920, height: 1080, device_pixel_ratio: 1 },
    { type: 'calibration_start', t: 0 },
  ];
  // One event per jump: the engine takes every calibration_dot as a new dot and skips 400 ms after it.
  for (const [i, x] of CALIBRATION_X.entries()) out.push({ type: 'calibration_dot', t: ms(i), x, y: 540 });
  out.push({ type: 'calibration_end', t: ms(CALIBRATION_X.length) });
  for (const [j, x] of VALIDATION_X.entries()) {
    out.push({ type: 'validation_dot', t: ms(CALIBRATION_X.length + j), x, y: 540 });
  }
  out.push({ type: 'validation_end', t: ms(CALIBRATION_X.length + VALIDATION_X.length) });
  return out;
}

let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'emolens-dot-analysis-'));
  t = await createTestApp({ storage: { kind: 'local', dir }, engineWorkers: 1 });
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe(`the dot test's analysis on ${TEST_BACKEND}`, () => {
  it('measures the accuracy on a real recording sent in chunks, through the engine pool', async () => {
    const inject = (method: 'GET' | 'POST' | 'PUT', url: string, secret: string | null, body?: unknown) =>
      t.app.inject({
        method,
        url,
        headers: secret ? { authorization: `Bearer ${secret}` } : {},
        ...(body === undefined ? {} : { payload: body as object }),
      });
    const started = await inject('POST', '/r/dot-tests', null, {
      consent: { accepted: true, retention_days: DOT_TEST_LIMITS.retentionDays, language: 'ru' },
      screen: { width: 1920, height: 1080, device_pixel_ratio: 1 },
      mime_type: 'video/webm',
    });
    expect(started.statusCode, started.body).toBe(201);
    const { secret, test } = started.json();
    const video = rollingHeadWebm();
    const size = Math.ceil(video.length / 4);
    for (let i = 0; i < 4; i++) {
      const bytes = video.subarray(i * size, (i + 1) * size);
      const res = await t.app.inject({
        method: 'PUT',
        url: `/r/dot-tests/${test.id}/chunks/${i}`,
        headers: {
          authorization: `Bearer ${secret}`,
          'content-type': 'application/octet-stream',
          'x-chunk-sha256': sha256Hex(bytes),
        },
        payload: bytes,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    // The recording's events run up to its end; the server takes them once its own clock of the test has
    // run that long (less the slack), as it would have while a person took the test.
    await t.app.ctx.database.db
      .updateTable('dot_tests')
      .set({ created_at: new Date(Date.now() - 10 * 60_000) })
      .where('id', '=', test.id)
      .execute();
    const log = events();
    expect((await inject('POST', `/r/dot-tests/${test.id}/events`, secret, { seq: 0, events: log })).statusCode).toBe(
      201,
    );
    const done = await inject('POST', `/r/dot-tests/${test.id}/complete`, secret, { chunks: 4, event_batches: 1 });
    expect(done.json().status).toBe('queued');

    await t.app.ctx.queue.run(analyzeDotTestJob, { dot_test_id: test.id });

    const state = (await inject('GET', `/r/dot-tests/${test.id}`, secret)).json();
    expect(state, JSON.stringify(state)).toMatchObject({ status: 'done', progress: 100, error: null });
    const result = state.result;
    expect(result.face_found).toBe(true);
    expect(result.calibration_status, result.calibration_reason).toBe('calibrated');
    expect(result.screen).toEqual({ width: 1920, height: 1080, device_pixel_ratio: 1 });
    expect(result.validation.map((v: { x: number; y: number }) => [v.x, v.y])).toEqual(
      VALIDATION_X.map((x) => [x, 540]),
    );
    for (const v of result.validation) {
      expect(v.gaze_x).toEqual(expect.any(Number));
      expect(v.gaze_y).toEqual(expect.any(Number));
    }
    // The head's roll encodes the dot's x: the fit finds it back to within a few percent of the diagonal.
    expect(result.accuracy_px).toBeGreaterThan(0);
    expect(result.accuracy_percent).toBeCloseTo((result.accuracy_px / Math.hypot(1920, 1080)) * 100, 0);
    expect(result.accuracy_percent).toBeLessThan(10);
    expect(result.verdict).toBe(dotTestVerdict(result.accuracy_percent));
    // The astronaut's distance from its iris (decision 043), and the accuracy in degrees at it.
    expect(result.distance_cm).toBeGreaterThan(10);
    expect(result.distance_cm).toBeLessThan(200);
    expect(result.accuracy_degrees).toBeCloseTo(pxToDegrees(result.accuracy_px, result.distance_cm) as number, 1);
    // Its precision on the validation dots (decision 052): the stored gaze's RMS from sample to sample, in px, % of
    // the diagonal and degrees at the same distance.
    expect(result.precision_px).toBeGreaterThan(0);
    expect(result.precision_percent).toBeCloseTo(
      ((result.precision_px as number) / Math.hypot(result.screen.width, result.screen.height)) * 100,
      1,
    );
    expect(result.precision_degrees).toBeCloseTo(pxToDegrees(result.precision_px, result.distance_cm) as number, 1);
    expect(result.engine_version).toMatch(/\d/);
  }, 180_000);
});
