import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CONSENT_POLICY_VERSION, MTURK_PREVIEW_ASSIGNMENT, RESPONDENT_LIMITS } from '@emolens/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Client, filesIn, insertMedia, loggedIn, markLaunched } from '../../test/harness.ts';
import { appWithFilesPerFile } from '../../test/per-file.ts';
import {
  completeRespondent,
  journeyEvents,
  launchedLink,
  respondentClient,
  sha256Hex,
  TINY_WEBM,
  webmChunks,
} from '../../test/respondent.ts';
import { respondentSessionRow } from '../../test/respondent-rows.ts';
import { verifyCompletionCode } from './completion-code.ts';

const t = appWithFilesPerFile('respondent-test');
let alice: Client;
beforeEach(async () => {
  ({ alice } = await loggedIn(t.app, 'alice'));
});

const db = () => t.app.ctx.database.db;
const sessionRow = (id: string) => respondentSessionRow(t.app, id);

describe('the link', () => {
  it('tells the start page what it needs and creates nothing', async () => {
    const { token } = await launchedLink(t.app, alice);
    const res = await respondentClient(t.app).linkInfo(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      state: 'open',
      project_title: 'Project',
      platform: 'cint',
      language: 'en',
      flow_type: 'new',
      calibration_seconds: 34,
      consent_policy_version: CONSENT_POLICY_VERSION,
      orientation: 'all',
      video_on_device: false,
    });
    const count = await db().selectFrom('respondent_sessions').select(db().fn.countAll().as('n')).executeTakeFirst();
    expect(Number(count?.n)).toBe(0);
  });

  it('is not found for an unknown or tampered token', async () => {
    const { token } = await launchedLink(t.app, alice);
    const client = respondentClient(t.app);
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [`${token}x`, 'nope', 'a'.repeat(100), tampered]) {
      const res = await client.linkInfo(bad);
      expect(res.statusCode, bad).toBe(404);
      expect(res.json().key).toBe('respondent.linkNotFound');
    }
  });

  it('is a preview for a draft project, finished for a completed one, suspended while a research is paused', async () => {
    const { token, projectId, researchIds } = await launchedLink(t.app, alice, { launch: false });
    const client = respondentClient(t.app);
    expect((await client.linkInfo(token)).json().state).toBe('preview');
    await db().updateTable('projects').set({ status: 'active' }).where('id', '=', projectId).execute();
    expect((await client.linkInfo(token)).json().state).toBe('open');
    await db()
      .updateTable('campaigns')
      .set({ status: 'paused' })
      .where('id', '=', researchIds[0] as string)
      .execute();
    expect((await client.linkInfo(token)).json().state).toBe('suspended');
    const suspended = await client.start(token);
    expect(suspended.statusCode).toBe(409);
    expect(suspended.json().key).toBe('respondent.collectionSuspended');
    await db().updateTable('projects').set({ status: 'completed' }).where('id', '=', projectId).execute();
    expect((await client.linkInfo(token)).json().state).toBe('finished');
    const finished = await client.start(token);
    expect(finished.statusCode).toBe(409);
    expect(finished.json().key).toBe('respondent.collectionFinished');
    const count = await db().selectFrom('respondent_sessions').select('id').execute();
    expect(count).toHaveLength(0);
  });
});

