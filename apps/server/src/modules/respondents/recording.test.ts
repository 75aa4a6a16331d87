import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RESPONDENT_LIMITS } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { type Client, filesIn } from '../../test/harness.ts';
import {
  journeyEvents,
  launchedLink,
  respondentClient,
  sha256Hex,
  TINY_WEBM,
  webmChunks,
} from '../../test/respondent.ts';
import { respondentApiPerFile } from './respondents.fixture.ts';

/**
 * A session's recording through the respondent API (decision 010): its chunks (idempotent by index, video only and
 * within the size limit, each segment's first chunk of its own container, stored once when sent at once), its event
 * batches (idempotent by seq, times and researches checked), and the completion refused until both are all there and
 * the content was shown.
 */
let alice: Client;
const { t, db, sessionRow } = respondentApiPerFile((client) => (alice = client));

describe('chunks', () => {
  async function recording() {
    const { token } = await launchedLink(t.app, alice);
    const client = respondentClient(t.app);
    await client.start(token);
    await client.segment();
    return client;
  }

  it('are idempotent by index: a repeat is harmless, other bytes conflict, a gap waits', async () => {
    const client = await recording();
    const [a, b, c] = webmChunks(3) as [Buffer, Buffer, Buffer];
    expect((await client.chunk(0, 0, a)).statusCode).toBe(201);
    const repeat = await client.chunk(0, 0, a);
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json().stored).toBe(false);
    const conflict = await client.chunk(0, 0, b);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().key).toBe('respondent.chunkConflict');
    const gap = await client.chunk(0, 2, c);
    expect(gap.statusCode).toBe(409);
    expect(gap.json().key).toBe('respondent.chunkOutOfOrder');
    const unknown = await client.chunk(5, 0, a);
    expect(unknown.statusCode).toBe(409);
    expect(unknown.json().key).toBe('respondent.segmentUnknown');
    const checksum = await client.chunk(0, 1, b, sha256Hex(c));
    expect(checksum.statusCode).toBe(400);
    expect(checksum.json().key).toBe('respondent.chunkChecksum');
    const none = await client.request('PUT', `/r/sessions/${client.sessionId}/segments/0/chunks/1`, { raw: b });
    expect(none.statusCode).toBe(400);
    expect((await client.chunk(0, 1, b)).statusCode).toBe(201);
    expect(await db().selectFrom('recording_chunks').selectAll().execute()).toHaveLength(2);
    // Only the stored chunks are on disk (the refused ones left nothing).
    expect(await filesIn(join(t.dir, 'recordings', client.sessionId))).toHaveLength(2);
  });

  it('must be video, within the size limit', async () => {
    const client = await recording();
    const text = Buffer.from('<html><script>alert(1)</script></html>');
    const notVideo = await client.chunk(0, 0, text);
    expect(notVideo.statusCode).toBe(415);
    expect(notVideo.json().key).toBe('respondent.chunkNotVideo');
    const big = Buffer.alloc(RESPONDENT_LIMITS.chunkBytes + 1, 1);
    TINY_WEBM.copy(big);
    const tooLarge = await client.chunk(0, 0, big);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().key).toBe('respondent.chunkTooLarge');
    const json = await client.request('PUT', `/r/sessions/${client.sessionId}/segments/0/chunks/0`, {
      body: { a: 1 },
      headers: { 'x-chunk-sha256': sha256Hex(Buffer.from('{"a":1}')) },
    });
    expect(json.statusCode).toBe(415);
    expect(await db().selectFrom('recording_chunks').selectAll().execute()).toHaveLength(0);
  });

  it('start an mp4 segment with an ftyp box, and a webm one with the EBML header', async () => {
    const client = await recording();
    expect((await client.segment('video/mp4')).json().segment).toBe(1);
    const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(12)]);
    // Each segment's first chunk must be its own type.
    expect((await client.chunk(1, 0, TINY_WEBM)).statusCode).toBe(415);
    expect((await client.chunk(0, 0, ftyp)).statusCode).toBe(415);
    expect((await client.chunk(1, 0, ftyp)).statusCode).toBe(201);
    expect((await client.chunk(0, 0, TINY_WEBM)).statusCode).toBe(201);
    // Later chunks are the middle of a file: any bytes.
    expect((await client.chunk(1, 1, Buffer.from('moof-and-mdat'))).statusCode).toBe(201);
  });

  it('sent twice at once are stored once', async () => {
    const client = await recording();
    const [a] = webmChunks(3) as [Buffer];
    const answers = await Promise.all(Array.from({ length: 6 }, () => client.chunk(0, 0, a)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(await db().selectFrom('recording_chunks').selectAll().execute()).toHaveLength(1);
    const files = await filesIn(join(t.dir, 'recordings', client.sessionId));
    expect(files).toHaveLength(1);
    expect((await readFile(files[0] as string)).equals(a)).toBe(true);
  });
});

