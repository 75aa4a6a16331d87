import { ENGINE_VERSION } from '@emolens/engine';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chunksOf, photoClip } from '../../test/clips.ts';
import { type Client, createTestApp, loggedIn, type TestApp } from '../../test/harness.ts';
import { launchedLink } from '../../test/respondent.ts';
import {
  insertEventLog,
  insertRecording,
  insertRespondentSession,
  insertVideoProcess,
} from '../../test/respondent-rows.ts';
import { processRecordingJob } from './jobs/process-recording.job.ts';

/**
 * A respondent's recording through the real engine (in its child processes): the job, the stored
 * result, the quota slot, and the typed errors of bad recordings. Sessions are written as rows; the
 * /r flow that makes them is tested in the respondents module.
 */
let t: TestApp;
let alice: Client;
let link: Awaited<ReturnType<typeof launchedLink>>;

beforeAll(async () => {
  t = await createTestApp();
  // Jobs are run here by the test; what they publish is queued.
  await t.app.ctx.queue.start({ work: false });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.reset();
  ({ alice } = await loggedIn(t.app, 'alice'));
  link = await launchedLink(t.app, alice);
});

const SCREEN = { type: 'screen', t: 0, width: 1280, height: 800, device_pixel_ratio: 1 };

/** Calibration over the first 4 s (nine dots, then validation), the contentless research from 5 s to `end` ms. */
function journey(researchId: string, end = 9000) {
  const dots = [
    [100, 100],
    [640, 100],
    [1180, 100],
    [100, 400],
    [640, 400],
    [1180, 400],
    [100, 700],
    [640, 700],
    [1180, 700],
  ];
  return [
    SCREEN,
    { type: 'calibration_start', t: 10 },
    ...dots.map(([x, y], i) => ({ type: 'calibration_dot', t: 20 + i * 350, x, y })),
    { type: 'calibration_end', t: 3200 },
    { type: 'validation_dot', t: 3210, x: 300, y: 300 },
    { type: 'validation_dot', t: 3600, x: 900, y: 500 },
    { type: 'validation_end', t: 4000 },
    { type: 'research_start', t: 5000, campaign_id: researchId, index: 0 },
    { type: 'research_end', t: end, campaign_id: researchId },
  ];
}

/** No calibration: three seconds of research, enough to see the faces. */
function uncalibrated(researchId: string) {
  return [
    SCREEN,
    { type: 'research_start', t: 0, campaign_id: researchId, index: 0 },
    { type: 'research_end', t: 3000, campaign_id: researchId },
  ];
}

async function collected(
  clip: Buffer,
  events: { type: string; t: number }[],
  quotaState: 'pending' | 'counted' = 'pending',
) {
  const sessionId = await insertRespondentSession(t.app, {
    linkId: link.linkId,
    status: 'completed',
    outcome: 'complete',
    quotaState,
  });
  await insertRecording(t.app, sessionId, 0, chunksOf(clip));
  await insertEventLog(t.app, sessionId, events);
  const processId = await insertVideoProcess(t.app, {
    sessionId,
    researchId: link.researchIds[0] as string,
    status: 'collected',
  });
  return { sessionId, processId };
}

const run = (processId: string, generation = 0) =>
  t.app.ctx.queue.run(processRecordingJob, { process_id: processId, generation });