describe('the whole journey', () => {
  it('records, logs, completes with video processes and a code that verifies', async () => {
    const { token, projectId, researchIds } = await launchedLink(t.app, alice);
    const client = respondentClient(t.app);
    const started = await client.start(token, { panel: { RID: 'rid-42' } });
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json().secret).toMatch(/^[\w-]{43}$/);
    expect(started.json().session).toMatchObject({
      status: 'started',
      preview: false,
      step: 'consent',
      research_index: 0,
      segments: [],
      next_event_seq: 0,
      end: null,
    });
    expect(started.json().session.researches.map((r: { campaign_id: string }) => r.campaign_id)).toEqual(researchIds);
    const row = await sessionRow(client.sessionId);
    expect(row.secret_hash).not.toBe(client.secret);
    expect(row.participant_id).toBe('rid-42');
    expect(row.consent_policy_version).toBe(CONSENT_POLICY_VERSION);

    const segment = await client.segment();
    expect(segment.statusCode, segment.body).toBe(201);
    expect(segment.json().segment).toBe(0);
    const chunks = webmChunks(3);
    for (const [i, bytes] of chunks.entries()) {
      const res = await client.chunk(0, i, bytes);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({ segment: 0, index: i, stored: true });
    }
    const events = await client.events(0, journeyEvents(researchIds));
    expect(events.statusCode, events.body).toBe(201);
    expect(events.json()).toEqual({ seq: 0, stored: true, next_event_seq: 1 });

    const done = await client.complete([{ segment: 0, chunks: 3 }], 1);
    expect(done.statusCode, done.body).toBe(200);
    const end = done.json();
    expect(end.outcome).toBe('complete');
    // The short code to copy (issue 28, item 13), stored with the session; the signed token beside it.
    expect(end.code).toMatch(/^[2-9A-HJKMNP-Z]{7}-[2-9A-HJKMNP-Z]{7}$/);
    expect((await sessionRow(client.sessionId))?.completion_code).toBe(end.code.replace('-', ''));
    const verified = await verifyCompletionCode(t.app.ctx.secret, end.token);
    expect(verified).toEqual({
      valid: true,
      claims: { sid: client.sessionId, pid: projectId, cids: researchIds, par: 'rid-42', outcome: 'complete' },
    });
    const after = await sessionRow(client.sessionId);
    expect(after).toMatchObject({ status: 'completed', outcome: 'complete', quota_state: 'pending', step: 'end' });
    const processes = await db().selectFrom('video_processes').selectAll().execute();
    expect(processes.map((p) => [p.session_id, p.campaign_id, p.status])).toEqual(
      researchIds.map((c) => [client.sessionId, c, 'collected']),
    );
    // The recording is stored as it was sent.
    const stored = await db()
      .selectFrom('recording_chunks')
      .select(['storage_key', 'index'])
      .orderBy('index')
      .execute();
    const bytes = Buffer.concat(await Promise.all(stored.map((c) => readFile(join(t.dir, c.storage_key)))));
    expect(bytes.equals(TINY_WEBM)).toBe(true);
    // A reload after the end shows the end, and a repeated completion counts nothing twice.
    const state = await client.state();
    expect(state.json().end).toEqual(end);
    const again = await client.complete([{ segment: 0, chunks: 3 }], 1);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(end);
    expect(await db().selectFrom('video_processes').selectAll().execute()).toHaveLength(researchIds.length);
  });

  it('resumes after a reload: a new segment after the first, acknowledged chunks and the next batch', async () => {
    const { token, researchIds } = await launchedLink(t.app, alice);
    const client = respondentClient(t.app);
    await client.start(token);
    await client.segment();
    const [first, second] = webmChunks(2) as [Buffer, Buffer];
    await client.chunk(0, 0, first);
    await client.events(0, [{ type: 'step', t: 1, step: 'calibration' }]);
    const reloaded = await client.state();
    expect(reloaded.statusCode).toBe(200);
    expect(reloaded.json()).toMatchObject({
      segments: [{ segment: 0, chunks: 1 }],
      next_event_seq: 1,
      step: 'calibration',
    });
    const next = await client.segment();
    expect(next.json().segment).toBe(1);
    expect(next.json().offset_ms).toBeGreaterThanOrEqual(0);
    // The new segment starts a file of its own.
    expect((await client.chunk(1, 0, second)).statusCode).toBe(415);
    expect((await client.chunk(1, 0, TINY_WEBM)).statusCode).toBe(201);
    await client.events(
      1,
      journeyEvents(researchIds).map((e) => ({ ...e, t: e.t + 10 })),
    );
    const done = await client.complete(
      [
        { segment: 0, chunks: 1 },
        { segment: 1, chunks: 1 },
      ],
      2,
    );
    expect(done.statusCode, done.body).toBe(200);
  });
});

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

