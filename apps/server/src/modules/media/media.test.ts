import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CSRF_COOKIE, CSRF_HEADER, MEDIA_LIMITS, MESSAGES, mediaListOutput, mediaOutput } from '@emolens/contracts';
import { ffmpegPaths } from '@emolens/engine';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ASTRONAUT, Client, createTestApp, filesIn, loggedIn, TEST_BACKEND, type TestApp } from '../../test/harness.ts';
import { cleanUploadsJob } from './jobs/clean-uploads.job.ts';

let t: TestApp;
let dir: string;
let mediaDir: string;
let uploadDir: string;
let mp4: Buffer;
let webm: Buffer;
let png: Buffer;
let alice: Client;
let bob: Client;
let projectId: string;
let campaignId: string;

function ffmpeg(args: string[]): void {
  execFileSync(ffmpegPaths().ffmpeg, ['-v', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A still photograph as a 2-second, 10 fps video, 640 px wide. */
function stillVideo(out: string, codec: string[]): void {
  ffmpeg(['-loop', '1', '-i', ASTRONAUT, '-t', '2', '-r', '10', '-vf', 'scale=640:-2', ...codec, out]);
}

beforeAll(async () => {
  if (!existsSync(ASTRONAUT)) throw new Error(`${ASTRONAUT} missing: apt-get install -y python3-skimage`);
  dir = await mkdtemp(join(tmpdir(), 'emolens-media-test-'));
  mediaDir = join(dir, 'media');
  uploadDir = join(dir, 'uploads');
  stillVideo(join(dir, 'astronaut.mp4'), ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']);
  stillVideo(join(dir, 'astronaut.webm'), ['-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '1M']);
  [mp4, webm, png] = await Promise.all([
    readFile(join(dir, 'astronaut.mp4')),
    readFile(join(dir, 'astronaut.webm')),
    readFile(ASTRONAUT),
  ]);
  t = await createTestApp({ storage: { kind: 'local', dir: mediaDir }, uploadDir });
  await t.app.ctx.queue.start({ work: true });
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await t.reset();
  await rm(mediaDir, { recursive: true, force: true });
  await rm(uploadDir, { recursive: true, force: true });
  await mkdir(join(uploadDir, '.finishing'), { recursive: true });
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
  projectId = await alice.draftProject();
  const added = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
    body: { project_id: projectId, campaigns_data: [{ title: 'Video ad', content_type: 'video' }] },
  });
  campaignId = added.json().campaigns[0].id;
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
      'upload-metadata': metadata({ filename: 'ad.mp4', filetype: 'video/mp4', campaign_id: campaignId, ...fields }),
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
      campaign_id: campaignId,
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
    const stored = await filesIn(mediaDir);
    expect(stored.map((f) => f.slice(mediaDir.length))).toEqual(
      expect.arrayContaining([
        `/campaigns/${campaignId}/${mediaId}.mp4`,
        `/campaigns/${campaignId}/${mediaId}.poster.jpg`,
      ]),
    );
    expect((await readFile(join(mediaDir, 'campaigns', campaignId, `${mediaId}.mp4`))).equals(mp4)).toBe(true);
    expect(await filesIn(uploadDir)).toEqual([]);
    expect((await tus(alice, 'HEAD', location)).statusCode).toBe(404);

    const list = mediaListOutput.parse(
      (await alice.request('GET', `/api/cabinet/campaigns/${campaignId}/media/`)).json(),
    );
    expect(list.items.map((m) => m.id)).toEqual([mediaId]);
    expect((await bob.request('GET', `/api/cabinet/campaigns/${campaignId}/media/`)).statusCode).toBe(404);
  });

  it('accepts a webm video and a PNG picture, checked by content', async () => {
    const video = await upload(alice, webm, { filename: 'clip.webm', filetype: 'video/webm' });
    expect(video.statusCode, video.body).toBe(204);
    const probed = await waitForStatus(String(video.headers['x-media-id']));
    expect(probed).toMatchObject({ status: 'ready', mime: 'video/webm', width: 640, height: 640 });

    const picture = await upload(alice, png, { filename: 'Pack shot.PNG', filetype: 'image/png', role: 'picture' });
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
    expect(await filesIn(mediaDir)).toEqual([]);
    expect(await filesIn(uploadDir)).toEqual([]);
    // A PNG named .mp4 is refused the same way: the content must match the declared kind.
    expect((await upload(alice, png)).body).toBe(MESSAGES['media.invalidFormat']);
    expect(await mediaRows()).toEqual([]);
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
    expect(await filesIn(uploadDir)).toEqual([]);
  });

  it("refuses a declared length over the limit with 'File is too large'", async () => {
    const video = await create(alice, MEDIA_LIMITS.videoBytes + 1);
    expect(video.statusCode).toBe(413);
    expect(video.body).toBe(MESSAGES['media.tooLarge']);
    const image = await create(alice, MEDIA_LIMITS.imageBytes + 1, { filename: 'big.jpg', filetype: 'image/jpeg' });
    expect(image.statusCode).toBe(413);
    expect(image.body).toBe(MESSAGES['media.tooLarge']);
    // At the limit it is accepted.
    expect((await create(alice, MEDIA_LIMITS.videoBytes)).statusCode).toBe(201);
  });

  it("keeps other users out: another user's research, another user's upload", async () => {
    const intruder = await create(bob, mp4.length);
    expect(intruder.statusCode).toBe(404);
    expect(await filesIn(uploadDir)).toEqual([]);

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
    expect(await filesIn(uploadDir)).toHaveLength(2);
  });

  it("refuses uploads to a launched project's research, also when it is launched mid-upload", async () => {
    const created = await create(alice, mp4.length);
    const location = String(created.headers.location);
    await patch(alice, location, 0, mp4.subarray(0, 100));
    expect((await alice.request('POST', `/api/cabinet/projects/${projectId}/launch/`)).statusCode).toBe(200);

    const late = await patch(alice, location, 100, mp4.subarray(100));
    expect(late.statusCode).toBe(409);
    expect(await mediaRows()).toEqual([]);
    expect(await filesIn(mediaDir)).toEqual([]);
    expect(await filesIn(uploadDir)).toEqual([]);

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
    expect((await alice.request('GET', `/api/cabinet/campaigns/${campaignId}/media/`)).json().items).toEqual([]);

    // A day later, the scheduled clean-up finds it abandoned.
    const infoFile = join(uploadDir, `${id}.json`);
    const info = JSON.parse(await readFile(infoFile, 'utf8'));
    info.creation_date = new Date(Date.now() - 25 * 3_600_000).toISOString();
    await writeFile(infoFile, JSON.stringify(info));
    await t.app.ctx.queue.run(cleanUploadsJob, {});
    expect(await filesIn(uploadDir)).toEqual([]);
    expect((await tus(alice, 'HEAD', location)).statusCode).toBe(404);
  });

  it('lets the owner abandon an upload with DELETE', async () => {
    const created = await create(alice, mp4.length);
    const location = String(created.headers.location);
    await patch(alice, location, 0, mp4.subarray(0, 1000));
    expect((await tus(alice, 'DELETE', location)).statusCode).toBe(204);
    expect(await filesIn(uploadDir)).toEqual([]);
  });

  it('deletes a file of an editable research with its stored bytes, and refuses once launched', async () => {
    const first = await upload(alice, png, { filename: 'a.png', filetype: 'image/png' });
    const second = await upload(alice, png, { filename: 'b.png', filetype: 'image/png' });
    const firstId = String(first.headers['x-media-id']);
    const secondId = String(second.headers['x-media-id']);
    expect(await filesIn(mediaDir)).toHaveLength(2);

    expect((await bob.request('DELETE', `/api/cabinet/media/${firstId}/`)).statusCode).toBe(404);
    expect((await alice.request('DELETE', `/api/cabinet/media/${firstId}/`)).statusCode).toBe(204);
    expect((await alice.request('GET', `/api/cabinet/media/${firstId}/`)).statusCode).toBe(404);
    expect(await filesIn(mediaDir)).toHaveLength(1);

    await alice.request('POST', `/api/cabinet/projects/${projectId}/launch/`);
    const frozen = await alice.request('DELETE', `/api/cabinet/media/${secondId}/`);
    expect(frozen.statusCode).toBe(409);
    expect((await mediaRows()).map((m) => m.id)).toEqual([secondId]);
    expect(await filesIn(mediaDir)).toHaveLength(1);
  });
});