describe('event batches', () => {
  async function started() {
    const { token, researchIds } = await launchedLink(t.app, alice);
    const client = respondentClient(t.app);
    await client.start(token);
    return { client, researchIds };
  }

  it('are idempotent by seq; a different batch under a stored seq conflicts, a gap waits', async () => {
    const { client } = await started();
    const batch = [{ type: 'step', t: 1, step: 'camera' }] as const;
    expect((await client.events(0, [...batch])).statusCode).toBe(201);
    const repeat = await client.events(0, [...batch]);
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual({ seq: 0, stored: false, next_event_seq: 1 });
    const conflict = await client.events(0, [{ type: 'step', t: 2, step: 'camera' }]);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().key).toBe('respondent.eventBatchConflict');
    const gap = await client.events(2, [{ type: 'step', t: 3, step: 'calibration' }]);
    expect(gap.statusCode).toBe(409);
    expect(gap.json().key).toBe('respondent.eventBatchGap');
    expect((await sessionRow(client.sessionId)).step).toBe('camera');
  });

  it('refuse times going backwards, times in the future and researches not in the order', async () => {
    const { client, researchIds } = await started();
    const backwards = await client.events(0, [
      { type: 'step', t: 5, step: 'camera' },
      { type: 'step', t: 4, step: 'calibration' },
    ]);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().key).toBe('respondent.eventsNotMonotonic');
    expect((await client.events(0, [{ type: 'step', t: 500, step: 'camera' }])).statusCode).toBe(201);
    const beforePrevious = await client.events(1, [{ type: 'step', t: 499, step: 'calibration' }]);
    expect(beforePrevious.statusCode).toBe(400);
    expect(beforePrevious.json().key).toBe('respondent.eventsNotMonotonic');
    const future = await client.events(1, [{ type: 'step', t: 3_600_000, step: 'calibration' }]);
    expect(future.statusCode).toBe(400);
    expect(future.json().key).toBe('respondent.eventsInFuture');
    const wrongResearch = await client.events(1, [
      { type: 'research_start', t: 600, campaign_id: '00000000-0000-0000-0000-000000000000', index: 0 },
    ]);
    expect(wrongResearch.statusCode).toBe(400);
    const wrongIndex = await client.events(1, [
      { type: 'research_start', t: 600, campaign_id: researchIds[0] as string, index: 1 },
    ]);
    expect(wrongIndex.statusCode).toBe(400);
    const unknownType = await client.request('POST', `/r/sessions/${client.sessionId}/events`, {
      body: { seq: 1, events: [{ type: 'keylogger', t: 600, keys: 'secret' }] },
    });
    expect(unknownType.statusCode).toBe(400);
    const right = await client.events(1, [
      { type: 'research_start', t: 600, campaign_id: researchIds[0] as string, index: 0 },
    ]);
    expect(right.statusCode).toBe(201);
    expect(await db().selectFrom('session_event_batches').selectAll().execute()).toHaveLength(2);
  });
});

describe('completion', () => {
  it('is refused until the recording and the log are all there and the content was shown', async () => {
    const { token, researchIds } = await launchedLink(t.app, alice);
    const client = respondentClient(t.app);
    await client.start(token);
    await client.segment();
    const [a, b] = webmChunks(2) as [Buffer, Buffer];
    await client.chunk(0, 0, a);
    await client.events(0, [{ type: 'calibration_end', t: 1 }]);
    const missingChunk = await client.complete([{ segment: 0, chunks: 2 }], 1);
    expect(missingChunk.statusCode).toBe(409);
    expect(missingChunk.json().key).toBe('respondent.recordingIncomplete');
    expect(missingChunk.json().fields).toHaveProperty(['segments.0']);
    await client.chunk(0, 1, b);
    const missingBatch = await client.complete([{ segment: 0, chunks: 2 }], 2);
    expect(missingBatch.statusCode).toBe(409);
    expect(missingBatch.json().fields).toHaveProperty('event_batches');
    const notShown = await client.complete([{ segment: 0, chunks: 2 }], 1);
    expect(notShown.statusCode).toBe(409);
    expect(notShown.json().key).toBe('respondent.contentNotShown');
    expect((await sessionRow(client.sessionId)).status).toBe('started');
    await client.events(
      1,
      journeyEvents(researchIds).map((e) => ({ ...e, t: e.t + 10 })),
    );
    const done = await client.complete([{ segment: 0, chunks: 2 }], 2);
    expect(done.statusCode, done.body).toBe(200);
  });
});