describe('starting', () => {
  it('needs the current consent and, on Cint, the panel consent', async () => {
    const { token } = await launchedLink(t.app, alice);
    const client = respondentClient(t.app);
    const outdated = await client.start(token, { consent: { policy_version: '2000-01-01' } });
    expect(outdated.statusCode).toBe(409);
    expect(outdated.json().key).toBe('respondent.consentOutdated');
    const noPanel = await client.start(token, { consent: { panel_consent: false } });
    expect(noPanel.statusCode).toBe(400);
    expect(noPanel.json().key).toBe('respondent.panelConsentRequired');
    expect(await db().selectFrom('respondent_sessions').selectAll().execute()).toHaveLength(0);
  });

  it('refuses the MTurk preview and return addresses that are not MTurk', async () => {
    const { token, projectId } = await launchedLink(t.app, alice);
    await db().updateTable('projects').set({ platform: 'amazon' }).where('id', '=', projectId).execute();
    const client = respondentClient(t.app);
    const preview = await client.start(token, { panel: { assignmentId: MTURK_PREVIEW_ASSIGNMENT } });
    expect(preview.statusCode).toBe(409);
    const evil = await client.start(token, {
      panel: { assignmentId: 'A1', workerId: 'W1', turkSubmitTo: 'https://evil.example.com' },
    });
    expect(evil.statusCode).toBe(400);
    expect(evil.json().key).toBe('respondent.turkSubmitInvalid');
    expect(await db().selectFrom('respondent_sessions').selectAll().execute()).toHaveLength(0);
    const { end } = await completeRespondent(t.app, token, {
      panel: { assignmentId: 'A1', workerId: 'W1', turkSubmitTo: 'https://workersandbox.mturk.com' },
    });
    expect(end.mturk).toEqual({ action: 'https://workersandbox.mturk.com/mturk/externalSubmit', assignment_id: 'A1' });
    expect(
      (await sessionRow((await db().selectFrom('respondent_sessions').select('id').executeTakeFirstOrThrow()).id))
        .participant_id,
    ).toBe('W1');
  });

  it('lets the same participant complete a link once', async () => {
    const { token } = await launchedLink(t.app, alice);
    await completeRespondent(t.app, token, { panel: { RID: 'same' } });
    const again = await respondentClient(t.app).start(token, { panel: { RID: 'same' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('respondent.alreadyCompleted');
    // Two sessions of one participant racing to complete: one completes.
    const first = respondentClient(t.app);
    const second = respondentClient(t.app);
    const { token: other } = await launchedLink(t.app, alice);
    await first.start(other, { panel: { RID: 'racer' } });
    await second.start(other, { panel: { RID: 'racer' } });
    for (const c of [first, second]) {
      await c.segment();
      await c.chunk(0, 0, TINY_WEBM);
      await c.events(0, journeyEvents(c.session?.researches.map((r) => r.campaign_id) ?? []));
    }
    const answers = await Promise.all([first, second].map((c) => c.complete([{ segment: 0, chunks: 1 }], 1)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });

  it('ends at once when the quota is full, before any recording', async () => {
    const { token, linkId } = await launchedLink(t.app, alice);
    await db().updateTable('project_accessor_links').set({ quota_size: 1 }).where('id', '=', linkId).execute();
    await completeRespondent(t.app, token);
    expect((await respondentClient(t.app).linkInfo(token)).json().state).toBe('quota_full');
    const late = respondentClient(t.app);
    const res = await late.start(token);
    expect(res.statusCode).toBe(201);
    expect(res.json().session).toMatchObject({ status: 'quota_full', end: { outcome: 'quota_full' } });
    expect((await late.segment()).statusCode).toBe(409);
  });

  it('runs a draft project as a preview: nothing recorded, no quota, no code', async () => {
    const { token } = await launchedLink(t.app, alice, { launch: false });
    const client = respondentClient(t.app);
    const res = await client.start(token);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().session.preview).toBe(true);
    const segment = await client.segment();
    expect(segment.statusCode).toBe(409);
    expect(segment.json().key).toBe('respondent.previewNotSaved');
    const done = await client.complete([{ segment: 0, chunks: 1 }], 1);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ outcome: 'complete', code: null, token: null, redirect_url: null, mturk: null });
    expect(await db().selectFrom('video_processes').selectAll().execute()).toHaveLength(0);
    expect((await sessionRow(client.sessionId)).quota_state).toBeNull();
  });

  it('a respondent who leaves ends dropped out, and a reload shows it', async () => {
    const { token } = await launchedLink(t.app, alice);
    const client = respondentClient(t.app);
    await client.start(token);
    const left = await client.leave('camera_lost');
    expect(left.statusCode).toBe(200);
    expect(left.json().status).toBe('dropped_out');
    expect((await client.state()).json().status).toBe('dropped_out');
    expect((await sessionRow(client.sessionId)).leave_reason).toBe('camera_lost');
    expect((await client.segment()).json().key).toBe('respondent.sessionEnded');
  });
});

describe('the quota under load', () => {
  it('50 respondents completing at once on a quota of 10: exactly 10 complete, 40 find it full', async () => {
    const { token, linkId } = await launchedLink(t.app, alice);
    await db().updateTable('project_accessor_links').set({ quota_size: 10 }).where('id', '=', linkId).execute();
    const clients = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const c = respondentClient(t.app);
        expect((await c.start(token)).statusCode).toBe(201);
        await c.segment();
        expect((await c.chunk(0, 0, TINY_WEBM)).statusCode).toBe(201);
        await c.events(0, journeyEvents(c.session?.researches.map((r) => r.campaign_id) ?? []));
        return c;
      }),
    );
    const answers = await Promise.all(clients.map((c) => c.complete([{ segment: 0, chunks: 1 }], 1)));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const outcomes = answers.map((a) => a.json().outcome);
    expect(outcomes.filter((o) => o === 'complete')).toHaveLength(10);
    expect(outcomes.filter((o) => o === 'quota_full')).toHaveLength(40);
    const rows = await db().selectFrom('respondent_sessions').select(['status']).execute();
    expect(rows.filter((r) => r.status === 'completed')).toHaveLength(10);
    expect(rows.filter((r) => r.status === 'quota_full')).toHaveLength(40);
    expect(await db().selectFrom('video_processes').selectAll().execute()).toHaveLength(10);
  }, 60_000);
});

