import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DOT_TEST_LIMITS, type DotTestEvent } from '@emolens/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JOBS } from '../../jobs/registry.ts';
import { createTestApp, createTestAppWithFiles, filesIn, TEST_BACKEND, type TestApp } from '../../test/harness.ts';
import { type BearerRequestOptions, bearerRequest } from '../../test/over-http.ts';
import { sha256Hex, webmChunks } from '../../test/respondent.ts';
import { analyzeDotTestJob, cleanDotTestsJob } from './jobs/dot-test-jobs.ts';

/** A browser running the setup check: its test id and secret, and requests with them. */
class DotTestClient {
  id = '';
  secret = '';
  constructor(
    private readonly app: FastifyInstance,
    private readonly address = '127.0.0.1',
  ) {}

  request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    options: BearerRequestOptions = {},
  ): Promise<LightMyRequestResponse> {
    return bearerRequest(this.app, { method, url, secret: this.secret, address: this.address }, options);
  }

  async start(body: unknown = startBody()): Promise<LightMyRequestResponse> {
    const res = await this.request('POST', '/r/dot-tests', { body, secret: null });
    if (res.statusCode === 201) {
      this.id = res.json().test.id;
      this.secret = res.json().secret;
    }
    return res;
  }

  state(secret?: string | null) {
    return this.request('GET', `/r/dot-tests/${this.id}`, { secret });
  }

  chunk(index: number, bytes: Buffer, sha = sha256Hex(bytes), secret?: string | null) {
    return this.request('PUT', `/r/dot-tests/${this.id}/chunks/${index}`, {
      raw: bytes,
      headers: { 'x-chunk-sha256': sha },
      secret,
    });
  }

  events(seq: number, events: unknown[], secret?: string | null) {
    return this.request('POST', `/r/dot-tests/${this.id}/events`, { body: { seq, events }, secret });
  }

  complete(chunks: number, batches: number, secret?: string | null) {
    return this.request('POST', `/r/dot-tests/${this.id}/complete`, {
      body: { chunks, event_batches: batches },
      secret,
    });
  }

  remove(secret?: string | null) {
    return this.request('DELETE', `/r/dot-tests/${this.id}`, { secret });
  }
}

const startBody = () => ({
  consent: { accepted: true, retention_days: DOT_TEST_LIMITS.retentionDays, language: 'en' },
  screen: { width: 1280, height: 800, device_pixel_ratio: 2 },
  mime_type: 'video/webm',
});

/** A calibration and validation on the test's clock (times in ms, starting at 0). */
function calibrationEvents(): DotTestEvent[] {
  const events: DotTestEvent[] = [
    { type: 'screen', t: 0, width: 1280, height: 800, device_pixel_ratio: 2 },
    { type: 'calibration_start', t: 1 },
  ];
  for (let i = 0; i < 10; i++) events.push({ type: 'calibration_dot', t: 2 + i, x: 100 + i * 100, y: 400 });
  events.push({ type: 'calibration_end', t: 20 });
  events.push({ type: 'validation_dot', t: 21, x: 640, y: 400 });
  events.push({ type: 'validation_end', t: 30 });
  return events;
}

let t: TestApp & { dir: string };
beforeAll(async () => {
  t = await createTestAppWithFiles('dot-test');
});
afterAll(() => t?.close());
beforeEach(async () => {
  await t.reset();
  await rm(join(t.dir, 'dot-tests'), { recursive: true, force: true });
});