const processRow = (id: string) =>
  t.app.ctx.database.db.selectFrom('video_processes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const results = (id: string) =>
  t.app.ctx.database.db.selectFrom('process_results').selectAll().where('process_id', '=', id).execute();
const quotaOf = async (sessionId: string) =>
  (
    await t.app.ctx.database.db
      .selectFrom('respondent_sessions')
      .select('quota_state')
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow()
  ).quota_state;

// The engine analyses ~10 frames a second per core: a few seconds of recording take tens of seconds on a busy machine.
describe('processing a respondent recording', { timeout: 180_000 }, () => {
  it('stores the per-frame data, the per-second series and the summary, and counts the quota slot', async () => {
    const researchId = link.researchIds[0] as string;
    const { sessionId, processId } = await collected(photoClip('astronaut', 10), journey(researchId));
    await run(processId);

    const process = await processRow(processId);
    expect(process).toMatchObject({ status: 'done', progress: 100, attempts: 1, engine_version: ENGINE_VERSION });
    expect(process.error_code).toBeNull();
    const [result] = await results(processId);
    expect(result).toBeDefined();
    expect(process.result_id).toBe(result?.id);
    expect(result).toMatchObject({ face_found: true, usable: true, excluded_reason: null, generation: 0 });
    // Calibration frames (0–4 s) and the research window (5–9 s) at 10 fps.
    expect(result?.frame_count).toBeGreaterThanOrEqual(70);
    expect(result?.frame_count).toBeLessThanOrEqual(95);
    // Compact: binary columns, gzip.
    expect(Buffer.from(result?.frames ?? []).length / (result?.frame_count ?? 1)).toBeLessThan(100);
    const series = result?.series;
    expect(series?.timeline).toBe('contentless');
    expect(series?.second.slice(0, 4)).toEqual([0, 1, 2, 3]);
    expect(series?.expressions.happy[1]).toBeGreaterThan(0.5);
    expect(series?.engagement.every((v) => v === null || (v >= 0 && v <= 1))).toBe(true);
    expect(result?.summary.screen).toEqual({ width: 1280, height: 800, devicePixelRatio: 1 });
    expect(await quotaOf(sessionId)).toBe('counted');
    // Published with the result: its subscribers (self-service, the balance, retention, webhooks) were queued, each once.
    const subscribers = (
      await sql<{ name: string; data: { process_id: string } }>`
        select name, data from pgboss.job where state = 'created' and name like '%.on-recording-processed'`.execute(
        t.app.ctx.database.db,
      )
    ).rows;
    expect(subscribers.map((j) => j.name).sort()).toEqual([
      'licences.on-recording-processed',
      'retention.on-recording-processed',
      'self-service.on-recording-processed',
      'webhooks.on-recording-processed',
    ]);
    expect(subscribers.every((j) => j.data.process_id === processId)).toBe(true);
    expect(await t.app.ctx.queue.runQueued()).toBe(4);

    // The cabinet's list shows the same.
    const listed = await alice.request('GET', `/api/videoprocessor/campaigns-processes-list/?campaign=${researchId}`);
    expect(listed.json().items[0]).toMatchObject({
      status: 'done',
      progress: 100,
      result: { face_found: true, usable: true, engine_version: ENGINE_VERSION },
      can: { restart: true, cancel: false },
    });

    // A second run of the same generation (a retry whose first answer was lost) writes nothing more.
    await run(processId);
    expect(await results(processId)).toHaveLength(1);
    expect(await t.app.ctx.queue.runQueued()).toBe(0);
  });

  it('ends a recording without a face in detection error and releases its quota slot', async () => {
    const { sessionId, processId } = await collected(photoClip('coffee', 10), journey(link.researchIds[0] as string));
    await run(processId);
    expect((await processRow(processId)).status).toBe('detection_error');
    const [result] = await results(processId);
    expect(result).toMatchObject({ face_found: false, usable: false, excluded_reason: 'no_face' });
    expect(await quotaOf(sessionId)).toBe('released');
  });

  it('excludes a recording with several faces, unless the research is in multi-face mode', async () => {
    const researchId = link.researchIds[0] as string;
    // Each face costs its own analysis.
    const short = uncalibrated(researchId);
    const first = await collected(photoClip('fourPeople', 4, 960), short);
    await run(first.processId);
    expect((await results(first.processId))[0]).toMatchObject({ usable: false, excluded_reason: 'several_faces' });
    expect(await quotaOf(first.sessionId)).toBe('released');

    await t.app.ctx.database.db
      .updateTable('campaigns')
      .set({ settings: JSON.stringify({ multiFacesMode: true }) })
      .where('id', '=', researchId)
      .execute();
    const second = await collected(photoClip('fourPeople', 4, 960), short);
    await run(second.processId);
    const [result] = await results(second.processId);
    expect(result).toMatchObject({ usable: true, excluded_reason: null });
    expect(result?.people.length).toBeGreaterThanOrEqual(2);
    expect(await quotaOf(second.sessionId)).toBe('counted');
  });

  it("analyses the faces at the research's rate (contentVideoFps), the recording's own rate at most", async () => {
    const researchId = link.researchIds[0] as string;
    const short = uncalibrated(researchId);
    await t.app.ctx.database.db
      .updateTable('campaigns')
      .set({ settings: JSON.stringify({ contentVideoFps: 15 }) })
      .where('id', '=', researchId)
      .execute();
    // A 15 fps recording: 15 frames a second analysed in full; a 10 fps one: its own 10.
    const fast = await collected(photoClip('astronaut', 4, 480, 15), short);
    await run(fast.processId);
    const [at15] = await results(fast.processId);
    expect(at15?.fps).toBe(15);
    expect(at15?.frame_count).toBeGreaterThanOrEqual(44);
    expect(at15?.frame_count).toBeLessThanOrEqual(61);
    const slow = await collected(photoClip('astronaut', 4), short);
    await run(slow.processId);
    expect((await results(slow.processId))[0]?.fps).toBe(10);
  });

  it('gives bad recordings and logs a typed error, never a result, and leaves the slot pending', async () => {
    const researchId = link.researchIds[0] as string;
    const cases: [Buffer, { type: string; t: number; [key: string]: unknown }[], string][] = [
      [Buffer.from('not a video at all, just text'), journey(researchId), 'not_a_video'],
      [photoClip('astronaut', 10).subarray(0, 3000), journey(researchId), 'no_frames'],
      // The research ends a minute after the recording does.
      [photoClip('astronaut', 10), journey(researchId, 70_000), 'event_log_inconsistent'],
      // No research window for this research at all.
      [photoClip('astronaut', 10), [SCREEN], 'event_log_inconsistent'],
    ];
    for (const [clip, events, code] of cases) {
      const { sessionId, processId } = await collected(clip, events);
      await run(processId);
      const process = await processRow(processId);
      expect({ status: process.status, error: process.error_code }, code).toMatchObject({ status: 'error' });
      expect(process.error_code === code || (code === 'no_frames' && process.error_code === 'decode_failed')).toBe(
        true,
      );
      expect(await results(processId)).toHaveLength(0);
      expect(await quotaOf(sessionId)).toBe('pending');
    }
  });

  it('stops a canceled process and writes nothing; a restart runs it again as a new generation', async () => {
    const researchId = link.researchIds[0] as string;
    const { processId } = await collected(photoClip('astronaut', 16), journey(researchId, 15_000));
    const running = run(processId);
    // Cancel once the engine has started.
    for (let i = 0; i < 300 && (await processRow(processId)).status !== 'in_process'; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const canceled = await alice.request('POST', `/api/cabinet/video-processes/${processId}/cancel/`);
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json()).toMatchObject({ status: 'canceled', can: { restart: true, cancel: false } });
    await running;
    expect(await processRow(processId)).toMatchObject({ status: 'canceled', generation: 1 });
    expect(await results(processId)).toHaveLength(0);

    const restarted = await alice.request('POST', `/api/cabinet/video-processes/${processId}/restart/`);
    expect(restarted.json()).toMatchObject({ status: 'restarted', can: { restart: false, cancel: true } });
    await run(processId, 2);
    expect(await processRow(processId)).toMatchObject({ status: 'done', generation: 2 });
    expect(await results(processId)).toHaveLength(1);
  });

  it('keeps the current result while a research is reprocessed, then replaces it', async () => {
    const researchId = link.researchIds[0] as string;
    const { processId } = await collected(photoClip('astronaut', 10), journey(researchId));
    await run(processId);
    const [before] = await results(processId);

    const reprocess = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reprocess/`);
    expect(reprocess.json()).toEqual({ restarted: 1 });
    const during = await alice.request('GET', `/api/videoprocessor/campaigns-processes-list/?campaign=${researchId}`);
    expect(during.json().items[0]).toMatchObject({ status: 'restarted', result: { usable: true } });
    expect((await processRow(processId)).result_id).toBe(before?.id);

    await run(processId, 1);
    const after = await results(processId);
    expect(after).toHaveLength(1);
    expect(after[0]?.id).not.toBe(before?.id);
    expect(after[0]?.generation).toBe(1);
    expect((await processRow(processId)).result_id).toBe(after[0]?.id);
  });
});