describe('the researches a respondent is shown', () => {
  /** A launched project with a video and a pictures research (files in the database only) in one scenario. */
  async function contentProject(options: { random: boolean }) {
    const projectId = await alice.draftProject();
    const added = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
      body: {
        project_id: projectId,
        campaigns_data: [
          { title: 'Spot', content_type: 'video', settings: { researchOrientation: 'horizontal' } },
          { title: 'Pack shots', content_type: 'pictures' },
          { title: 'Talk', content_type: 'contentless' },
        ],
      },
    });
    expect(added.statusCode, added.body).toBe(201);
    const [video, pictures, talk] = added.json().campaigns.map((c: { id: string }) => c.id) as [string, string, string];
    const videoId = await insertMedia(t.app, {
      researchId: video,
      owner: 'alice',
      kind: 'video',
      status: 'ready',
      duration_seconds: 30,
    });
    const pictureId = await insertMedia(t.app, {
      researchId: pictures,
      owner: 'alice',
      kind: 'image',
      status: 'ready',
    });
    // A file still being checked is not shown.
    await insertMedia(t.app, { researchId: pictures, owner: 'alice', kind: 'image', status: 'processing' });
    const scenario = await alice.request('POST', `/api/cabinet/projects/${projectId}/scenarios/`, {
      body: { campaign_ids: [video, pictures, talk], is_random_order: options.random },
    });
    expect(scenario.statusCode, scenario.body).toBe(201);
    const link = await alice.request('POST', `/api/cabinet/scenarios/${scenario.json().id}/project-accessor-links/`, {
      body: {},
    });
    await markLaunched(t.app, projectId);
    return {
      token: link.json().token as string,
      linkId: link.json().id as string,
      video,
      pictures,
      talk,
      videoId,
      pictureId,
    };
  }

  it('come with signed content URLs, the orientation asked for and the face check of link and scenario', async () => {
    const p = await contentProject({ random: false });
    const info = (await respondentClient(t.app).linkInfo(p.token)).json();
    expect(info).toMatchObject({ orientation: 'horizontal', use_face_checker: true });
    const client = respondentClient(t.app);
    await client.start(p.token);
    const [video, pictures, talk] = client.session?.researches ?? [];
    expect(video).toMatchObject({ campaign_id: p.video, content_type: 'video', orientation: 'horizontal' });
    expect(video?.video?.url).toMatch(new RegExp(`^/r/media/${p.videoId}\\?s=${client.sessionId}&e=\\d+&sig=`));
    expect(video?.video?.duration_seconds).toBe(30);
    expect(video?.duration_seconds).toBe(30);
    expect(Object.keys(pictures?.images ?? {})).toEqual([p.pictureId]);
    expect(pictures?.picture_gallery.items.map((i) => i.image)).toEqual([p.pictureId]);
    expect(talk).toMatchObject({ content_type: 'contentless', video: null, duration_seconds: 60, images: {} });
    // A reload gives the same URLs (the browser's cache holds).
    expect((await client.state()).json().researches).toEqual(client.session?.researches);
    // Either switch off: no face check.
    await db()
      .updateTable('project_accessor_links')
      .set({ is_use_face_checker: false })
      .where('id', '=', p.linkId)
      .execute();
    expect((await respondentClient(t.app).linkInfo(p.token)).json().use_face_checker).toBe(false);
  });

  it('come in a random order per respondent when the scenario says so, and the log must follow it', async () => {
    const p = await contentProject({ random: true });
    const orders = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const client = respondentClient(t.app);
      await client.start(p.token);
      const order = client.session?.researches.map((r) => r.campaign_id) ?? [];
      expect([...order].sort()).toEqual([p.video, p.pictures, p.talk].sort());
      orders.add(order.join());
      const row = await sessionRow(client.sessionId);
      expect(row.research_order).toEqual(order);
    }
    // Six orders of three: twelve respondents seeing one order only has a chance of 6^-11.
    expect(orders.size).toBeGreaterThan(1);
  });
});

