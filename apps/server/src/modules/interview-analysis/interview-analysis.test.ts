import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  DEMO_ID_HEADER,
  demoAnalysisOutput,
  demoListOutput,
  demoResultOutput,
  MEDIA_MESSAGES,
  sessionsCounted,
} from '@emolens/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Client, filesIn, loggedIn } from '../../test/harness.ts';
import { astronautFiles, mediaAppPerFile } from '../../test/media-app.ts';
import { emptyStorageTrashJob } from '../media/jobs/empty-storage-trash.job.ts';
import { analyzeDemoJob } from './jobs/analyze-demo.job.ts';

const t = mediaAppPerFile('demo-test', { engineWorkers: 1 });
let mp4: Buffer;
let webm: Buffer;
let png: Buffer;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  ({ mp4, webm, png } = await astronautFiles(t.dir, 320));
  // Jobs are sent but run here, by the test, one at a time.
  await t.app.ctx.queue.start({ work: false });
}, 60_000);
beforeEach(async () => {
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
});

/** A whole file uploaded as the demo page does it (tus: create, then one PATCH); the last answer. */
async function upload(
  client: Client,
  filename: string,
  body: Buffer,
  fields: Record<string, string> = { demo_kind: 'demo' },
): Promise<LightMyRequestResponse> {
  if (!client.cookies.has(CSRF_COOKIE)) await client.request('GET', '/api/auth/csrf/');
  const metadata = Object.entries({ filename, filetype: '', ...fields })
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
  const headers = {
    'tus-resumable': '1.0.0',
    cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    [CSRF_HEADER]: client.cookies.get(CSRF_COOKIE) ?? '',
  };
  const created = await t.app.inject({
    method: 'POST',
    url: '/mediaserver',
    headers: { ...headers, 'upload-length': String(body.length), 'upload-metadata': metadata },
  });
  if (created.statusCode !== 201) return created;
  return t.app.inject({
    method: 'PATCH',
    url: String(created.headers.location),
    headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    payload: body,
  });
}

async function uploaded(client: Client, filename: string, body: Buffer, kind: 'demo' | 'interview' = 'demo') {
  const res = await upload(client, filename, body, { demo_kind: kind });
  expect(res.statusCode, res.body).toBe(204);
  const id = String(res.headers[DEMO_ID_HEADER]);
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return id;
}

const rows = () => t.database.db.selectFrom('demo_analyses').selectAll().execute();

