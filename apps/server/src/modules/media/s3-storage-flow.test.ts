import { CSRF_COOKIE, CSRF_HEADER, MESSAGES } from '@emolens/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunksOf, photoClip } from '../../test/clips.ts';
import { type Client, createTestApp, loggedIn, TEST_BACKEND, type TestApp } from '../../test/harness.ts';
import { recordingJourney, respondentClient } from '../../test/respondent.ts';
import { objectKeys, startS3Server, type TestS3Server } from '../../test/s3-server.ts';
import { processRecordingJob } from '../processing/jobs/process-recording.job.ts';
import { buildReportJob } from '../reports/jobs/build-report.job.ts';
import { makeReportFileJob } from '../reports/jobs/make-report-file.job.ts';
import { handle as emptyTrash } from './jobs/empty-storage-trash.handler.ts';
import { probeMediaJob } from './jobs/probe-media.job.ts';

/**
 * Issue 16, item 1 (decision 023): every kind of file through the production S3 code path against a real
 * S3-compatible server (s3rver): a content upload (tus) checked and probed from S3, served to the cabinet and by
 * byte ranges to a respondent; a respondent's recording stored chunk by chunk, processed by the real engine from
 * S3; a report's presentation made into S3 and downloaded; and deletions, directly and through the storage trash.
 */
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

const db = () => t.app.ctx.database.db;

/** A tus request as tus-js-client sends it (session cookie, CSRF header). */
function tus(method: 'POST' | 'PATCH' | 'HEAD', url: string, headers: Record<string, string>, body?: Buffer) {
  return t.app.inject({
    method,
    url,
    headers: {
      'tus-resumable': '1.0.0',
      cookie: [...alice.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      [CSRF_HEADER]: alice.cookies.get(CSRF_COOKIE) ?? '',
      ...(body ? { 'content-type': 'application/offset+octet-stream' } : {}),
      ...headers,
    },
    payload: body,
  });
}

/** Uploads `bytes` to the research in two PATCHes; the media id. */
async function upload(researchId: string, bytes: Buffer, filename: string, filetype: string): Promise<string> {
  const metadata = Object.entries({ filename, filetype, campaign_id: researchId })
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
  const created = await tus('POST', '/mediaserver', {
    'upload-length': String(bytes.length),
    'upload-metadata': metadata,
  });
  expect(created.statusCode, created.body).toBe(201);
  const location = String(created.headers.location);
  const half = Math.floor(bytes.length / 2);
  expect((await tus('PATCH', location, { 'upload-offset': '0' }, bytes.subarray(0, half))).statusCode).toBe(204);
  const last = await tus('PATCH', location, { 'upload-offset': String(half) }, bytes.subarray(half));
  expect(last.statusCode, last.body).toBe(204);
  return String(last.headers['x-media-id']);
}

async function research(projectId: string, content_type: 'video' | 'pictures'): Promise<string> {
  const added = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
    body: { project_id: projectId, campaigns_data: [{ title: 'Spot', content_type }] },
  });
  expect(added.statusCode, added.body).toBe(201);
  return added.json().campaigns[0].id;
}

