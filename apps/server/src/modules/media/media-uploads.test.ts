import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MEDIA_LIMITS, MESSAGES, mediaListOutput, mediaOutput } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { Client, filesIn, markLaunched, TEST_BACKEND } from '../../test/harness.ts';
import { mediaAppPerFile } from '../../test/media-app.ts';
import { cleanUploadsJob } from './jobs/clean-uploads.job.ts';
import { metadata, type UploadSetup, uploadsEachTest } from './media.fixture.ts';

/**
 * Content uploads through tus: resumed, attached and probed; the formats, kinds and sizes a research takes; other
 * users, the session and the CSRF header; launched projects; abandoned uploads and deleted files.
 */
const t = mediaAppPerFile('media-uploads');
let { mp4, webm, png, alice, bob, projectId, researchId, picturesId } = {} as UploadSetup;
const { create, expectNothingStored, mediaRows, patch, tus, upload, waitForStatus } = uploadsEachTest(
  t,
  (u) => ({ mp4, webm, png, alice, bob, projectId, researchId, picturesId } = u),
);

describe(`content uploads on ${TEST_BACKEND}`, () => {
  it('uploads an mp4 in two chunks, resumes at the offset HEAD reports, attaches and probes it', async () => {
    const created = await create(alice, mp4.length);
    expect(created.statusCode, created.body).toBe(201);
    const location = String(created.headers.location);
    expect(location).toMatch(/^\/mediaserver\/[A-Za-z0-9]+$/);

    const half = Math.floor(mp4.length / 2);
    const first = await patch(alice, location, 0, mp4.subarray(0, half));
    expect(first.statusCode, first.body).toBe(204);
    expect(first.headers['upload-offset']).toBe(String(half));
    // The connection dropped: the client asks where to resume.
    const head = await tus(alice, 'HEAD', location);
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe(String(half));
    expect(head.headers['upload-length']).toBe(String(mp4.length));
    expect(await mediaRows()).toEqual([]);
    // A wrong offset is refused, the right one completes.
    expect((await patch(alice, location, 0, mp4.subarray(half))).statusCode).toBe(409);
    const last = await patch(alice, location, half, mp4.subarray(half));
    expect(last.statusCode, last.body).toBe(204);
    const mediaId = String(last.headers['x-media-id']);

    const media = mediaOutput.parse((await alice.request('GET', `/api/cabinet/media/${mediaId}/`)).json());
    expect(media).toMatchObject({
      campaign_id: researchId,
      kind: 'video',
      role: 'content',
      filename: 'ad.mp4',
      size: mp4.length,
      mime: 'video/mp4',
    });
    expect(['processing', 'ready']).toContain(media.status);
    const ready = await waitForStatus(mediaId);
    expect(ready).toMatchObject({ status: 'ready', fps: 10, width: 640, height: 640, error: null });
    expect(ready.duration_seconds).toBeCloseTo(2, 0);
    expect(ready.poster_url).toBe(`/api/cabinet/media/${mediaId}/poster/`);

    const poster = await alice.request('GET', String(ready.poster_url));
    expect(poster.statusCode).toBe(200);
    expect(poster.headers['content-type']).toBe('image/jpeg');
    expect([...poster.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect((await bob.request('GET', String(ready.poster_url))).statusCode).toBe(404);

    // Stored byte for byte; nothing left in the upload area.
    const stored = await filesIn(t.mediaDir);
    expect(stored.map((f) => f.slice(t.mediaDir.length))).toEqual(
      expect.arrayContaining([
        `/campaigns/${researchId}/${mediaId}.mp4`,
        `/campaigns/${researchId}/${mediaId}.poster.jpg`,
      ]),
    );
    expect((await readFile(join(t.mediaDir, 'campaigns', researchId, `${mediaId}.mp4`))).equals(mp4)).toBe(true);
    expect(await filesIn(t.uploadDir)).toEqual([]);
    expect((await tus(alice, 'HEAD', location)).statusCode).toBe(404);

    const list = mediaListOutput.parse(
      (await alice.request('GET', `/api/cabinet/campaigns/${researchId}/media/`)).json(),
    );
    expect(list.items.map((m) => m.id)).toEqual([mediaId]);
    expect((await bob.request('GET', `/api/cabinet/campaigns/${researchId}/media/`)).statusCode).toBe(404);
  });

  it('accepts a webm video and a PNG picture, checked by content', async () => {
    const video = await upload(alice, webm, { filename: 'clip.webm', filetype: 'video/webm' });
    expect(video.statusCode, video.body).toBe(204);
    const probed = await waitForStatus(String(video.headers['x-media-id']));
    expect(probed).toMatchObject({ status: 'ready', mime: 'video/webm', width: 640, height: 640 });

    const picture = await upload(alice, png, {
      filename: 'Pack shot.PNG',
      filetype: 'image/png',
      role: 'picture',
      campaign_id: picturesId,
    });
    expect(picture.statusCode, picture.body).toBe(204);
    const image = mediaOutput.parse(
      (await alice.request('GET', `/api/cabinet/media/${picture.headers['x-media-id']}/`)).json(),
    );
    expect(image).toMatchObject({
      kind: 'image',
      role: 'picture',
      mime: 'image/png',
      status: 'ready',
      size: png.length,
      poster_url: null,
    });
  });

  it("refuses a text file named .mp4 with 'Invalid file format' and attaches nothing", async () => {
    const text = Buffer.from('this is not a video, only words\n'.repeat(20));
    const res = await upload(alice, text);
    expect(res.statusCode).toBe(415);
    expect(res.body).toBe(MESSAGES['media.invalidFormat']);
    expect(await mediaRows()).toEqual([]);
    expect(await filesIn(t.mediaDir)).toEqual([]);
    expect(await filesIn(t.uploadDir)).toEqual([]);
    // A PNG named .mp4 is refused the same way: the content must match the declared kind.
    expect((await upload(alice, png)).body).toBe(MESSAGES['media.invalidFormat']);
    expect(await mediaRows()).toEqual([]);
  });

  it("takes only its content type's kind of file: 'Invalid file format' for a picture in a video research", async () => {
    // Named as what it is: refused before any byte is sent.
    const picture = await create(alice, png.length, { filename: 'pack.png', filetype: 'image/png' });
    expect(picture.statusCode).toBe(415);
    expect(picture.body).toBe(MESSAGES['media.invalidFormat']);
    const video = await create(alice, mp4.length, { campaign_id: picturesId });
    expect(video.statusCode).toBe(415);
    expect(video.body).toBe(MESSAGES['media.invalidFormat']);
    expect(await filesIn(t.uploadDir)).toEqual([]);
    // A video named .png for the pictures research: what the bytes decode to decides, and it is refused.
    const disguised = await upload(alice, mp4, { filename: 'pack.png', filetype: '', campaign_id: picturesId });
    expect(disguised.statusCode).toBe(415);
    expect(disguised.body).toBe(MESSAGES['media.invalidFormat']);
    // A contentless research takes no file at all.
    const talk = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
      body: { project_id: projectId, campaigns_data: [{ title: 'Talk', content_type: 'contentless' }] },
    });
    const contentless = await create(alice, mp4.length, { campaign_id: talk.json().campaigns[0].id });
    expect(contentless.statusCode).toBe(415);
    await expectNothingStored();
    // Each research lists only its own kind.
    expect(
      (await upload(alice, png, { filename: 'pack.png', filetype: 'image/png', campaign_id: picturesId })).statusCode,
    ).toBe(204);
    expect((await upload(alice, mp4)).statusCode).toBe(204);
    const kinds = async (id: string) =>
      mediaListOutput
        .parse((await alice.request('GET', `/api/cabinet/campaigns/${id}/media/`)).json())
        .items.map((m) => m.kind);
    expect(await kinds(researchId)).toEqual(['video']);
    expect(await kinds(picturesId)).toEqual(['image']);
  });

  it('refuses formats outside the lists before anything is stored', async () => {
    for (const fields of [
      { filename: 'anim.gif', filetype: 'image/gif' },
      { filename: 'ad.mp4', filetype: 'application/pdf' },
      { filename: 'no-extension', filetype: '' },
    ]) {
      const res = await create(alice, 1000, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(415);
      expect(res.body).toBe(MESSAGES['media.invalidFormat']);
    }
    expect(await filesIn(t.uploadDir)).toEqual([]);
  });

  it("refuses a declared length over the limit with 'File is too large'", async () => {
    const video = await create(alice, MEDIA_LIMITS.videoBytes + 1);
    expect(video.statusCode).toBe(413);
    expect(video.body).toBe(MESSAGES['media.tooLarge']);
    const image = await create(alice, MEDIA_LIMITS.imageBytes + 1, {
      filename: 'big.jpg',
      filetype: 'image/jpeg',
      campaign_id: picturesId,
    });
    expect(image.statusCode).toBe(413);
    expect(image.body).toBe(MESSAGES['media.tooLarge']);
    // At the limit it is accepted.
    expect((await create(alice, MEDIA_LIMITS.videoBytes)).statusCode).toBe(201);
  });

  it('answers the tus extensions it does not offer with 501 Not Implemented, never 500 (issue 28 item 18)', async () => {
    const fields = metadata({ filename: 'ad.mp4', filetype: 'video/mp4', campaign_id: researchId });
    const parallel: Record<string, string>[] = [
      // tus-js-client's parallel upload: partial uploads, then the final one that joins them.
      { 'upload-concat': 'partial', 'upload-length': '1000', 'upload-metadata': fields },
      { 'upload-concat': 'final;/mediaserver/a /mediaserver/b', 'upload-metadata': fields },
    ];
    for (const headers of parallel) {
      const res = await tus(alice, 'POST', '/mediaserver', { headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(501);
      expect(res.body, JSON.stringify(headers)).toMatch(/Concatenation extension is not \(yet\) supported/);
    }
    // A length told only later is refused as a request, not failed as the server's error.
    const deferred = await tus(alice, 'POST', '/mediaserver', {
      headers: { 'upload-defer-length': '1', 'upload-metadata': fields },
    });
    expect(deferred.statusCode, deferred.body).toBeGreaterThanOrEqual(400);
    expect(deferred.statusCode, deferred.body).toBeLessThan(500);
    expect(await filesIn(t.uploadDir)).toEqual([]);
    expect(t.logs.filter((line) => line.includes('upload failed'))).toEqual([]);
  });

  it("keeps other users out: another user's research, another user's upload", async () => {
    const intruder = await create(bob, mp4.length);
    expect(intruder.statusCode).toBe(404);
    expect(await filesIn(t.uploadDir)).toEqual([]);

    const created = await create(alice, mp4.length);
    const location = String(created.headers.location);
    expect((await tus(bob, 'HEAD', location)).statusCode).toBe(404);
    expect((await patch(bob, location, 0, mp4)).statusCode).toBe(404);
    expect((await tus(bob, 'DELETE', location)).statusCode).toBe(404);
    expect((await tus(alice, 'HEAD', location)).headers['upload-offset']).toBe('0');
    expect(await mediaRows()).toEqual([]);
  });

  it('needs the session and the CSRF header', async () => {
    const noCsrf = await create(alice, mp4.length, {}, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().code).toBe('csrf_failed');
    expect((await create(alice, mp4.length, {}, { cookies: false })).statusCode).toBe(403);
    const anonymous = new Client(t.app);
    await anonymous.request('GET', '/api/auth/csrf/');
    expect((await create(anonymous, mp4.length)).statusCode).toBe(401);

    const created = await create(alice, mp4.length);
    const location = String(created.headers.location);
    expect((await patch(alice, location, 0, mp4, { csrf: false })).statusCode).toBe(403);
    expect((await tus(alice, 'HEAD', location)).headers['upload-offset']).toBe('0');
    expect(await filesIn(t.uploadDir)).toHaveLength(2);
  });

  it("refuses uploads to a launched project's research, also when it is launched mid-upload", async () => {
    const created = await create(alice, mp4.length);
    const location = String(created.headers.location);
    await patch(alice, location, 0, mp4.subarray(0, 100));
    await markLaunched(t.app, projectId);

    const late = await patch(alice, location, 100, mp4.subarray(100));
    expect(late.statusCode).toBe(409);
    expect(await mediaRows()).toEqual([]);
    expect(await filesIn(t.mediaDir)).toEqual([]);
    expect(await filesIn(t.uploadDir)).toEqual([]);

    const refused = await create(alice, mp4.length);
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toBe('The project is launched: its researches cannot be changed');
  });

  it('leaves nothing of an upload never finished: no media, and the clean-up removes the data', async () => {
    const created = await create(alice, mp4.length);
    const location = String(created.headers.location);
    const id = location.split('/').pop() ?? '';
    await patch(alice, location, 0, mp4.subarray(0, 1000));
    expect(await mediaRows()).toEqual([]);
    expect((await alice.request('GET', `/api/cabinet/campaigns/${researchId}/media/`)).json().items).toEqual([]);

    // A day later, the scheduled clean-up finds it abandoned.
    const infoFile = join(t.uploadDir, `${id}.json`);
    const info = JSON.parse(await readFile(infoFile, 'utf8'));
    info.creation_date = new Date(Date.now() - 25 * 3_600_000).toISOString();
    await writeFile(infoFile, JSON.stringify(info));
    await t.app.ctx.queue.run(cleanUploadsJob, {});
    expect(await filesIn(t.uploadDir)).toEqual([]);
    expect((await tus(alice, 'HEAD', location)).statusCode).toBe(404);
  });

  it('lets the owner abandon an upload with DELETE', async () => {
    const created = await create(alice, mp4.length);
    const location = String(created.headers.location);
    await patch(alice, location, 0, mp4.subarray(0, 1000));
    expect((await tus(alice, 'DELETE', location)).statusCode).toBe(204);
    expect(await filesIn(t.uploadDir)).toEqual([]);
  });

  it('deletes a file of an editable research with its stored bytes, and refuses once launched', async () => {
    const first = await upload(alice, png, { filename: 'a.png', filetype: 'image/png', campaign_id: picturesId });
    const second = await upload(alice, png, { filename: 'b.png', filetype: 'image/png', campaign_id: picturesId });
    const firstId = String(first.headers['x-media-id']);
    const secondId = String(second.headers['x-media-id']);
    expect(await filesIn(t.mediaDir)).toHaveLength(2);

    expect((await bob.request('DELETE', `/api/cabinet/media/${firstId}/`)).statusCode).toBe(404);
    expect((await alice.request('DELETE', `/api/cabinet/media/${firstId}/`)).statusCode).toBe(204);
    expect((await alice.request('GET', `/api/cabinet/media/${firstId}/`)).statusCode).toBe(404);
    expect(await filesIn(t.mediaDir)).toHaveLength(1);

    await markLaunched(t.app, projectId);
    const frozen = await alice.request('DELETE', `/api/cabinet/media/${secondId}/`);
    expect(frozen.statusCode).toBe(409);
    expect((await mediaRows()).map((m) => m.id)).toEqual([secondId]);
    expect(await filesIn(t.mediaDir)).toHaveLength(1);
  });
});
