import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MEDIA_ERROR_MESSAGES, MEDIA_MESSAGES, MESSAGES, mediaOutput } from '@emolens/contracts';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ASTRONAUT, type Client, insertMedia, TEST_BACKEND } from '../../test/harness.ts';
import { ffmpeg, mediaAppPerFile } from '../../test/media-app.ts';
import { probeMediaJob } from './jobs/probe-media.job.ts';
import { type UploadSetup, uploadsEachTest } from './media.fixture.ts';

/**
 * What is checked of an upload: its content, by decoding it (forged files refused, pictures served as what they
 * are, a video that does not play failed); its metadata that is not text; a video's probe, failed on its last retry.
 */
const t = mediaAppPerFile('media-checks');
let { mp4, webm, png, alice, bob, researchId, picturesId } = {} as UploadSetup;
const { create, expectNothingStored, mediaRows, patch, tus, upload, waitForStatus } = uploadsEachTest(
  t,
  (u) => ({ mp4, webm, png, alice, bob, researchId, picturesId } = u),
);

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
