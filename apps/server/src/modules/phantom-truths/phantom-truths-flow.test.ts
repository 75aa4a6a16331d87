import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PhantomTruths } from '@emolens/contracts';
import type { PerSecondSeries, SessionSummaryOut } from '@emolens/engine';
import { generate, parseScript, type TruthFile } from '@emolens/phantom';
import { type Http, uploadPhantom } from '@emolens/phantom/upload';
import { measureBlinks, measureExpressions, measureGaze, measurePose } from '@emolens/phantom/validation/measure.ts';
import { measuredFrames, measuredGaze } from '@emolens/phantom/validation/run-engine.ts';
import { median } from '@emolens/phantom/validation/score.ts';
import { plainSession } from '@emolens/phantom/validation/session-plan.ts';
import { sessionScript } from '@emolens/phantom/validation/to-script.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Client, createTestApp, loggedIn, TEST_BACKEND, TEST_PASSWORD, type TestApp } from '../../test/harness.ts';
import { launchedLink } from '../../test/respondent.ts';
import { processRecordingJob } from '../processing/jobs/process-recording.job.ts';
import { processCompletedSession } from '../processing/jobs/subscribers.ts';

/**
 * Phantom respondents' truth (decision 035), the whole flow: a short phantom recording taken through the respondent API by the
 * uploader (`npm run phantom -- upload`), its truth attached through the cabinet, the recording processed by the
 * worker's job, and the statistic's figures checked against the validation's own measurements of the stored result.
 */
let t: TestApp;
let alice: Client;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.ctx.queue.start({ work: false });
  dir = mkdtempSync(join(tmpdir(), 'phantom-truths-'));
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await t.reset();
  ({ alice } = await loggedIn(t.app, 'alice'));
});

/** The app in this process as the uploader's HTTP. */
const http: Http = async ({ method, path, headers, body }) => {
  const res = await t.app.inject({
    method,
    url: path,
    headers,
    payload: body === undefined ? undefined : typeof body === 'string' ? body : Buffer.from(body),
  });
  const cookies = res.headers['set-cookie'];
  return {
    status: res.statusCode,
    text: res.body,
    cookies: cookies === undefined ? [] : Array.isArray(cookies) ? cookies : [cookies],
  };
};

/** Four seconds at 15 fps: a smile, a head turned to 12° and back, a blink; the eyes on the screen's centre. */
function shortPhantom() {
  const plan = plainSession(4000);
  const script = parseScript({
    name: 'truth-upload',
    description: 'a short phantom for the truth upload test',
    source: 'astronaut',
    fps: 15,
    ...sessionScript(plan),
    expressions: [{ kind: 'smile', intensity: 0.8, onsetMs: 600, apexMs: 1100, offsetMs: 2000, endMs: 2500 }],
    pose: [
      { t: 0, yaw: 0 },
      { t: 1500, yaw: 12 },
      { t: 3000, yaw: 0 },
    ],
    blinks: [{ startMs: 3300, durationMs: 150 }],
  });
  return { plan, script };
}