describe('demo uploads', () => {
  it('stores a video as a queued analysis of its kind, listed for its owner only', async () => {
    const demoId = await uploaded(alice, 'me.mp4', mp4);
    const interviewId = await uploaded(alice, 'talk.webm', webm, 'interview');
    const demo = demoAnalysisOutput.parse((await alice.request('GET', `/api/cabinet/demo/${demoId}/`)).json());
    expect(demo).toMatchObject({
      kind: 'demo',
      filename: 'me.mp4',
      size: mp4.length,
      status: 'queued',
      progress: 0,
      error_code: null,
      summary: null,
      sessions_counted: null,
    });
    expect(demo.duration_seconds).toBeCloseTo(2, 1);
    const list = demoListOutput.parse((await alice.request('GET', '/api/cabinet/demo/?kind=interview')).json());
    expect(list.items.map((i) => i.id)).toEqual([interviewId]);
    const [row] = (await rows()).filter((r) => r.id === interviewId);
    expect(row?.mime).toBe('video/webm');
    expect(await filesIn(t.mediaDir)).toHaveLength(2);
    expect((await bob.request('GET', '/api/cabinet/demo/?kind=demo')).json().items).toEqual([]);
    expect((await alice.request('GET', '/api/cabinet/demo/?kind=other')).statusCode).toBe(400);
  });

  it('refuses what is not a video, whatever its name says, keeping nothing', async () => {
    const picture = await upload(alice, 'me.mp4', png);
    expect(picture.statusCode).toBe(415);
    expect(picture.body).toBe(MEDIA_MESSAGES.invalidFormat);
    expect(MEDIA_MESSAGES.invalidFormat).toBe('Invalid file format');
    const text = await upload(alice, 'me.webm', Buffer.from('<html>not a video</html>'.repeat(20)));
    expect(text.statusCode).toBe(415);
    // A Matroska header followed by noise: the first bytes alone decide nothing.
    const fake = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(4096, 7)]);
    expect((await upload(alice, 'me.mkv', fake)).statusCode).toBe(415);
    // Refused at creation: a picture's name, an unknown kind.
    expect((await upload(alice, 'me.png', png)).statusCode).toBe(415);
    expect((await upload(alice, 'me.mp4', mp4, { demo_kind: 'party' })).statusCode).toBe(400);
    expect(await rows()).toEqual([]);
    expect(await filesIn(t.mediaDir)).toEqual([]);
    expect((await filesIn(join(t.uploadDir, '.finishing'))).length).toBe(0);
  });

  it('keeps each analysis private: another user gets 404 for every call', async () => {
    const id = await uploaded(alice, 'me.mp4', mp4);
    for (const path of ['', 'result/', 'video/', 'frames/?format=csv']) {
      expect((await bob.request('GET', `/api/cabinet/demo/${id}/${path}`)).statusCode, path).toBe(404);
    }
    expect((await bob.request('DELETE', `/api/cabinet/demo/${id}/`)).statusCode).toBe(404);
    expect((await alice.request('GET', '/api/cabinet/demo/not-an-id/')).statusCode).toBe(404);
    // Not finished yet: no result to show.
    const early = await alice.request('GET', `/api/cabinet/demo/${id}/result/`);
    expect(early.statusCode).toBe(404);
    expect(early.json().key).toBe('demo.notReady');
    expect(await rows()).toHaveLength(1);
  });

  it('serves the video with byte ranges', async () => {
    const id = await uploaded(alice, 'me.mp4', mp4);
    const whole = await alice.request('GET', `/api/cabinet/demo/${id}/video/`);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.rawPayload.equals(mp4)).toBe(true);
    const part = await alice.request('GET', `/api/cabinet/demo/${id}/video/`, { headers: { range: 'bytes=10-19' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${mp4.length}`);
    expect(part.rawPayload.equals(mp4.subarray(10, 20))).toBe(true);
    const outside = await alice.request('GET', `/api/cabinet/demo/${id}/video/`, {
      headers: { range: `bytes=${mp4.length + 5}-` },
    });
    expect(outside.statusCode).toBe(416);
  });

  it('deletes the analysis and its stored video', async () => {
    const id = await uploaded(alice, 'me.mp4', mp4);
    expect(await filesIn(t.mediaDir)).toHaveLength(1);
    expect((await alice.request('DELETE', `/api/cabinet/demo/${id}/`)).statusCode).toBe(204);
    expect(await rows()).toEqual([]);
    await t.app.ctx.queue.run(emptyStorageTrashJob, {});
    expect(await filesIn(t.mediaDir)).toEqual([]);
    expect((await alice.request('GET', `/api/cabinet/demo/${id}/`)).statusCode).toBe(404);
  });
});

describe('the analyze-demo job', () => {
  it('analyses a demo clip: face box per frame, curves, summary, CSV and JSON exports', async () => {
    const id = await uploaded(alice, 'me.mp4', mp4);
    await t.app.ctx.queue.run(analyzeDemoJob, { demo_id: id });
    const res = await alice.request('GET', `/api/cabinet/demo/${id}/result/`);
    expect(res.statusCode, res.body).toBe(200);
    const result = demoResultOutput.parse(res.json());
    expect(result.analysis).toMatchObject({ status: 'done', progress: 100, error_code: null, sessions_counted: null });
    expect(result.analysis.engine_version).toEqual(expect.any(String));
    const summary = result.analysis.summary;
    expect(summary?.face_found).toBe(true);
    expect(summary?.frames).toBeGreaterThanOrEqual(15);
    expect(summary?.flags.no_face).toBe(0);
    expect(result.boxes.time.length).toBe(summary?.frames);
    expect(result.boxes.w.every((w) => w !== null && w > 20)).toBe(true);
    expect(result.sampling.width).toBe(320);
    expect(result.series.second.length).toBeGreaterThanOrEqual(2);
    // The astronaut smiles: happy is the strongest expression.
    const mean = (name: string) => {
      const values = (result.series.expressions[name] ?? []).filter((v): v is number => v !== null);
      return values.reduce((a, b) => a + b, 0) / values.length;
    };
    expect(mean('happy')).toBeGreaterThan(mean('sad'));
    expect(result.people).toEqual([]);

    const csv = await alice.request('GET', `/api/cabinet/demo/${id}/frames/?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain('me.frames.csv');
    const lines = csv.body.trim().split('\n');
    expect(lines[0]?.startsWith('time,face_count,flags,box_x')).toBe(true);
    expect(lines).toHaveLength((summary?.frames ?? 0) + 1);
    const json = await alice.request('GET', `/api/cabinet/demo/${id}/frames/?format=json`);
    const parsed = JSON.parse(json.body) as { frames: { time: number; happy: number }[]; faces: unknown[] };
    expect(parsed.frames).toHaveLength(summary?.frames ?? -1);
    expect(parsed.frames[0]?.happy).toBeGreaterThan(0.3);
    expect((await alice.request('GET', `/api/cabinet/demo/${id}/frames/?format=xml`)).statusCode).toBe(400);
  }, 120_000);

  it('tracks people in an interview and counts its 5-minute sessions', async () => {
    const id = await uploaded(alice, 'talk.webm', webm, 'interview');
    await t.app.ctx.queue.run(analyzeDemoJob, { demo_id: id });
    const result = demoResultOutput.parse((await alice.request('GET', `/api/cabinet/demo/${id}/result/`)).json());
    expect(result.analysis).toMatchObject({ status: 'done', sessions_counted: 1 });
    expect(result.people).toHaveLength(1);
    expect(result.people[0]?.series.second.length).toBeGreaterThanOrEqual(1);
    const [row] = await rows();
    expect(row?.sessions_counted).toBe(1);
  }, 120_000);

  it('ends in a typed error when the stored video is gone, and runs no second time', async () => {
    const id = await uploaded(alice, 'me.mp4', mp4);
    for (const file of await filesIn(t.mediaDir)) await rm(file);
    await t.app.ctx.queue.run(analyzeDemoJob, { demo_id: id });
    const after = demoAnalysisOutput.parse((await alice.request('GET', `/api/cabinet/demo/${id}/`)).json());
    expect(after.status).toBe('error');
    expect(after.error_code).toBe('file_not_found');
    await t.app.ctx.queue.run(analyzeDemoJob, { demo_id: id });
    expect((await rows())[0]?.attempts).toBe(1);
  }, 60_000);
});

describe('sessions counted', () => {
  it('counts every started 5-minute interval', () => {
    expect(sessionsCounted(0)).toBe(0);
    expect(sessionsCounted(1)).toBe(1);
    expect(sessionsCounted(300)).toBe(1);
    expect(sessionsCounted(300.5)).toBe(2);
    expect(sessionsCounted(3599)).toBe(12);
    expect(sessionsCounted(7200)).toBe(24);
  });
});