describe('quotas', () => {
  it("counts the scenario's quota over its links, and gives a released slot back", async () => {
    const { token, scenarioId } = await launchedLink(t.app, alice);
    const second = await alice.request('POST', `/api/cabinet/scenarios/${scenarioId}/project-accessor-links/`, {
      body: {},
    });
    const otherToken: string = second.json().token;
    await db().updateTable('scenarios').set({ quota: 2 }).where('id', '=', scenarioId).execute();
    await completeRespondent(t.app, token);
    await completeRespondent(t.app, otherToken);
    expect((await respondentClient(t.app).linkInfo(token)).json().state).toBe('quota_full');
    // A started session finds the quota full at its completion.
    const late = respondentClient(t.app);
    await late.start(token);
    expect(late.session?.status).toBe('quota_full');
    // Processing found one completion unusable: its slot is free again.
    await db()
      .updateTable('respondent_sessions')
      .set({ quota_state: 'released' })
      .where('status', '=', 'completed')
      .where('link_id', '!=', second.json().id)
      .execute();
    expect((await respondentClient(t.app).linkInfo(otherToken)).json().state).toBe('open');
    const { end } = await completeRespondent(t.app, otherToken);
    expect(end.outcome).toBe('complete');
  });

  it('a completion sent twice at once counts once', async () => {
    const { token } = await launchedLink(t.app, alice);
    const client = respondentClient(t.app);
    await client.start(token);
    await client.segment();
    await client.chunk(0, 0, TINY_WEBM);
    await client.events(0, journeyEvents(client.session?.researches.map((r) => r.campaign_id) ?? []));
    const answers = await Promise.all(Array.from({ length: 4 }, () => client.complete([{ segment: 0, chunks: 1 }], 1)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(await db().selectFrom('video_processes').selectAll().execute()).toHaveLength(1);
    // Retries of what was already stored stay harmless after the end; new data is refused.
    expect((await client.chunk(0, 0, TINY_WEBM)).statusCode).toBe(200);
    const journey = journeyEvents(client.session?.researches.map((r) => r.campaign_id) ?? []);
    expect((await client.events(0, journey)).statusCode).toBe(200);
    expect((await client.events(1, [{ type: 'step', t: 100, step: 'end' }])).json().key).toBe(
      'respondent.sessionEnded',
    );
    expect((await client.chunk(0, 1, webmChunks(2)[1] as Buffer)).json().key).toBe('respondent.sessionEnded');
    expect((await client.leave()).json().status).toBe('completed');
  });
});
