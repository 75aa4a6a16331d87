import { readFile } from 'node:fs/promises';
import { READINGS_MIME_TYPE } from '@emolens/contracts';
import { decodeReadings, type FrameReadings } from '@emolens/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunksOf, photoClip } from '../../test/clips.ts';
import {
  type Client,
  createTestApp,
  createTestAppWithFiles,
  filesIn,
  loggedIn,
  markLaunched,
  TEST_BACKEND,
  type TestApp,
} from '../../test/harness.ts';
import { clipReadings, readingsChunks, uploadReadings } from '../../test/readings.ts';
import { launchedLink, type RespondentClient, recordingJourney, respondentClient } from '../../test/respondent.ts';
import { objectKeys, startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import { processRecordingJob } from './jobs/process-recording.job.ts';

/**
 * Privacy mode end to end (issue 32; decision 064): a respondent whose device keeps up uploads readings, not video;
 * the completion and the processing (no ffmpeg, no engine pool: `analyzeReadings` on the task the video path builds)
 * give the per-second series and the summary, and the storage — on disk and on S3 — holds no video of the session.
 * Reprocessing reads the stored readings again. A respondent whose device was too slow and who chose to upload the
 * video is processed as video.
 */
const SECONDS = 4;
let readings: FrameReadings;
beforeAll(async () => {
  readings = await clipReadings(SECONDS);
}, 180_000);

const EBML = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
const isVideo = (bytes: Buffer) =>
  bytes.subarray(0, 4).equals(EBML) || (bytes.length >= 8 && bytes.subarray(4, 8).toString('latin1') === 'ftyp');

async function privacyLink(t: TestApp, alice: Client, slow: 'stop' | 'offer_upload' = 'stop') {
  const link = await launchedLink(t.app, alice, { launch: false });
  const researchId = link.researchIds[0] as string;
  const current = (await alice.request('GET', `/api/cabinet/campaigns/${researchId}/`)).json();
  const set = await alice.request('PATCH', `/api/cabinet/campaigns/${researchId}/update-campaign-data/`, {
    body: { settings: { videoOnDevice: true, slowDeviceAction: slow }, updated_at: current.updated_at },
  });
  expect(set.statusCode, set.body).toBe(200);
  await markLaunched(t.app, link.projectId);
  return { ...link, researchId };
}

async function processOf(t: TestApp, sessionId: string) {
  return t.app.ctx.database.db
    .selectFrom('video_processes')
    .select(['id', 'generation', 'status'])
    .where('session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
}

async function resultOf(t: TestApp, processId: string) {
  return t.app.ctx.database.db
    .selectFrom('process_results')
    .select(['generation', 'usable', 'face_found', 'frame_count', 'series', 'summary'])
    .where('process_id', '=', processId)
    .orderBy('generation', 'desc')
    .executeTakeFirstOrThrow();
}

/** A device session from its start to its processed result; the respondent. */
async function deviceSession(t: TestApp, token: string, researchId: string): Promise<RespondentClient> {
  const client = respondentClient(t.app);
  expect((await client.start(token)).statusCode).toBe(201);
  const check = await client.request('POST', `/r/sessions/${client.sessionId}/device-check`, {
    body: { framesPerSecond: 14.5 },
  });
  expect(check.json().site).toBe('device');
  const chunks = await readingsChunks(readings, 3);
  await uploadReadings(client, chunks);
  expect((await client.events(0, recordingJourney(researchId, SECONDS))).statusCode).toBe(201);
  const done = await client.complete([{ segment: 0, chunks: chunks.length }], 1);
  expect(done.statusCode, done.body).toBe(200);
  expect(done.json().outcome).toBe('complete');
  const process = await processOf(t, client.sessionId);
  await t.app.ctx.queue.run(processRecordingJob, { process_id: process.id, generation: process.generation });
  expect((await processOf(t, client.sessionId)).status).toBe('done');
  const result = await resultOf(t, process.id);
  expect(result).toMatchObject({ usable: true, face_found: true });
  expect(result.frame_count).toBeGreaterThan(20);
  // The per-second series of the research's window and the summary, as a video session has them.
  expect(result.series.second.length).toBeGreaterThanOrEqual(SECONDS - 1);
  expect(result.series.goodFrames.reduce((a, b) => a + b, 0)).toBeGreaterThan(20);
  expect(result.series.engagement.filter((v) => v !== null).length).toBeGreaterThanOrEqual(SECONDS - 1);
  expect(result.summary.faceFound).toBe(true);
  return client;
}

/** Every stored object of the session is readings; none is video. */
async function expectNoVideo(objects: { key: string; bytes: Buffer }[], count: number) {
  expect(objects).toHaveLength(count);
  for (const { key, bytes } of objects) {
    expect(isVideo(bytes), key).toBe(false);
    await expect(decodeReadings(new Uint8Array(bytes))).resolves.toMatchObject({ sampling: readings.sampling });
  }
}

describe(`privacy mode on disk storage, on ${TEST_BACKEND}`, { timeout: 300_000 }, () => {
  let t: TestApp & { dir: string };
  let alice: Client;
  beforeAll(async () => {
    t = await createTestAppWithFiles('privacy-mode');
    await t.app.ctx.queue.start({ work: false });
    ({ alice } = await loggedIn(t.app, 'alice'));
  });
  afterAll(() => t?.close());

  it('processes a device session from its readings, keeps no video, and reprocesses from the readings', async () => {
    expect(readings.full.filter((f) => f.face).length).toBeGreaterThan(SECONDS * 8);
    const { token, researchId } = await privacyLink(t, alice);
    const client = await deviceSession(t, token, researchId);
    const files = (await filesIn(t.dir)).filter((f) => f.includes(client.sessionId));
    await expectNoVideo(await Promise.all(files.map(async (key) => ({ key, bytes: await readFile(key) }))), 3);
    const segments = await t.app.ctx.database.db
      .selectFrom('recording_segments')
      .select('mime_type')
      .where('session_id', '=', client.sessionId)
      .execute();
    expect(segments).toEqual([{ mime_type: READINGS_MIME_TYPE }]);
    const first = await resultOf(t, (await processOf(t, client.sessionId)).id);

    // Reprocessing the research: the same result again from the stored readings.
    const again = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reprocess/`, { body: {} });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().restarted).toBe(1);
    const process = await processOf(t, client.sessionId);
    expect(process.generation).toBe(1);
    await t.app.ctx.queue.run(processRecordingJob, { process_id: process.id, generation: 1 });
    const second = await resultOf(t, process.id);
    expect(second.generation).toBe(1);
    expect(second.series).toEqual(first.series);
    expect(second.frame_count).toBe(first.frame_count);
  });

  it('processes a session that fell back to video upload as video', async () => {
    const { token, researchId } = await privacyLink(t, alice, 'offer_upload');
    const client = respondentClient(t.app);
    expect((await client.start(token)).statusCode).toBe(201);
    await client.request('POST', `/r/sessions/${client.sessionId}/device-check`, { body: { framesPerSecond: 3 } });
    const chose = await client.request('POST', `/r/sessions/${client.sessionId}/analysis-site`, {
      body: { site: 'server' },
    });
    expect(chose.json().site).toBe('server');
    const recording = chunksOf(photoClip('astronaut', SECONDS, 320), 3);
    expect((await client.segment()).statusCode).toBe(201);
    for (const [index, bytes] of recording.entries())
      expect((await client.chunk(0, index, bytes)).statusCode).toBe(201);
    expect((await client.events(0, recordingJourney(researchId, SECONDS))).statusCode).toBe(201);
    expect((await client.complete([{ segment: 0, chunks: recording.length }], 1)).statusCode).toBe(200);
    const process = await processOf(t, client.sessionId);
    await t.app.ctx.queue.run(processRecordingJob, { process_id: process.id, generation: 0 });
    const result = await resultOf(t, process.id);
    expect(result).toMatchObject({ usable: true, face_found: true });
    const files = (await filesIn(t.dir)).filter((f) => f.includes(client.sessionId));
    expect(isVideo(await readFile(files.sort()[0] as string))).toBe(true);
  });
});

describe(`privacy mode on S3 storage (s3rver), on ${TEST_BACKEND}`, { timeout: 300_000 }, () => {
  let s3: TestS3Server;
  let t: TestApp;
  let alice: Client;
  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({ storage: s3.storage });
    await t.app.ctx.queue.start({ work: false });
    ({ alice } = await loggedIn(t.app, 'alice'));
  });
  afterAll(async () => {
    await t?.close();
    await s3?.stop();
  });

  it('stores only readings of a device session, processed from S3', async () => {
    const { token, researchId } = await privacyLink(t, alice);
    const client = await deviceSession(t, token, researchId);
    const keys = (await objectKeys(s3)).filter((k) => k.includes(client.sessionId));
    const objects = await Promise.all(
      keys.map(async (key) => {
        const parts: Buffer[] = [];
        for await (const data of await t.app.ctx.deps.storage.stream(key)) parts.push(data as Buffer);
        return { key, bytes: Buffer.concat(parts) };
      }),
    );
    await expectNoVideo(objects, 3);
  });
});
