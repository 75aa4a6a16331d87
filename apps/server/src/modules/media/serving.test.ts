import { randomBytes, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type Client,
  createTestApp,
  createTestAppWithFiles,
  insertMedia,
  loggedIn,
  type TestApp,
} from '../../test/harness.ts';
import { videoResearch } from '../../test/report-rows.ts';
import { launchedLink, respondentClient } from '../../test/respondent.ts';
import { insertRecording, insertRespondentSession } from '../../test/respondent-rows.ts';
import { startS3Server, type TestS3Server } from '../../test/s3-server.ts';

/**
 * Every route that serves a stored file to a browser answers byte ranges the same way (issue 28, item 1): a
 * `<video>` can seek only in a file served with `Accept-Ranges: bytes` and 206 answers. Each kind of stored file
 * (a research's content and its poster, a respondent's recording made of chunks, the demo's video, a report's
 * file, content by a respondent's signed URL), on the local disk and in S3.
 */
type Fetch = (method: 'GET' | 'HEAD', headers?: Record<string, string>) => Promise<LightMyRequestResponse>;

/** What every stored file answers: whole, by range (first bytes, last bytes, open, inner), 416 and HEAD. */
async function expectRanges(fetch: Fetch, bytes: Buffer, inner: [number, number][] = []) {
  const size = bytes.length;
  const whole = await fetch('GET');
  expect(whole.statusCode, whole.body.slice(0, 200)).toBe(200);
  expect(whole.headers['accept-ranges']).toBe('bytes');
  expect(whole.headers['content-length']).toBe(String(size));
  expect(whole.headers['content-range']).toBeUndefined();
  expect(whole.rawPayload.equals(bytes)).toBe(true);

  const ranged = async (range: string, start: number, end: number) => {
    const res = await fetch('GET', { range });
    expect(res.statusCode, range).toBe(206);
    expect(res.headers['accept-ranges'], range).toBe('bytes');
    expect(res.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`);
    expect(res.headers['content-length'], range).toBe(String(end - start + 1));
    expect(res.rawPayload.equals(bytes.subarray(start, end + 1)), range).toBe(true);
  };
  await ranged('bytes=0-99', 0, 99);
  await ranged('bytes=-100', size - 100, size - 1);
  await ranged(`bytes=${size - 150}-`, size - 150, size - 1);
  // Past the end: what the file has.
  await ranged(`bytes=${size - 10}-${size + 1000}`, size - 10, size - 1);
  for (const [start, end] of inner) await ranged(`bytes=${start}-${end}`, start, end);

  for (const range of [`bytes=${size}-`, `bytes=${size + 5}-${size + 10}`, 'bytes=-0']) {
    const outside = await fetch('GET', { range });
    expect(outside.statusCode, range).toBe(416);
    expect(outside.headers['content-range'], range).toBe(`bytes */${size}`);
  }

  const head = await fetch('HEAD');
  expect(head.statusCode).toBe(200);
  expect(head.headers['accept-ranges']).toBe('bytes');
  expect(head.headers['content-length']).toBe(String(size));
  expect(head.rawPayload.length).toBe(0);
  const headRange = await fetch('HEAD', { range: 'bytes=0-99' });
  expect(headRange.statusCode).toBe(206);
  expect(headRange.headers['content-range']).toBe(`bytes 0-99/${size}`);
  expect(headRange.headers['content-length']).toBe('100');
  expect(headRange.rawPayload.length).toBe(0);
}

const storages: [string, () => Promise<{ t: TestApp; stop: () => Promise<void> }>][] = [
  [
    'local storage',
    async () => {
      const t = await createTestAppWithFiles('serving');
      return { t, stop: () => t.close() };
    },
  ],
  [
    'S3 storage (s3rver)',
    async () => {
      const s3: TestS3Server = await startS3Server();
      const t = await createTestApp({ storage: s3.storage });
      return {
        t,
        stop: async () => {
          await t.close();
          await s3.stop();
        },
      };
    },
  ],
];

describe.each(storages)('stored files served by byte range from %s', (_name, make) => {
  let t: TestApp;
  let stop: () => Promise<void>;
  let alice: Client;
  beforeAll(async () => {
    ({ t, stop } = await make());
  });
  afterAll(() => stop?.());
  beforeEach(async () => {
    await t.reset();
    ({ alice } = await loggedIn(t.app, 'alice'));
  });

  const db = () => t.app.ctx.database.db;
  const put = (key: string, bytes: Buffer, type: string) => t.app.ctx.deps.storage.put(key, bytes, bytes.length, type);
  const as =
    (client: Client, url: string): Fetch =>
    (method, headers) =>
      client.request(method, url, { headers });

  /** A research whose content is a stored video, with its poster frame; the media row's id. */
  async function storedVideo(video: Buffer, poster?: Buffer) {
    const { researchId, storageKey } = await videoResearch(t.app, alice, 'alice', {
      width: 64,
      height: 32,
      seconds: 4,
    });
    await put(storageKey, video, 'video/mp4');
    const posterKey = `${storageKey}.poster.jpg`;
    if (poster) await put(posterKey, poster, 'image/jpeg');
    const row = await db()
      .updateTable('media')
      .set({ size: video.length, poster_key: poster ? posterKey : null })
      .where('storage_key', '=', storageKey)
      .returning('id')
      .executeTakeFirstOrThrow();
    return { researchId, mediaId: row.id };
  }

  it("serves a research's video and its poster", async () => {
    const video = randomBytes(150_001);
    const poster = randomBytes(2_345);
    const { mediaId } = await storedVideo(video, poster);
    await expectRanges(as(alice, `/api/cabinet/media/${mediaId}/file/`), video, [[70_000, 140_000]]);
    await expectRanges(as(alice, `/api/cabinet/media/${mediaId}/poster/`), poster);
  });

  it("serves a respondent's recording made of chunks, a range read across them", async () => {
    const { linkId } = await launchedLink(t.app, alice);
    const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
    const chunks = [randomBytes(70_000), randomBytes(3), randomBytes(130_000)];
    await insertRecording(t.app, sessionId, 0, chunks);
    const url = `/api/cabinet/respondent-sessions/${sessionId}/recordings/0/`;
    await expectRanges(as(alice, url), Buffer.concat(chunks), [
      // Within the first chunk, across all three, the middle chunk alone, within the last.
      [100, 200],
      [69_990, 70_010],
      [70_000, 70_002],
      [70_003, 70_003],
      [150_000, 199_999],
    ]);
  });

  it("serves the demo's video", async () => {
    const video = randomBytes(120_000);
    const id = randomUUID();
    const owner = await db().selectFrom('users').select('id').where('username', '=', 'alice').executeTakeFirstOrThrow();
    const key = `demo/${owner.id}/${id}.mp4`;
    await put(key, video, 'video/mp4');
    await db()
      .insertInto('demo_analyses')
      .values({
        id,
        owner_id: owner.id,
        kind: 'demo',
        filename: 'me.mp4',
        size: video.length,
        mime: 'video/mp4',
        storage_key: key,
        duration_seconds: 4,
        created_at: new Date(),
        error_code: null,
        engine_version: null,
        started_at: null,
        finished_at: null,
        sampling: null,
        frames: null,
        frame_count: null,
        series: null,
        people: null,
        summary: null,
        recording_seconds: null,
        sessions_counted: null,
      })
      .execute();
    await expectRanges(as(alice, `/api/cabinet/demo/${id}/video/`), video);
  });

  it("serves a report's file", async () => {
    const { researchId } = await storedVideo(randomBytes(1_000));
    // The report row written straight to the table: its build has its own tests, only its file matters here.
    const { id: reportId } = await db()
      .insertInto('reports')
      .values({
        campaign_id: researchId,
        created_by: null,
        name: 'Ranges',
        type: 'shift',
        step: 1,
        filters: '{}',
        segment: '{}',
        fixations: '{}',
        status: 'done',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const video = randomBytes(90_000);
    const key = `reports/${reportId}/video.mp4`;
    await put(key, video, 'video/mp4');
    await db()
      .insertInto('report_files')
      .values({
        report_id: reportId,
        kind: 'video',
        source: 'generated',
        status: 'done',
        generation: 1,
        language: 'en',
        error_key: null,
        storage_key: key,
        filename: 'Ranges.mp4',
        mime: 'video/mp4',
        size: video.length,
        created_by: null,
        updated_at: new Date(),
      })
      .execute();
    await expectRanges(as(alice, `/api/cabinet/reports/${reportId}/files/video/download/`), video);
  });

  it("serves a research's file to a respondent by its signed URL", async () => {
    const { token, researchIds } = await launchedLink(t.app, alice);
    const researchId = researchIds[0] as string;
    const mediaId = await insertMedia(t.app, { researchId, owner: 'alice', kind: 'image', status: 'ready' });
    const picture = randomBytes(5_000);
    const row = await db()
      .updateTable('media')
      .set({ size: picture.length })
      .where('id', '=', mediaId)
      .returning('storage_key')
      .executeTakeFirstOrThrow();
    await put(row.storage_key, picture, 'image/png');
    const respondent = respondentClient(t.app);
    expect((await respondent.start(token)).statusCode).toBe(201);
    const url = respondent.session?.researches[0]?.images[mediaId] as string;
    expect(url).toMatch(/^\/r\/media\//);
    await expectRanges((method, headers) => t.app.inject({ method, url, headers }), picture);
  });
});
