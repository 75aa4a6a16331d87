import { CSRF_COOKIE, CSRF_HEADER, mediaOutput } from '@emolens/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, beforeEach, expect } from 'vitest';
import { type Client, filesIn, loggedIn } from '../../test/harness.ts';
import { astronautFiles, type MediaTestApp } from '../../test/media-app.ts';

/** What each upload test starts from: the astronaut's files, Alice and Bob, and Alice's project with two researches. */
export interface UploadSetup {
  mp4: Buffer;
  webm: Buffer;
  png: Buffer;
  alice: Client;
  bob: Client;
  projectId: string;
  researchId: string;
  /** A pictures research of the same project: the images go there (a video research takes videos only). */
  picturesId: string;
}

export function metadata(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
}

/**
 * The setup of the media test files that upload through tus (`media-*.test.ts`), called at a file's top level with
 * its app (`mediaAppPerFile`): before the file's tests, the astronaut as a 640 px mp4 and webm and as the PNG, and the
 * job queue working; before each test, after the app is emptied, Alice and Bob logged in and Alice's draft project
 * with a video research and a pictures research, all handed to `keep` for the file's own names. What it gives back
 * sends tus requests as the cabinet's client does and reads what the current test's uploads left.
 */
export function uploadsEachTest(t: MediaTestApp, keep: (setup: UploadSetup) => void) {
  let mp4: Buffer;
  let webm: Buffer;
  let png: Buffer;
  let alice: Client;
  let researchId: string;
  beforeAll(async () => {
    ({ mp4, webm, png } = await astronautFiles(t.dir, 640));
    await t.app.ctx.queue.start({ work: true });
  });
  beforeEach(async () => {
    const users = await loggedIn(t.app, 'alice', 'bob');
    alice = users.alice;
    const projectId = await alice.draftProject();
    const added = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
      body: {
        project_id: projectId,
        campaigns_data: [
          { title: 'Video ad', content_type: 'video' },
          { title: 'Pack shots', content_type: 'pictures' },
        ],
      },
    });
    const [video, picturesId] = added.json().campaigns.map((c: { id: string }) => c.id);
    researchId = video;
    keep({ mp4, webm, png, alice, bob: users.bob, projectId, researchId, picturesId });
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

  /** Nothing of a refused upload is left: no media row, no stored file, no partial upload. */
  async function expectNothingStored() {
    expect(await mediaRows()).toEqual([]);
    expect(await filesIn(t.mediaDir)).toEqual([]);
    expect(await filesIn(t.uploadDir)).toEqual([]);
  }

  return { tus, create, patch, upload, mediaRows, waitForStatus, expectNothingStored };
}
