import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  MEDIA_ERROR_MESSAGES,
  MEDIA_LIMITS,
  MEDIA_MESSAGES,
  MESSAGES,
  mediaListOutput,
  mediaOutput,
} from '@emolens/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ASTRONAUT, Client, filesIn, insertMedia, loggedIn, markLaunched, TEST_BACKEND } from '../../test/harness.ts';
import { astronautFiles, ffmpeg, mediaAppPerFile } from '../../test/media-app.ts';
import { cleanUploadsJob } from './jobs/clean-uploads.job.ts';
import { probeMediaJob } from './jobs/probe-media.job.ts';

const t = mediaAppPerFile('media-test');
let mp4: Buffer;
let webm: Buffer;
let png: Buffer;
let alice: Client;
let bob: Client;
let projectId: string;
let researchId: string;
/** A pictures research of the same project: the images go there (a video research takes videos only). */
let picturesId: string;

beforeAll(async () => {
  ({ mp4, webm, png } = await astronautFiles(t.dir, 640));
  await t.app.ctx.queue.start({ work: true });
});
beforeEach(async () => {
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
  projectId = await alice.draftProject();
  const added = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
    body: {
      project_id: projectId,
      campaigns_data: [
        { title: 'Video ad', content_type: 'video' },
        { title: 'Pack shots', content_type: 'pictures' },
      ],
    },
  });
  [researchId, picturesId] = added.json().campaigns.map((c: { id: string }) => c.id);
});

/** A tus request as tus-js-client sends it: session cookie, CSRF header on unsafe methods. */
function tus(
  client: Client,
  method: 'POST' | 'PATCH' | 'HEAD' | 'DELETE',
  url: string,
  options: { headers?: Record<string, string>; body?: Buffer; csrf?: boolean; cookies?: boolean } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { 'tus-resumable': '1.0.0', ...options.headers };
  if (options.cookies !== false) headers.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  if (method !== 'HEAD' && options.csrf !== false) headers[CSRF_HEADER] = client.cookies.get(CSRF_COOKIE) ?? '';
  if (options.body) headers['content-type'] = 'application/offset+octet-stream';
  return t.app.inject({ method, url, headers, payload: options.body });
}

function metadata(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
}

function create(
  client: Client,
  size: number,
  fields: Record<string, string> = {},
  options: { csrf?: boolean; cookies?: boolean } = {},
) {
  return tus(client, 'POST', '/mediaserver', {
    ...options,
    headers: {
      'upload-length': String(size),
      'upload-metadata': metadata({ filename: 'ad.mp4', filetype: 'video/mp4', campaign_id: researchId, ...fields }),
    },
  });
}

function patch(client: Client, location: string, offset: number, body: Buffer, options: { csrf?: boolean } = {}) {
  return tus(client, 'PATCH', location, { ...options, headers: { 'upload-offset': String(offset) }, body });
}

/** Creates an upload and sends it whole; the last response. */
async function upload(client: Client, body: Buffer, fields: Record<string, string> = {}) {
  const created = await create(client, body.length, fields);
  expect(created.statusCode, created.body).toBe(201);
  return patch(client, String(created.headers.location), 0, body);
}

async function mediaRows() {
  return t.database.db.selectFrom('media').selectAll().execute();
}

async function waitForStatus(id: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const media = mediaOutput.parse((await alice.request('GET', `/api/cabinet/media/${id}/`)).json());
    if (media.status !== 'processing' || Date.now() > deadline) return media;
    await new Promise((r) => setTimeout(r, 200));
  }
}

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