const db = () => t.app.ctx.database.db;
const row = (id: string) => db().selectFrom('dot_tests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** A test with its recording and log sent and completed. */
async function recorded(address?: string): Promise<DotTestClient> {
  const client = new DotTestClient(t.app, address);
  expect((await client.start()).statusCode).toBe(201);
  for (const [index, bytes] of webmChunks(3).entries()) {
    const res = await client.chunk(index, bytes);
    expect(res.statusCode, res.body).toBe(201);
  }
  expect((await client.events(0, calibrationEvents())).statusCode).toBe(201);
  const done = await client.complete(3, 1);
  expect(done.statusCode, done.body).toBe(200);
  return client;
}

describe(`the setup check's API on ${TEST_BACKEND}`, () => {
  it('starts a test with a secret stored hashed and a 7-day expiry', async () => {
    const client = new DotTestClient(t.app);
    const res = await client.start();
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.secret).toMatch(/^[\w-]{43}$/);
    expect(body.test).toMatchObject({ status: 'recording', progress: 0, error: null, result: null });
    const stored = await row(client.id);
    expect(stored.secret_hash).not.toBe(body.secret);
    expect(stored.secret_hash).toHaveLength(43);
    const days = (new Date(stored.expires_at).getTime() - new Date(stored.created_at).getTime()) / 86_400_000;
    expect(days).toBeCloseTo(7, 2);
    expect((await client.state()).json()).toMatchObject({ id: client.id, status: 'recording' });
  });

  it('refuses bad input with 4xx and stores nothing', async () => {
    const client = new DotTestClient(t.app);
    const bad = [
      {},
      { ...startBody(), consent: { ...startBody().consent, accepted: false } },
      { ...startBody(), consent: { ...startBody().consent, retention_days: 30 } },
      { ...startBody(), screen: { width: 10, height: 800, device_pixel_ratio: 1 } },
      { ...startBody(), mime_type: 'video/x-matroska' },
      { ...startBody(), extra: true },
      { ...startBody(), consent: { ...startBody().consent, language: 'de' } },
    ];
    for (const body of bad) {
      const res = await client.start(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const nul = await client.start({ ...startBody(), consent: { ...startBody().consent, language: 'e\u0000n' } });
    expect(nul.statusCode).toBe(400);
    expect(await db().selectFrom('dot_tests').select('id').execute()).toHaveLength(0);
  });

  it('records chunks idempotently by index and refuses damaged, reordered or foreign bytes', async () => {
    const client = new DotTestClient(t.app);
    await client.start();
    const [first, second] = webmChunks(3) as [Buffer, Buffer];
    expect((await client.chunk(1, second)).json().key).toBe('respondent.chunkOutOfOrder');
    const notVideo = await client.chunk(0, Buffer.from('not a video at all'));
    expect(notVideo.statusCode).toBe(415);
    expect((await client.chunk(0, first, '0'.repeat(64))).statusCode).toBe(400);
    expect((await client.chunk(0, first)).statusCode).toBe(201);
    expect((await client.chunk(0, first)).statusCode).toBe(200);
    expect((await client.chunk(0, second)).statusCode).toBe(409);
    const big = Buffer.alloc(DOT_TEST_LIMITS.chunkBytes + 1);
    expect((await client.chunk(1, big)).statusCode).toBe(413);
    expect((await client.chunk(DOT_TEST_LIMITS.chunks, second)).statusCode).toBe(400);
    expect((await client.chunk(-1, second)).statusCode).toBe(400);
    const json = await client.request('PUT', `/r/dot-tests/${client.id}/chunks/1`, { body: { a: 1 } });
    expect(json.statusCode).toBe(415);
    expect(await filesIn(t.dir)).toHaveLength(1);
  });

  it('keeps the event log in order: only calibration events, monotonic, inside the clock, no gaps', async () => {
    const client = new DotTestClient(t.app);
    await client.start();
    const foreign = await client.events(0, [{ type: 'research_start', t: 1, campaign_id: 'x', index: 0 }]);
    expect(foreign.statusCode).toBe(400);
    const backwards = await client.events(0, [
      { type: 'calibration_start', t: 5 },
      { type: 'calibration_end', t: 4 },
    ]);
    expect(backwards.json().key).toBe('respondent.eventsNotMonotonic');
    const future = await client.events(0, [{ type: 'calibration_start', t: 3_000_000 }]);
    expect(future.json().key).toBe('respondent.eventsInFuture');
    expect((await client.events(1, calibrationEvents())).json().key).toBe('respondent.eventBatchGap');
    expect((await client.events(0, calibrationEvents())).statusCode).toBe(201);
    expect((await client.events(0, calibrationEvents())).statusCode).toBe(200);
    expect((await client.events(0, [{ type: 'validation_end', t: 40 }])).statusCode).toBe(409);
    const tooMany = Array.from({ length: DOT_TEST_LIMITS.eventsPerBatch + 1 }, (_, i) => ({
      type: 'calibration_dot',
      t: 100 + i,
      x: 1,
      y: 1,
    }));
    expect((await client.events(1, tooMany)).statusCode).toBe(400);
  });

  it('completes only when every chunk and batch arrived and the calibration finished; then queues it', async () => {
    const client = new DotTestClient(t.app);
    await client.start();
    for (const [index, bytes] of webmChunks(2).entries()) await client.chunk(index, bytes);
    await client.events(0, calibrationEvents().slice(0, 5));
    expect((await client.complete(3, 1)).json().key).toBe('respondent.recordingIncomplete');
    expect((await client.complete(2, 2)).json().key).toBe('respondent.recordingIncomplete');
    expect((await client.complete(2, 1)).json().key).toBe('respondent.dotTestCalibrationIncomplete');
    await client.events(1, calibrationEvents().slice(5));
    const done = await client.complete(2, 2);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().status).toBe('queued');
    // A repeat answers the state; nothing more is recorded.
    expect((await client.complete(2, 2)).json().status).toBe('queued');
    const late = await client.chunk(2, webmChunks(3)[2] as Buffer);
    expect(late.json().key).toBe('respondent.dotTestSent');
    expect((await client.events(2, [{ type: 'visibility', t: 50, hidden: true }])).json().key).toBe(
      'respondent.dotTestSent',
    );
  });

  it("answers every call without the test's own secret with 404, whatever the body", async () => {
    const mine = await recorded();
    const other = new DotTestClient(t.app);
    await other.start();
    const chunk = webmChunks(3)[0] as Buffer;
    for (const secret of [null, other.secret, 'x'.repeat(43), `${mine.secret}x`]) {
      const calls = [
        mine.state(secret),
        mine.chunk(0, chunk, sha256Hex(chunk), secret),
        mine.events(0, calibrationEvents(), secret),
        mine.events(0, 'garbage' as unknown as unknown[], secret),
        mine.complete(3, 1, secret),
        mine.remove(secret),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode, `${secret}: ${res.body}`).toBe(404);
        expect(res.json().key).toBe('respondent.dotTestNotFound');
      }
    }
    const unknown = await mine.request('GET', '/r/dot-tests/not-a-uuid');
    expect(unknown.statusCode).toBe(404);
    expect((await mine.state()).statusCode).toBe(200);
    expect((await row(mine.id)).status).toBe('queued');
  });

  it('deletes a test with its recording on request', async () => {
    const client = await recorded();
    expect((await filesIn(t.dir)).length).toBe(3);
    expect((await client.remove()).statusCode).toBe(204);
    expect((await client.state()).statusCode).toBe(404);
    expect(await filesIn(t.dir)).toHaveLength(0);
  });

  it('fails the analysis with a typed error when the recording is gone from storage', async () => {
    const client = await recorded();
    await rm(join(t.dir, 'dot-tests'), { recursive: true, force: true });
    await t.app.ctx.queue.run(analyzeDotTestJob, { dot_test_id: client.id });
    const state = (await client.state()).json();
    expect(state).toMatchObject({ status: 'failed', error: 'recording_missing', result: null });
  });

  it('cleans up tests past their 7 days, their files through the storage trash, and keeps the rest', async () => {
    const old = await recorded();
    const fresh = await recorded();
    expect((await filesIn(t.dir)).length).toBe(6);
    await db()
      .updateTable('dot_tests')
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('id', '=', old.id)
      .execute();
    await t.app.ctx.queue.run(cleanDotTestsJob, {});
    expect((await old.state()).statusCode).toBe(404);
    expect((await fresh.state()).statusCode).toBe(200);
    const left = await filesIn(t.dir);
    expect(left).toHaveLength(3);
    expect(left.every((f) => f.includes(fresh.id))).toBe(true);
    expect(await db().selectFrom('dot_test_chunks').select('dot_test_id').distinct().execute()).toEqual([
      { dot_test_id: fresh.id },
    ]);
    expect(await db().selectFrom('storage_trash').select('key').execute()).toEqual([]);
  });

  it('fails an analysis whose worker died for good, so the page stops waiting; a live one is left alone', async () => {
    const dead = await recorded();
    const live = await recorded();
    await db()
      .updateTable('dot_tests')
      .set({ status: 'processing', updated_at: sql<Date>`now() - interval '31 minutes'` })
      .where('id', '=', dead.id)
      .execute();
    await db().updateTable('dot_tests').set({ status: 'processing' }).where('id', '=', live.id).execute();
    await t.app.ctx.queue.run(cleanDotTestsJob, {});
    expect((await dead.state()).json()).toMatchObject({ status: 'failed', error: 'engine_crashed' });
    expect((await live.state()).json()).toMatchObject({ status: 'processing', error: null });
  });

  it('registers both jobs with the queue, the clean-up on a schedule', () => {
    expect(JOBS).toContain(analyzeDotTestJob);
    expect(JOBS).toContain(cleanDotTestsJob);
    expect(cleanDotTestsJob.cron).toBe('*/10 * * * *');
  });
});

describe('the rate limit on starting checks', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ dotTestStartsPerHour: 2 });
  });
  afterAll(() => limited?.close());

  it('lets an address start a few checks an hour, then answers 429 with a retry time', async () => {
    const a = new DotTestClient(limited.app, '10.0.0.1');
    expect((await a.start()).statusCode).toBe(201);
    expect((await a.start()).statusCode).toBe(201);
    const third = await a.start();
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(60);
    // Another address is counted apart, and the started test's own calls are not this limit's.
    expect((await new DotTestClient(limited.app, '10.0.0.2').start()).statusCode).toBe(201);
    expect((await a.state()).statusCode).toBe(200);
  });
});
