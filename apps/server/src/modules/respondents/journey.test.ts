import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CONSENT_POLICY_VERSION } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import type { Client } from '../../test/harness.ts';
import { journeyEvents, launchedLink, respondentClient, TINY_WEBM, webmChunks } from '../../test/respondent.ts';
import { verifyCompletionCode } from './completion-code.ts';
import { respondentApiPerFile } from './respondents.fixture.ts';

/**
 * A respondent's link and whole journey through the respondent API (`/r`, design section 6; decision 010): what the
 * start page is told of a link (and of an unknown, draft, paused or completed project's), then a session started,
 * recorded, logged and completed with its video processes and a code that verifies, and one resumed after a reload.
 */
let alice: Client;
const { t, db, sessionRow } = respondentApiPerFile((client) => (alice = client));

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
