import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ASTRONAUT,
  type Client,
  createTestAppWithFiles,
  insertMedia,
  loggedIn,
  markLaunched,
  type TestApp,
} from '../../test/harness.ts';
import { openApiOperations } from '../../test/openapi.ts';
import {
  createQuestionnaire,
  journeyEvents,
  launchedLink,
  linkQuestionnaires,
  type RespondentClient,
  respondentClient,
  SCREEN,
  sha256Hex,
  webmChunks,
} from '../../test/respondent.ts';
import { randomToken } from '../auth/tokens.ts';
import { signedMediaUrl } from './media-links.ts';

/**
 * A respondent session is reached with its id and its secret, nothing else: every operation of a
 * session, tried with another session's secret, with none and with a forged one, is "not found"
 * and changes nothing. Content files are reached only by the URLs signed for a running session.
 */
let t: TestApp & { dir: string };
let alice: Client;
beforeAll(async () => {
  t = await createTestAppWithFiles('respondent-security');
});
afterAll(() => t?.close());
beforeEach(async () => {
  await t.reset();
  ({ alice } = await loggedIn(t.app, 'alice'));
});

const db = () => t.app.ctx.database.db;

/** Everything the respondent side stores, to compare before and after. */
async function snapshot() {
  return {
    sessions: await db().selectFrom('respondent_sessions').selectAll().orderBy('id').execute(),
    segments: await db()
      .selectFrom('recording_segments')
      .selectAll()
      .orderBy('session_id')
      .orderBy('segment')
      .execute(),
    chunks: await db().selectFrom('recording_chunks').selectAll().orderBy('session_id').orderBy('index').execute(),
    batches: await db().selectFrom('session_event_batches').selectAll().orderBy('session_id').orderBy('seq').execute(),
    processes: await db().selectFrom('video_processes').selectAll().execute(),
    answers: await db().selectFrom('respondent_answers').selectAll().orderBy('session_id').orderBy('slot').execute(),
    places: await db().selectFrom('respondent_quota_places').selectAll().orderBy('session_id').execute(),
  };
}

/** A session that has recorded a chunk and logged its journey: one call from completing. */
async function readyToComplete(token: string): Promise<RespondentClient> {
  const client = respondentClient(t.app);
  expect((await client.start(token)).statusCode).toBe(201);
  expect((await client.segment()).statusCode).toBe(201);
  expect((await client.chunk(0, 0, webmChunks(2)[0] as Buffer)).statusCode).toBe(201);
  const researches = client.session?.researches.map((r) => r.campaign_id) ?? [];
  expect((await client.events(0, journeyEvents(researches))).statusCode).toBe(201);
  return client;
}

/** Every operation of a session, as a valid call of `victim`'s (with the given secret). */
function sessionCalls(victim: RespondentClient) {
  const id = victim.sessionId;
  const second = webmChunks(2)[1] as Buffer;
  return [
    {
      op: 'GET /r/sessions/{id}',
      send: (secret: string | null) => victim.request('GET', `/r/sessions/${id}`, { secret }),
    },
    {
      op: 'POST /r/sessions/{id}/segments',
      send: (secret: string | null) =>
        victim.request('POST', `/r/sessions/${id}/segments`, {
          secret,
          body: { mime_type: 'video/webm', screen: SCREEN },
        }),
    },
    {
      op: 'PUT /r/sessions/{id}/segments/{segment}/chunks/{index}',
      send: (secret: string | null) =>
        victim.request('PUT', `/r/sessions/${id}/segments/0/chunks/1`, {
          secret,
          raw: second,
          headers: { 'x-chunk-sha256': sha256Hex(second) },
        }),
    },
    {
      op: 'POST /r/sessions/{id}/events',
      send: (secret: string | null) =>
        victim.request('POST', `/r/sessions/${id}/events`, {
          secret,
          body: { seq: 1, events: [{ type: 'step', t: 100, step: 'end' }] },
        }),
    },
    {
      op: 'PUT /r/sessions/{id}/surveys/{slot}/answers',
      send: (secret: string | null) =>
        victim.request('PUT', `/r/sessions/${id}/surveys/survey/answers`, {
          secret,
          body: { answers: { liked: { number: 4 } }, final: true },
        }),
    },
    {
      op: 'POST /r/sessions/{id}/complete',
      send: (secret: string | null) =>
        victim.request('POST', `/r/sessions/${id}/complete`, {
          secret,
          body: { segments: [{ segment: 0, chunks: 1 }], event_batches: 1 },
        }),
    },
    {
      op: 'POST /r/sessions/{id}/leave',
      send: (secret: string | null) =>
        victim.request('POST', `/r/sessions/${id}/leave`, { secret, body: { reason: 'left' } }),
    },
    {
      op: 'POST /r/sessions/{id}/calibration-checks',
      send: (secret: string | null) =>
        victim.request('POST', `/r/sessions/${id}/calibration-checks`, {
          secret,
          body: { attempt: 1, segments: [{ segment: 0, chunks: 1 }], event_batches: 1 },
        }),
    },
    {
      op: 'GET /r/sessions/{id}/calibration-checks/{attempt}',
      send: (secret: string | null) => victim.request('GET', `/r/sessions/${id}/calibration-checks/1`, { secret }),
    },
    // Privacy mode's calls (decision 064).
    {
      op: 'POST /r/sessions/{id}/device-check',
      send: (secret: string | null) =>
        victim.request('POST', `/r/sessions/${id}/device-check`, { secret, body: { framesPerSecond: 12 } }),
    },
    {
      op: 'POST /r/sessions/{id}/analysis-site',
      send: (secret: string | null) =>
        victim.request('POST', `/r/sessions/${id}/analysis-site`, { secret, body: { site: 'server' } }),
    },
    {
      op: 'POST /r/sessions/{id}/device-too-slow',
      send: (secret: string | null) => victim.request('POST', `/r/sessions/${id}/device-too-slow`, { secret }),
    },
  ];
}