describe(`a phantom through the API, its truth on the research statistic, ${TEST_BACKEND}`, {
  timeout: 240_000,
}, () => {
  it("uploads a phantom with its truth; the statistic scores the worker's result as the validation does", async () => {
    const link = await launchedLink(t.app, alice);
    const { plan, script } = shortPhantom();
    const made = await generate(script, dir);
    const truth = JSON.parse(readFileSync(made.truth, 'utf8')) as TruthFile;
    const up = await uploadPhantom(http, {
      video: readFileSync(made.video),
      truth,
      plan,
      link: link.token,
      user: { username: 'alice', password: TEST_PASSWORD },
      // The recording starts well into the session, so a truth left on the recording's clock would be seen.
      setupMs: 1500,
    });
    expect(up.end.outcome).toBe('complete');
    expect(up.truth).toMatchObject({ session_id: up.sessionId, name: 'truth-upload', created: true });
    expect(up.truth.frames).toBe(truth.frames.length);

    const statistic = async () => {
      const res = await alice.request('GET', `/api/cabinet/campaigns/${up.researchId}/phantom-truths/`);
      expect(res.statusCode).toBe(200);
      return res.json() as PhantomTruths;
    };
    // Completed, not yet analysed: the respondent is listed, without figures.
    expect(await t.app.ctx.queue.runQueued([processCompletedSession.name])).toBe(1);
    const waiting = await statistic();
    expect(waiting.items).toHaveLength(1);
    expect(waiting.items[0]).toMatchObject({ session_id: up.sessionId, measured: false, gaze: null, pose: [] });

    expect(await t.app.ctx.queue.runQueued([processRecordingJob.name])).toBe(1);

    const [item] = (await statistic()).items;
    expect(item).toMatchObject({ session_id: up.sessionId, status: 'done', measured: true });
    expect(item?.phantom).toEqual({ name: 'truth-upload', source: 'astronaut', fps: 15, duration_ms: 4000 });

    // The validation's measurements of the same stored result, on the recording's own clock with the truth file as
    // generate wrote it (the server moves the truth onto the session clock instead).
    const db = t.app.ctx.database.db;
    const stored = await db
      .selectFrom('video_processes as v')
      .innerJoin('process_results as r', 'r.id', 'v.result_id')
      .select(['r.frames', 'r.summary', 'r.series'])
      .where('v.session_id', '=', up.sessionId)
      .executeTakeFirstOrThrow();
    const { offset_ms: start } = await db
      .selectFrom('recording_segments')
      .select('offset_ms')
      .where('session_id', '=', up.sessionId)
      .executeTakeFirstOrThrow();
    expect(start).toBeGreaterThanOrEqual(1500);
    const summary = stored.summary as SessionSummaryOut;
    const windowMs = { start: summary.windowMs.start - start, end: summary.windowMs.end - start };
    const result = {
      frames: stored.frames,
      series: stored.series as PerSecondSeries,
      summary: { ...summary, windowMs },
    };
    const frames = measuredFrames(result).map((f) => ({ ...f, t: f.t - start }));
    const research = { ...plan, research: { ...plan.research, ...windowMs } };

    const samples = measuredGaze(result).map((g) => ({ ...g, t: g.t - start }));
    const gaze = measureGaze(research, samples, truth.frames, result).overall;
    expect(item?.gaze?.samples).toBe(gaze.samples);
    expect(gaze.samples).toBeGreaterThan(0);
    const close = (value: number | null | undefined, expected: number, digits: number) =>
      Number.isFinite(expected) ? expect(value).toBeCloseTo(expected, digits) : expect(value).toBeNull();
    close(item?.gaze?.median_px, gaze.medianPx, 1);
    close(item?.gaze?.median_percent, gaze.medianPercent, 2);
    close(item?.gaze?.lost_share, gaze.lostShare, 3);

    const [smile] = measureExpressions(truth.script, research, frames, truth.frames);
    expect(item?.expressions).toHaveLength(1);
    expect(item?.expressions[0]).toMatchObject({
      kind: 'smile',
      injected: 1,
      hits: smile?.hits,
      false_alarms: smile?.falseAlarms,
    });
    close(item?.expressions[0]?.onset_error_ms, median(smile?.onsetErrorsMs ?? []), 0);
    close(item?.expressions[0]?.correlation, smile?.correlation ?? Number.NaN, 3);

    const pose = measurePose(frames, truth.frames);
    const yaw = item?.pose.find((p) => p.axis === 'yaw');
    expect(yaw?.frames).toBe(pose.yaw.n);
    expect(pose.yaw.n).toBeGreaterThan(0);
    close(yaw?.median_degrees, pose.yaw.median, 2);

    const blinks = measureBlinks(truth.script, result);
    expect(item?.blinks).toMatchObject({ injected: 1, measured: blinks.measured, matched: blinks.matched });
  });
});