describe(`files on S3 storage (s3rver), on ${TEST_BACKEND}`, { timeout: 240_000 }, () => {
  it('go up, are served, processed, exported and deleted through the production S3 code path', async () => {
    const projectId = await alice.draftProject('old');
    const researchId = await research(projectId, 'video');

    // A content upload: checked by decoding and probed from S3, stored with its poster there.
    const video = photoClip('astronaut', 4, 320);
    const mediaId = await upload(researchId, video, 'ad.webm', 'video/webm');
    await t.app.ctx.queue.run(probeMediaJob, { media_id: mediaId });
    const media = await db().selectFrom('media').selectAll().where('id', '=', mediaId).executeTakeFirstOrThrow();
    expect(media.status).toBe('ready');
    // bigint: a string from PostgreSQL's driver.
    expect(Number(media.size)).toBe(video.length);
    expect(await objectKeys(s3)).toEqual([media.storage_key, media.poster_key].sort());
    const whole = await alice.request('GET', `/api/cabinet/media/${mediaId}/file/`);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(video)).toBe(true);
    const poster = await alice.request('GET', `/api/cabinet/media/${mediaId}/poster/`);
    expect([...poster.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

    // A picture uploaded to another research and deleted: gone from S3.
    const picturesId = await research(projectId, 'pictures');
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const pictureId = await upload(picturesId, png, 'one.png', 'image/png');
    const picture = await db().selectFrom('media').select('storage_key').where('id', '=', pictureId).executeTakeFirst();
    expect(await objectKeys(s3)).toContain(picture?.storage_key);
    expect((await alice.request('DELETE', `/api/cabinet/media/${pictureId}/`)).statusCode).toBe(204);
    await emptyTrash({}, t.app.ctx);
    expect(await objectKeys(s3)).toEqual([media.storage_key, media.poster_key].sort());
    await alice.request('DELETE', `/api/cabinet/campaigns/${picturesId}/`);

    // Launched with a scenario and a quota link: a respondent is served the video by byte ranges from S3.
    const scenario = await alice.request('POST', `/api/cabinet/projects/${projectId}/scenarios/`, {
      body: { campaign_ids: [researchId] },
    });
    const link = await alice.request('POST', `/api/cabinet/scenarios/${scenario.json().id}/project-accessor-links/`, {
      body: { is_use_face_checker: false },
    });
    const launched = await alice.request('POST', `/api/cabinet/projects/${projectId}/launch/`, { body: {} });
    expect(launched.statusCode, launched.body).toBe(200);
    const respondent = respondentClient(t.app);
    expect((await respondent.start(link.json().token, { panel: { participant_id: 'viewer-1' } })).statusCode).toBe(201);
    const url = respondent.session?.researches[0]?.video?.url ?? '';
    const ranged = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=100-199' } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 100-199/${video.length}`);
    expect(ranged.rawPayload.equals(video.subarray(100, 200))).toBe(true);

    // The respondent's recording goes to S3 chunk by chunk and is processed by the engine from there.
    const recording = chunksOf(photoClip('astronaut', 8, 320), 3);
    expect((await respondent.segment()).statusCode).toBe(201);
    for (const [index, bytes] of recording.entries()) {
      expect((await respondent.chunk(0, index, bytes)).statusCode).toBe(201);
    }
    const events = await respondent.events(0, recordingJourney(researchId, 8));
    expect(events.statusCode, events.body).toBe(201);
    const done = await respondent.complete([{ segment: 0, chunks: recording.length }], 1);
    expect(done.statusCode, done.body).toBe(200);
    const chunkKeys = (await objectKeys(s3)).filter((k) => k.includes(respondent.sessionId));
    expect(chunkKeys).toHaveLength(3);
    const process = await db()
      .selectFrom('video_processes')
      .select('id')
      .where('session_id', '=', respondent.sessionId)
      .executeTakeFirstOrThrow();
    await t.app.ctx.queue.run(processRecordingJob, { process_id: process.id, generation: 0 });
    const result = await db()
      .selectFrom('process_results')
      .select(['usable', 'face_found', 'frame_count'])
      .where('process_id', '=', process.id)
      .executeTakeFirstOrThrow();
    expect(result).toMatchObject({ usable: true, face_found: true });
    expect(result.frame_count).toBeGreaterThan(20);

    // A report on it, and its presentation made into S3 and downloaded from there.
    const report = await alice.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, {
      body: { name: 'S3 wave' },
    });
    expect(report.statusCode, report.body).toBe(201);
    const reportId: string = report.json().id;
    await t.app.ctx.queue.run(buildReportJob, { report_id: reportId, generation: 1 });
    const asked = await alice.request('POST', `/api/cabinet/reports/${reportId}/files/presentation/`, {
      body: { language: 'en' },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const attempt = (await t.app.ctx.deps.reportFiles.get(reportId, 'presentation'))?.attempt ?? 0;
    await t.app.ctx.queue.run(makeReportFileJob, {
      report_id: reportId,
      kind: 'presentation',
      attempt,
      theme: 'colour',
    });
    const before = new Set([media.storage_key, media.poster_key, ...chunkKeys]);
    const made = (await objectKeys(s3)).filter((k) => !before.has(k));
    expect(made).toHaveLength(1);
    const download = await alice.request('GET', `/api/cabinet/reports/${reportId}/files/presentation/download/`);
    expect(download.statusCode).toBe(200);
    // A PPTX is a ZIP.
    expect(download.rawPayload.subarray(0, 2).toString()).toBe('PK');

    // The respondent withdraws consent: their recording leaves S3 (at once or through the storage trash).
    const removed = await alice.request('POST', `/api/cabinet/projects/${projectId}/respondent-data/delete/`, {
      body: { identifier_kind: 'participant_id', identifier: 'viewer-1' },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    await emptyTrash({}, t.app.ctx);
    const left = await objectKeys(s3);
    expect(left.filter((k) => k.includes(respondent.sessionId))).toEqual([]);
    expect(await db().selectFrom('storage_trash').select('key').execute()).toEqual([]);
    expect(left).toEqual(expect.arrayContaining([media.storage_key, ...made]));
  });

  it('answers 503 while the bucket that keeps the unfinished upload is down, and finishes it at the kept offset after', async () => {
    // Unfinished uploads live in the bucket on S3 storage (decision 069): with it down nothing can be received, and
    // the client is told to retry (503 and its message), not that the upload is gone (404, which restarts it).
    const projectId = await alice.draftProject('old');
    const researchId = await research(projectId, 'video');
    const before = await db().selectFrom('media').select('id').execute();
    const video = photoClip('astronaut', 2, 320);
    const half = Math.floor(video.length / 2);
    const metadata = Object.entries({ filename: 'ad.webm', filetype: 'video/webm', campaign_id: researchId })
      .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
      .join(',');
    const created = await tus('POST', '/mediaserver', {
      'upload-length': String(video.length),
      'upload-metadata': metadata,
    });
    const location = String(created.headers.location);
    expect((await tus('PATCH', location, { 'upload-offset': '0' }, video.subarray(0, half))).statusCode).toBe(204);
    await s3.pause();
    try {
      const last = await tus('PATCH', location, { 'upload-offset': String(half) }, video.subarray(half));
      expect(last.statusCode).toBe(503);
      expect(last.body).toBe(MESSAGES['storage.unavailable']);
      expect((await tus('HEAD', location, {})).statusCode).toBe(503);
      const another = await tus('POST', '/mediaserver', {
        'upload-length': String(video.length),
        'upload-metadata': metadata,
      });
      expect(another.statusCode).toBe(503);
      expect(await db().selectFrom('media').select('id').execute()).toEqual(before);
    } finally {
      await s3.start();
    }
    // The client resumes as tus-js-client does: a HEAD gives the offset the bucket kept, the rest finishes it.
    const head = await tus('HEAD', location, {});
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe(String(half));
    const rest = await tus('PATCH', location, { 'upload-offset': String(half) }, video.subarray(half));
    expect(rest.statusCode, rest.body).toBe(204);
    const mediaId = String(rest.headers['x-media-id']);
    const row = await db().selectFrom('media').selectAll().where('id', '=', mediaId).executeTakeFirstOrThrow();
    expect(row.campaign_id).toBe(researchId);
    await t.app.ctx.queue.run(probeMediaJob, { media_id: mediaId });
    const stored = await alice.request('GET', `/api/cabinet/media/${mediaId}/file/`);
    expect(stored.statusCode).toBe(200);
    expect(stored.rawPayload.equals(video)).toBe(true);
    // Once: the upload's objects are gone from the bucket, and a HEAD finds nothing more to finish.
    const uploadId = location.split('/').pop() as string;
    expect((await objectKeys(s3)).filter((k) => k.startsWith(uploadId))).toEqual([]);
    expect((await tus('HEAD', location, {})).statusCode).toBe(404);
    expect(await db().selectFrom('media').select('id').where('campaign_id', '=', researchId).execute()).toHaveLength(1);
  });
});