function expectNotFound(res: LightMyRequestResponse, what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(404);
  expect(res.json().key, what).toBe('respondent.sessionNotFound');
  // Nothing of the session leaks into the answer.
  expect(res.body, what).not.toContain('research');
}

describe('respondent sessions', () => {
  it('answer "not found" to another session\'s secret, to none and to a forged one, and change nothing', async () => {
    const { token, projectId, scenarioId } = await launchedLink(t.app, alice, { launch: false });
    const survey = await createQuestionnaire(alice, {
      type: 'survey',
      title: 'After the video',
      questions: [{ id: 'liked', type: 'scale', text: { en: 'Liked it?' }, min: 1, max: 5, required: true }],
    });
    await linkQuestionnaires(alice, projectId, scenarioId, { embedded_survey_id: survey });
    await markLaunched(t.app, projectId);
    const victim = await readyToComplete(token);
    const attacker = await readyToComplete(token);
    const calls = sessionCalls(victim);
    // Every operation of a session in the API is tried here (the dot test's own are in its module's tests).
    const secured = (await openApiOperations(t.app))
      .filter((op) => op.security.includes('respondentSecret') && op.path.startsWith('/r/sessions/'))
      .map((op) => `${op.method} ${op.path}`);
    expect(calls.map((c) => c.op).sort()).toEqual(secured.sort());

    const before = await snapshot();
    const forged = [
      attacker.secret,
      null,
      randomToken(),
      `${victim.secret.slice(0, -1)}${victim.secret.endsWith('A') ? 'B' : 'A'}`,
      victim.secret.toUpperCase(),
      '',
    ];
    for (const call of calls) {
      for (const secret of forged) expectNotFound(await call.send(secret), `${call.op} with ${secret ?? 'no secret'}`);
      // Another session's id with the victim's secret is no better.
      const swapped = await victim.request('GET', `/r/sessions/${attacker.sessionId}x`, {});
      expect(swapped.statusCode).toBe(404);
    }
    for (const header of [
      `bearer ${victim.secret}`,
      `Basic ${victim.secret}`,
      victim.secret,
      `Bearer  ${victim.secret}`,
    ]) {
      const res = await victim.request('GET', `/r/sessions/${victim.sessionId}`, {
        secret: null,
        headers: { authorization: header },
      });
      expectNotFound(res, `authorization "${header.slice(0, 8)}…"`);
    }
    // A body is not even read without the secret: 9 MB of it is "not found", not "too large".
    const big = Buffer.alloc(9 * 1024 * 1024, 1);
    const unread = await victim.request('PUT', `/r/sessions/${victim.sessionId}/segments/0/chunks/1`, {
      secret: randomToken(),
      raw: big,
      headers: { 'x-chunk-sha256': sha256Hex(big) },
    });
    expectNotFound(unread, 'a large chunk without the secret');
    const attackerOnVictim = await attacker.request('GET', `/r/sessions/${victim.sessionId}`);
    expectNotFound(attackerOnVictim, "the attacker's own secret on the victim's id");
    expect(await snapshot()).toEqual(before);

    // The same calls with the right secret do what they say: the refusals above were the secret's.
    const answers: Record<string, number> = {};
    for (const call of calls) answers[call.op] = (await call.send(victim.secret)).statusCode;
    expect(answers).toEqual({
      'GET /r/sessions/{id}': 200,
      'POST /r/sessions/{id}/segments': 201,
      'PUT /r/sessions/{id}/segments/{segment}/chunks/{index}': 201,
      'POST /r/sessions/{id}/events': 201,
      'PUT /r/sessions/{id}/surveys/{slot}/answers': 200,
      // The chunk and the batch just stored are not in this call's list: the server says so.
      'POST /r/sessions/{id}/complete': 409,
      'POST /r/sessions/{id}/leave': 200,
      // After the leave, and an interview: the session ended and checks nothing; no check was asked for.
      'POST /r/sessions/{id}/calibration-checks': 409,
      'GET /r/sessions/{id}/calibration-checks/{attempt}': 404,
      // The session has ended, and its research keeps no video on the device: privacy mode's calls change nothing.
      'POST /r/sessions/{id}/device-check': 409,
      'POST /r/sessions/{id}/analysis-site': 409,
      'POST /r/sessions/{id}/device-too-slow': 409,
    });
    expect((await victim.state()).json().status).toBe('dropped_out');
    // The attacker's session is untouched by all of it.
    const attackerState = (await attacker.state()).json();
    expect(attackerState).toMatchObject({
      status: 'started',
      next_event_seq: 1,
      segments: [{ segment: 0, chunks: 1 }],
    });
  });

  it('never hands out a secret or another session through the link', async () => {
    const { token } = await launchedLink(t.app, alice);
    const first = await readyToComplete(token);
    const info = await first.linkInfo(token);
    expect(info.body).not.toContain(first.sessionId);
    const row = await db()
      .selectFrom('respondent_sessions')
      .select('secret_hash')
      .where('id', '=', first.sessionId)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).not.toContain(first.secret);
    const state = await first.state();
    expect(state.body).not.toContain(first.secret);
    expect(state.body).not.toContain(row.secret_hash);
  });
});