/** Upload-Metadata from raw bytes: what a client that does not encode UTF-8 properly can send. */
function rawMetadata(fields: Record<string, string | Buffer>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k} ${(typeof v === 'string' ? Buffer.from(v) : v).toString('base64')}`)
    .join(',');
}

function createRaw(client: Client, size: number, fields: Record<string, string | Buffer>) {
  return tus(client, 'POST', '/mediaserver', {
    headers: {
      'upload-length': String(size),
      'upload-metadata': rawMetadata({ filename: 'ad.mp4', filetype: 'video/mp4', campaign_id: researchId, ...fields }),
    },
  });
}

/** Nothing of a refused upload is left: no media row, no stored file, no partial upload. */
async function expectNothingStored() {
  expect(await mediaRows()).toEqual([]);
  expect(await filesIn(t.mediaDir)).toEqual([]);
  expect(await filesIn(t.uploadDir)).toEqual([]);
}

describe(`content checked by decoding on ${TEST_BACKEND}`, () => {
  let jpeg: Buffer;
  beforeAll(async () => {
    ffmpeg(['-i', ASTRONAUT, '-q:v', '3', join(t.dir, 'astronaut.jpg')]);
    jpeg = await readFile(join(t.dir, 'astronaut.jpg'));
  });

  it('decodes pictures to their size and serves them as what they decoded to, whatever the name says', async () => {
    const picture = await upload(alice, jpeg, {
      filename: 'photo.jpg',
      filetype: 'image/jpeg',
      role: 'picture',
      campaign_id: picturesId,
    });
    expect(picture.statusCode, picture.body).toBe(204);
    const id = String(picture.headers['x-media-id']);
    const media = mediaOutput.parse((await alice.request('GET', `/api/cabinet/media/${id}/`)).json());
    expect(media).toMatchObject({ mime: 'image/jpeg', width: 512, height: 512, status: 'ready', error_code: null });

    // A PNG named .jpg and declared as JPEG: stored and served as the PNG it decodes to.
    const renamed = await upload(alice, png, {
      filename: 'Снимок "1"; a\\b.jpg',
      filetype: 'image/jpeg',
      campaign_id: picturesId,
    });
    expect(renamed.statusCode, renamed.body).toBe(204);
    const renamedId = String(renamed.headers['x-media-id']);
    const file = await alice.request('GET', `/api/cabinet/media/${renamedId}/file/`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(png)).toBe(true);
    expect(file.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(png.length),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'content-disposition':
        `inline; filename="______ _1_; a_b.jpg"; filename*=UTF-8''` +
        '%D0%A1%D0%BD%D0%B8%D0%BC%D0%BE%D0%BA%20%221%22%3B%20a%5Cb.jpg',
    });
    expect((await bob.request('GET', `/api/cabinet/media/${renamedId}/file/`)).statusCode).toBe(404);
  });

  it("refuses forged pictures and videos with 'Invalid file format': a header followed by anything else", async () => {
    const html = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>\n'.repeat(40));
    const noise = Buffer.alloc(64 * 1024, 0);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + 13) % 251;
    const forged: [string, Buffer][] = [
      ['png-signature-then-html.png', Buffer.concat([png.subarray(0, 8), html])],
      ['png-header-then-html.png', Buffer.concat([png.subarray(0, 33), html])],
      ['png-then-html.png', Buffer.concat([png, html])],
      ['cut.png', png.subarray(0, Math.floor(png.length / 2))],
      ['jpeg-soi-then-garbage.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), noise])],
      ['cut.jpg', jpeg.subarray(0, Math.floor(jpeg.length / 2))],
      ['ftyp-then-noise.mp4', Buffer.concat([mp4.subarray(0, 32), noise])],
      ['ebml-then-noise.webm', Buffer.concat([webm.subarray(0, 4), noise])],
    ];
    for (const [filename, body] of forged) {
      const research = /\.(png|jpg)$/.test(filename) ? picturesId : researchId;
      const res = await upload(alice, body, { filename, filetype: '', campaign_id: research });
      expect(res.statusCode, filename).toBe(415);
      expect(res.body, filename).toBe(MEDIA_MESSAGES.invalidFormat);
      await expectNothingStored();
    }
  });

  it('reads the duration of a video whose container does not state it', async () => {
    // The Duration element of the webm replaced by a Void element of the same length, as Chromium's
    // MediaRecorder writes it: the probe finds no duration and measures it.
    const at = webm.indexOf(Buffer.from([0x44, 0x89, 0x88]));
    expect(at).toBeGreaterThan(0);
    const undated = Buffer.concat([
      webm.subarray(0, at),
      Buffer.from([0xec, 0x89]),
      Buffer.alloc(9),
      webm.subarray(at + 11),
    ]);
    const res = await upload(alice, undated, { filename: 'recorded.webm', filetype: 'video/webm' });
    expect(res.statusCode, res.body).toBe(204);
    const media = await waitForStatus(String(res.headers['x-media-id']));
    expect(media).toMatchObject({ status: 'ready', error_code: null });
    expect(media.duration_seconds).toBeCloseTo(2, 1);
  });

  it('fails a video that probes but does not play with a code and a message, never a server path', async () => {
    // The index first, then only a few bytes of the pictures: it probes, but no frame decodes.
    const indexed = join(t.dir, 'indexed.mp4');
    ffmpeg(['-i', join(t.dir, 'astronaut.mp4'), '-c', 'copy', '-movflags', '+faststart', indexed]);
    const whole = await readFile(indexed);
    const mdat = whole.indexOf(Buffer.from('mdat'));
    const res = await upload(alice, whole.subarray(0, mdat + 64), { filename: 'broken.mp4' });
    expect(res.statusCode, res.body).toBe(204);
    const id = String(res.headers['x-media-id']);
    const media = await waitForStatus(id);
    expect(media).toMatchObject({
      status: 'failed',
      error_code: 'invalid_format',
      error: MEDIA_MESSAGES.invalidFormat,
    });
    const answer = (await alice.request('GET', `/api/cabinet/media/${id}/`)).body;
    const [row] = await mediaRows();
    expect(row?.error).toBe('invalid_format');
    for (const text of [answer, JSON.stringify(row?.error)]) {
      expect(text).not.toContain(t.dir);
      expect(text).not.toMatch(/\/(tmp|campaigns)\//);
    }
    // Never served: neither the file nor a poster.
    expect((await alice.request('GET', `/api/cabinet/media/${id}/file/`)).statusCode).toBe(404);
    expect((await alice.request('GET', `/api/cabinet/media/${id}/poster/`)).statusCode).toBe(404);
  });

  it('serves a poster with the same protective headers', async () => {
    const res = await upload(alice, mp4, { filename: 'clip.mp4' });
    const media = await waitForStatus(String(res.headers['x-media-id']));
    expect(media.status).toBe('ready');
    const poster = await alice.request('GET', String(media.poster_url));
    expect(poster.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'content-disposition': `inline; filename="clip.poster.jpg"; filename*=UTF-8''clip.poster.jpg`,
    });
    const file = await alice.request('GET', `/api/cabinet/media/${media.id}/file/`);
    expect(file.headers['content-type']).toBe('video/mp4');
    expect(file.rawPayload.equals(mp4)).toBe(true);
  });
});

describe(`upload metadata that is not text on ${TEST_BACKEND}`, () => {
  const surrogate = Buffer.from([0xed, 0xa0, 0x80]); // U+D800 on its own, as WTF-8
  const cases: [string, Record<string, string | Buffer>][] = [
    ['a NUL in the filename', { filename: 'ad\u0000.mp4' }],
    [
      'a lone surrogate in the filename',
      { filename: Buffer.concat([Buffer.from('ad'), surrogate, Buffer.from('.mp4')]) },
    ],
    ['a line break in the filename', { filename: 'ad\r\nx.mp4' }],
    ['a NUL in the declared type', { filetype: 'video/mp4\u0000' }],
    ['a NUL in the research id', { campaign_id: `${'0'.repeat(8)}\u0000` }],
    ['a lone surrogate in a field the server does not read', { comment: surrogate }],
    ['bytes that are not UTF-8 at all', { filename: Buffer.from([0x61, 0xff, 0xfe, 0x2e, 0x6d, 0x70, 0x34]) }],
  ];
  it.each(cases)('refuses %s with 400 and a clean message at creation', async (_name, fields) => {
    const res = await createRaw(alice, mp4.length, fields);
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe(MEDIA_MESSAGES.invalidMetadata);
    await expectNothingStored();
  });

  it('refuses a 100 KB filename with 400', async () => {
    const res = await createRaw(alice, mp4.length, { filename: `${'a'.repeat(100 * 1024)}.mp4` });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe(MEDIA_MESSAGES.nameTooLong);
    await expectNothingStored();
  });

  it('refuses an upload id that is not text with 400, and an unknown one with 404', async () => {
    const offset = { headers: { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' } };
    for (const method of ['HEAD', 'PATCH', 'DELETE'] as const) {
      const nul = await tus(alice, method, '/mediaserver/abc%00def', offset);
      expect(nul.statusCode, method).toBe(400);
      if (method !== 'HEAD')
        expect(nul.json()).toEqual({
          code: 'bad_request',
          key: 'media.uploadIdInvalid',
          message: 'The upload id is not valid',
        });
      // Broken percent-encoding (a lone surrogate) is refused by Fastify's router before any handler.
      expect((await tus(alice, method, '/mediaserver/abc%ED%A0%80', offset)).statusCode, method).toBe(400);
      expect((await tus(alice, method, '/mediaserver/nosuchupload', offset)).statusCode, method).toBe(404);
    }
  });

  it('answers the final PATCH of an upload stored with a NUL in its name with 400, not 500', async () => {
    // An upload created before names were checked: its stored metadata is edited to what it held.
    const created = await create(alice, png.length, {
      filename: 'a.png',
      filetype: 'image/png',
      campaign_id: picturesId,
    });
    const location = String(created.headers.location);
    const infoFile = join(t.uploadDir, `${location.split('/').pop()}.json`);
    const info = JSON.parse(await readFile(infoFile, 'utf8'));
    info.metadata.filename = 'a\u0000.png';
    await writeFile(infoFile, JSON.stringify(info));
    const last = await patch(alice, location, 0, png);
    expect(last.statusCode).toBe(400);
    expect(last.body).toBe(MEDIA_MESSAGES.invalidMetadata);
    await expectNothingStored();
  });
});

describe(`video probe retries on ${TEST_BACKEND}`, () => {
  /** A video row whose stored file is missing: the storage's trouble, not the file's. */
  const videoWithoutFile = () =>
    insertMedia(t.app, { researchId, owner: 'alice', kind: 'video', status: 'processing' });

  const statusOf = async (id: string) =>
    t.database.db.selectFrom('media').select(['status', 'error']).where('id', '=', id).executeTakeFirstOrThrow();

  it('keeps the video processing while a retry is pending, and fails it on the last run only', async () => {
    const { handle } = await import('./jobs/probe-media.handler.ts');
    const id = await videoWithoutFile();
    const retryLimit = probeMediaJob.retryLimit ?? 0;
    expect(retryLimit).toBeGreaterThan(0);
    for (let retryCount = 0; retryCount < retryLimit; retryCount++) {
      await expect(handle({ media_id: id }, t.app.ctx, { retryCount, retryLimit })).rejects.toThrow();
      expect(await statusOf(id)).toEqual({ status: 'processing', error: null });
    }
    await expect(handle({ media_id: id }, t.app.ctx, { retryCount: retryLimit, retryLimit })).rejects.toThrow();
    expect(await statusOf(id)).toEqual({ status: 'failed', error: 'processing_failed' });
    const media = mediaOutput.parse((await alice.request('GET', `/api/cabinet/media/${id}/`)).json());
    expect(media).toMatchObject({
      error_code: 'processing_failed',
      error: MESSAGES[MEDIA_ERROR_MESSAGES.processing_failed],
    });
  });

  it('through the queue: failed after the last of its runs', async () => {
    const id = await videoWithoutFile();
    const jobId = await t.app.ctx.queue.send(probeMediaJob.name, { media_id: id });
    const deadline = Date.now() + 30_000;
    while ((await statusOf(id)).status === 'processing' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await statusOf(id)).toEqual({ status: 'failed', error: 'processing_failed' });
    const job = await sql<{ state: string; retry_count: number; retry_limit: number }>`
      select state, retry_count, retry_limit from pgboss.job where id = ${jobId}`.execute(t.database.db);
    expect(job.rows[0]).toMatchObject({ retry_count: probeMediaJob.retryLimit, retry_limit: probeMediaJob.retryLimit });
  });
});