describe('content files for respondents', () => {
  /** A launched project whose research has a stored picture; a session of it and the picture's signed URL. */
  async function pictureSession() {
    const link = await launchedLink(t.app, alice);
    const researchId = link.researchIds[0] as string;
    const mediaId = await insertMedia(t.app, { researchId, owner: 'alice', kind: 'image', status: 'ready' });
    const png = await readFile(ASTRONAUT);
    const { storage_key } = await db()
      .selectFrom('media')
      .select('storage_key')
      .where('id', '=', mediaId)
      .executeTakeFirstOrThrow();
    await mkdir(dirname(join(t.dir, storage_key)), { recursive: true });
    await writeFile(join(t.dir, storage_key), png);
    await db().updateTable('media').set({ size: png.length }).where('id', '=', mediaId).execute();
    const client = respondentClient(t.app);
    expect((await client.start(link.token)).statusCode).toBe(201);
    const url = client.session?.researches[0]?.images[mediaId] as string;
    expect(url).toMatch(new RegExp(`^/r/media/${mediaId}\\?s=${client.sessionId}&e=\\d+&sig=[\\w-]+$`));
    return { ...link, mediaId, png, client, url };
  }

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('serves a picture by its signed URL, whole or by range, never sniffed', async () => {
    const { url, png } = await pictureSession();
    const whole = await get(url);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(png)).toBe(true);
    expect(whole.headers).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'accept-ranges': 'bytes',
    });
    const part = await get(url, { range: 'bytes=0-7' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-7/${png.length}`);
    expect(part.rawPayload.equals(png.subarray(0, 8))).toBe(true);
    const tail = await get(url, { range: 'bytes=-4' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(png.subarray(png.length - 4))).toBe(true);
    const outside = await get(url, { range: `bytes=${png.length}-` });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${png.length}`);
  });

  it('refuses altered, expired and foreign URLs, and ended sessions', async () => {
    const { url, mediaId, client } = await pictureSession();
    const other = await pictureSession();
    const secret = t.app.ctx.secret;
    const sig = new URL(url, 'http://x').searchParams.get('sig') as string;
    const altered = url.replace(`sig=${sig}`, `sig=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`);
    expect((await get(altered)).statusCode).toBe(404);
    const laterExpiry = url.replace(/&e=(\d+)/, (_, e) => `&e=${Number(e) + 3600}`);
    expect((await get(laterExpiry)).statusCode).toBe(404);
    // Another session's id in the URL: the signature was for this one.
    expect((await get(url.replace(client.sessionId, other.client.sessionId))).statusCode).toBe(404);
    // Another file under this URL's signature.
    expect((await get(url.replace(`/media/${mediaId}`, `/media/${other.mediaId}`))).statusCode).toBe(404);
    // Signed with the app's secret, but for a file of a research this session does not show.
    expect((await get(signedMediaUrl(secret, other.mediaId, client.sessionId))).statusCode).toBe(404);
    // Signed by someone else.
    expect((await get(signedMediaUrl(randomToken(), mediaId, client.sessionId))).statusCode).toBe(404);
    const expired = signedMediaUrl(secret, mediaId, client.sessionId, Date.now() - 13 * 3600 * 1000);
    expect((await get(expired)).statusCode).toBe(403);
    expect((await get(url.split('&sig=')[0] as string)).statusCode).toBe(400);
    expect((await get(url)).statusCode).toBe(200);
    await client.leave();
    expect((await get(url)).statusCode).toBe(403);
    // A recording chunk is never a content file.
    expect((await get(`/r/media/${'0'.repeat(8)}-0000-4000-8000-000000000000?s=x&e=1&sig=y`)).statusCode).toBe(404);
  });
});
