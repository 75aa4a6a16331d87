import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Client, filesIn, loggedIn, TEST_BACKEND } from '../../test/harness.ts';
import { appWithFilesPerFile } from '../../test/per-file.ts';
import { completeRespondent, launchedLink, webmChunks } from '../../test/respondent.ts';
import { insertRecording, insertRespondentSession } from '../../test/respondent-rows.ts';
import { handle as emptyTrash } from '../media/jobs/empty-storage-trash.handler.ts';
import { applyRetention, deleteRecordingIfProcessed } from './retention.service.ts';

/** The app, its stored files in `t.dir`. */
const t = appWithFilesPerFile('retention');
let alice: Client;
let bob: Client;

beforeEach(async () => {
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
});

const db = () => t.app.ctx.database.db;

type Link = Awaited<ReturnType<typeof launchedLink>>;

async function setRetention(client: Client, projectId: string, body: unknown) {
  return client.request('PATCH', `/api/cabinet/projects/${projectId}/retention/`, { body });
}

/** A real respondent through /r (3 chunks, an event batch, a video process per research). */
async function respondent(link: Link, participantId?: string): Promise<string> {
  const { client } = await completeRespondent(t.app, link.token, {
    panel: participantId ? { participant_id: participantId } : {},
  });
  return client.sessionId;
}

/** The session's video processes set to a status, with a stored result when done. */
async function processed(sessionId: string, status: 'done' | 'detection_error' | 'in_process' | 'error') {
  const processes = await db().selectFrom('video_processes').select('id').where('session_id', '=', sessionId).execute();
  expect(processes.length).toBeGreaterThan(0);
  for (const { id } of processes) {
    let resultId: string | null = null;
    if (status === 'done' || status === 'detection_error') {
      const row = await db()
        .insertInto('process_results')
        .values({
          process_id: id,
          generation: 0,
          engine_version: 'test',
          recording_seconds: 2,
          fps: 10,
          frame_count: 20,
          frames: new Uint8Array([1, 2, 3]),
          series: JSON.stringify({}),
          summary: JSON.stringify({}),
          face_found: status === 'done',
          bad_frame_share: 0,
          usable: status === 'done',
          calibration_status: 'not_run',
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      resultId = row.id;
    }
    await db().updateTable('video_processes').set({ status, result_id: resultId }).where('id', '=', id).execute();
  }
}

/** `holdings` of a session deleted with everything it held. */
const NOTHING_HELD = { session: 0, segments: 0, chunks: 0, events: 0, processes: 0, results: 0, files: 0 };

/** What is stored of a session: rows per table and its chunk files in storage. */
async function holdings(sessionId: string) {
  const count = async (
    table:
      | 'respondent_sessions'
      | 'recording_segments'
      | 'recording_chunks'
      | 'session_event_batches'
      | 'video_processes',
  ) =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(table === 'respondent_sessions' ? 'id' : 'session_id', '=', sessionId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const results = await db()
    .selectFrom('process_results as r')
    .innerJoin('video_processes as v', 'v.id', 'r.process_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('v.session_id', '=', sessionId)
    .executeTakeFirstOrThrow();
  const files = (await filesIn(t.dir)).filter((f) => f.includes(sessionId));
  return {
    session: await count('respondent_sessions'),
    segments: await count('recording_segments'),
    chunks: await count('recording_chunks'),
    events: await count('session_event_batches'),
    processes: await count('video_processes'),
    results: Number(results.n),
    files: files.length,
  };
}

const deletions = (projectId: string) =>
  db().selectFrom('data_deletions').selectAll().where('project_id', '=', projectId).orderBy('created_at').execute();

async function endedDaysAgo(sessionId: string, days: number) {
  const at = new Date(Date.now() - days * 86_400_000);
  await db()
    .updateTable('respondent_sessions')
    .set({ ended_at: at, last_seen_at: at })
    .where('id', '=', sessionId)
    .execute();
}

describe(`the retention setting, on ${TEST_BACKEND}`, () => {
  it('defaults to keep, is set in any status (completed too), and drops days unless the mode needs them', async () => {
    const link = await launchedLink(t.app, alice);
    const project = (await alice.request('GET', `/api/cabinet/projects/${link.projectId}/`)).json();
    expect(project.retention).toEqual({ mode: 'keep', days: null });
    expect(project.can.manage_data).toBe(true);

    let res = await setRetention(alice, link.projectId, { retention_mode: 'delete_after_days', retention_days: 30 });
    expect(res.statusCode).toBe(200);
    expect(res.json().retention).toEqual({ mode: 'delete_after_days', days: 30 });

    expect((await alice.request('POST', `/api/cabinet/projects/${link.projectId}/complete/`)).statusCode).toBe(200);
    res = await setRetention(alice, link.projectId, { retention_mode: 'delete_after_processing', retention_days: 30 });
    expect(res.statusCode).toBe(200);
    expect(res.json().retention).toEqual({ mode: 'delete_after_processing', days: null });
    expect(res.json().status).toBe('completed');
  });

  it('answers 400 with the catalogue message for bad input, and 404 for another customer', async () => {
    const link = await launchedLink(t.app, alice);
    const cases: [unknown, string, string][] = [
      [{ retention_mode: 'delete_after_days' }, 'retention_days', 'validation.required'],
      [{ retention_mode: 'delete_after_days', retention_days: 0 }, 'retention_days', 'validation.between'],
      [{ retention_mode: 'delete_after_days', retention_days: 3651 }, 'retention_days', 'validation.between'],
      [{ retention_mode: 'delete_after_days', retention_days: 1.5 }, 'retention_days', 'validation.wholeNumber'],
      [{ retention_mode: 'forever' }, 'retention_mode', 'validation.required'],
      [{}, 'retention_mode', 'validation.required'],
    ];
    for (const [body, field, key] of cases) {
      const res = await setRetention(alice, link.projectId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field_keys[field].key, JSON.stringify(body)).toBe(key);
    }
    const between = await setRetention(alice, link.projectId, {
      retention_mode: 'delete_after_days',
      retention_days: 0,
    });
    expect(between.json().fields.retention_days).toBe('must be between 1 and 3650');

    const other = await setRetention(bob, link.projectId, { retention_mode: 'keep' });
    expect(other.statusCode).toBe(404);
    const row = await db()
      .selectFrom('projects')
      .select('retention_mode')
      .where('id', '=', link.projectId)
      .executeTakeFirstOrThrow();
    expect(row.retention_mode).toBe('keep');
  });

  it('is refused by the database when mode and days disagree', async () => {
    const link = await launchedLink(t.app, alice);
    await expect(
      db()
        .updateTable('projects')
        .set({ retention_mode: 'delete_after_days', retention_days: null })
        .where('id', '=', link.projectId)
        .execute(),
    ).rejects.toThrow();
    await expect(
      db()
        .updateTable('projects')
        .set({ retention_mode: 'keep', retention_days: 5 })
        .where('id', '=', link.projectId)
        .execute(),
    ).rejects.toThrow();
  });
});

describe(`delete after processing, on ${TEST_BACKEND}`, () => {
  it("deletes only processed sessions' recordings of such projects; results, logs and other data stay", async () => {
    const link = await launchedLink(t.app, alice);
    const kept = await launchedLink(t.app, alice);
    const foreign = await launchedLink(t.app, bob);
    await setRetention(alice, link.projectId, { retention_mode: 'delete_after_processing' });
    await setRetention(bob, foreign.projectId, { retention_mode: 'delete_after_processing' });

    const done = await respondent(link);
    const noFace = await respondent(link);
    const running = await respondent(link);
    const failed = await respondent(link);
    const keepProject = await respondent(kept);
    const foreignRunning = await respondent(foreign);
    await processed(done, 'done');
    await processed(noFace, 'detection_error');
    await processed(running, 'in_process');
    await processed(failed, 'error');
    await processed(keepProject, 'done');
    await processed(foreignRunning, 'in_process');
    // A respondent still in the middle of the journey: its recording is being made.
    const started = await insertRespondentSession(t.app, { linkId: link.linkId, status: 'started' });
    await insertRecording(t.app, started, 0, webmChunks(2));

    const before = await holdings(done);
    expect(before).toMatchObject({
      session: 1,
      segments: 1,
      chunks: 3,
      events: 1,
      results: before.processes,
      files: 3,
    });

    const run = await applyRetention(t.app.ctx.deps);
    expect(run).toEqual({ recordings: 2, sessions: 0 });

    for (const id of [done, noFace]) {
      const after = await holdings(id);
      expect(after).toEqual({ ...before, segments: 0, chunks: 0, files: 0 });
    }
    for (const id of [running, failed, keepProject, foreignRunning]) {
      expect(await holdings(id)).toMatchObject({ session: 1, segments: 1, chunks: 3, files: 3 });
    }
    expect(await holdings(started)).toMatchObject({ segments: 1, chunks: 2, files: 2 });
    const records = await deletions(link.projectId);
    expect(records).toMatchObject([
      { reason: 'retention', scope: 'recordings', session_count: 2, user_id: null, identifier: null },
    ]);
    expect(await deletions(kept.projectId)).toEqual([]);

    // Again: nothing more to do, nothing recorded.
    expect(await applyRetention(t.app.ctx.deps)).toEqual({ recordings: 0, sessions: 0 });
    expect(await deletions(link.projectId)).toHaveLength(1);

    // The running one finishes: the hook deletes its recording at once.
    await db().deleteFrom('process_results').execute();
    await processed(running, 'done');
    expect(await deleteRecordingIfProcessed(t.app.ctx.deps, running)).toBe(true);
    expect(await holdings(running)).toMatchObject({ session: 1, segments: 0, chunks: 0, files: 0, results: 1 });
    expect(await deleteRecordingIfProcessed(t.app.ctx.deps, failed)).toBe(false);
    expect(await deleteRecordingIfProcessed(t.app.ctx.deps, keepProject)).toBe(false);
  });

  it('leaves chunk files to the storage trash, which the trash job empties', async () => {
    const link = await launchedLink(t.app, alice);
    await setRetention(alice, link.projectId, { retention_mode: 'delete_after_processing' });
    const sid = await respondent(link);
    await processed(sid, 'done');
    const keys = await db()
      .selectFrom('recording_chunks')
      .select('storage_key')
      .where('session_id', '=', sid)
      .execute();
    expect(keys).toHaveLength(3);

    // The deletion itself (as the job does it, without the sweep): the trigger fills the trash.
    expect(await t.app.ctx.deps.retention.deleteProcessedRecordings(10)).toHaveLength(1);
    const trash = await db().selectFrom('storage_trash').select('key').execute();
    expect(trash.map((r) => r.key).sort()).toEqual(keys.map((k) => k.storage_key).sort());
    expect((await filesIn(t.dir)).filter((f) => f.includes(sid))).toHaveLength(3);

    await emptyTrash({}, t.app.ctx);
    expect((await filesIn(t.dir)).filter((f) => f.includes(sid))).toEqual([]);
    expect(await db().selectFrom('storage_trash').select('key').execute()).toEqual([]);
  });
});

describe(`delete after N days, on ${TEST_BACKEND}`, () => {
  it('deletes everything of sessions older than N days in such projects, nothing else', async () => {
    const link = await launchedLink(t.app, alice);
    const kept = await launchedLink(t.app, alice);
    const foreign = await launchedLink(t.app, bob);
    await setRetention(alice, link.projectId, { retention_mode: 'delete_after_days', retention_days: 10 });
    await setRetention(bob, foreign.projectId, { retention_mode: 'delete_after_days', retention_days: 10 });

    const old = await respondent(link);
    const young = await respondent(link);
    const oldKept = await respondent(kept);
    const foreignYoung = await respondent(foreign);
    await processed(old, 'done');
    await endedDaysAgo(old, 11);
    await endedDaysAgo(young, 9);
    await endedDaysAgo(oldKept, 400);
    await endedDaysAgo(foreignYoung, 5);
    // Never ended: counted from when the respondent was last heard from.
    const quietOld = await insertRespondentSession(t.app, {
      linkId: link.linkId,
      status: 'started',
      quietMinutes: 11 * 1440,
    });
    const quietNew = await insertRespondentSession(t.app, { linkId: link.linkId, status: 'started', quietMinutes: 60 });

    const run = await applyRetention(t.app.ctx.deps);
    expect(run).toEqual({ recordings: 0, sessions: 2 });
    for (const id of [old, quietOld]) {
      expect(await holdings(id)).toEqual(NOTHING_HELD);
    }
    for (const id of [young, oldKept, foreignYoung]) {
      expect(await holdings(id)).toMatchObject({ session: 1, segments: 1, chunks: 3, events: 1, files: 3 });
    }
    expect(await holdings(quietNew)).toMatchObject({ session: 1 });
    expect(await deletions(link.projectId)).toMatchObject([
      { reason: 'retention', scope: 'sessions', session_count: 2 },
    ]);
    expect(await deletions(foreign.projectId)).toEqual([]);
  });

  it('works in bounded batches, and two runs at once delete each session once', async () => {
    const link = await launchedLink(t.app, alice);
    await setRetention(alice, link.projectId, { retention_mode: 'delete_after_days', retention_days: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const id = await insertRespondentSession(t.app, {
        linkId: link.linkId,
        status: 'dropped_out',
        quietMinutes: 3000,
      });
      await insertRecording(t.app, id, 0, webmChunks(1));
      ids.push(id);
    }
    // One batch of 2 per run: the rest waits.
    expect(await applyRetention(t.app.ctx.deps, { batch: 2, maxBatches: 1 })).toEqual({ recordings: 0, sessions: 2 });
    const [a, b] = await Promise.all([
      applyRetention(t.app.ctx.deps, { batch: 2, maxBatches: 10 }),
      applyRetention(t.app.ctx.deps, { batch: 2, maxBatches: 10 }),
    ]);
    expect(a.sessions + b.sessions).toBe(5);
    const left = await db().selectFrom('respondent_sessions').select('id').where('id', 'in', ids).execute();
    expect(left).toEqual([]);
    const records = await deletions(link.projectId);
    expect(records.reduce((sum, r) => sum + r.session_count, 0)).toBe(7);
    expect((await filesIn(t.dir)).filter((f) => ids.some((id) => f.includes(id)))).toEqual([]);
  });
});

describe(`deleting a respondent's data on request, on ${TEST_BACKEND}`, () => {
  const remove = (client: Client, projectId: string, body: unknown) =>
    client.request('POST', `/api/cabinet/projects/${projectId}/respondent-data/delete/`, { body });

  it('by participant id: every session of that participant in this project, and the record of it', async () => {
    const link = await launchedLink(t.app, alice);
    const other = await launchedLink(t.app, alice);
    const first = await respondent(link, 'worker-7');
    await processed(first, 'done');
    // The same participant came back and dropped out.
    const second = await insertRespondentSession(t.app, {
      linkId: link.linkId,
      status: 'dropped_out',
      participantId: 'worker-7',
    });
    await insertRecording(t.app, second, 0, webmChunks(2));
    const someoneElse = await respondent(link, 'worker-8');
    const sameIdElsewhere = await respondent(other, 'worker-7');

    const res = await remove(alice, link.projectId, { identifier_kind: 'participant_id', identifier: ' worker-7 ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      deleted_sessions: 2,
      deletion: {
        reason: 'consent_withdrawn',
        scope: 'sessions',
        identifier_kind: 'participant_id',
        identifier: 'worker-7',
        session_count: 2,
        user: { name: expect.any(String) },
      },
    });
    for (const id of [first, second]) {
      expect(await holdings(id)).toEqual(NOTHING_HELD);
    }
    expect(await holdings(someoneElse)).toMatchObject({ session: 1, chunks: 3, files: 3 });
    expect(await holdings(sameIdElsewhere)).toMatchObject({ session: 1, chunks: 3, files: 3 });
    expect(await db().selectFrom('storage_trash').select('key').execute()).toEqual([]);

    const list = await alice.request('GET', `/api/cabinet/projects/${link.projectId}/data-deletions/`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 1, items: [{ identifier: 'worker-7', session_count: 2 }] });
    expect((await alice.request('GET', `/api/cabinet/projects/${other.projectId}/data-deletions/`)).json().total).toBe(
      0,
    );

    // Asked again: nothing left to delete, and nothing recorded.
    const again = await remove(alice, link.projectId, { identifier_kind: 'participant_id', identifier: 'worker-7' });
    expect(again.statusCode).toBe(404);
    expect(again.json().field_keys.identifier.key).toBe('deletion.nothingFound');
    expect(await deletions(link.projectId)).toHaveLength(1);
  });

  it("by session id and by completion code; another project's session is not found", async () => {
    const link = await launchedLink(t.app, alice);
    const other = await launchedLink(t.app, alice);
    const bySession = await respondent(link);
    const byCode = await completeRespondent(t.app, link.token, { panel: { participant_id: 'p-9' } });
    const elsewhere = await respondent(other);

    let res = await remove(alice, link.projectId, { identifier_kind: 'session_id', identifier: elsewhere });
    expect(res.statusCode).toBe(404);
    expect(await holdings(elsewhere)).toMatchObject({ session: 1 });

    // A session id as pasted from anywhere: letter case does not matter to a uuid.
    res = await remove(alice, link.projectId, { identifier_kind: 'session_id', identifier: bySession.toUpperCase() });
    expect(res.statusCode).toBe(200);
    expect(res.json().deleted_sessions).toBe(1);
    expect(await holdings(bySession)).toMatchObject({ session: 0, files: 0 });

    // The code the respondent was shown at the end (the link has no redirect): the short one (issue 28, item 13);
    // the signed token names the same session.
    const code = byCode.end.code ?? '';
    expect(code).toMatch(/^[2-9A-HJKMNP-Z]{7}-[2-9A-HJKMNP-Z]{7}$/);
    for (const identifier of [code, byCode.end.token ?? '']) {
      res = await remove(bob, link.projectId, { identifier_kind: 'completion_code', identifier });
      expect(res.statusCode).toBe(404);
    }
    res = await remove(alice, link.projectId, { identifier_kind: 'completion_code', identifier: 'ZZZZZZZ-ZZZZZZZ' });
    expect(res.statusCode).toBe(404);
    res = await remove(alice, other.projectId, { identifier_kind: 'completion_code', identifier: code });
    expect(res.statusCode).toBe(404);
    res = await remove(alice, link.projectId, { identifier_kind: 'completion_code', identifier: code });
    expect(res.statusCode).toBe(200);
    // The code itself is not kept (it carries the participant id): the session id it named is.
    expect(res.json().deletion).toMatchObject({
      identifier_kind: 'completion_code',
      identifier: byCode.client.sessionId,
    });
    expect(await holdings(byCode.client.sessionId)).toMatchObject({ session: 0, files: 0 });
  });

  it("another customer gets 404 and deletes nothing; bad input answers 400 with the catalogue's messages", async () => {
    const link = await launchedLink(t.app, alice);
    const sid = await respondent(link, 'w-1');
    let res = await remove(bob, link.projectId, { identifier_kind: 'participant_id', identifier: 'w-1' });
    expect(res.statusCode).toBe(404);
    expect(res.json().key).toBe('project.notFound');
    expect((await bob.request('GET', `/api/cabinet/projects/${link.projectId}/data-deletions/`)).statusCode).toBe(404);
    res = await remove(alice, randomUUID(), { identifier_kind: 'participant_id', identifier: 'w-1' });
    expect(res.statusCode).toBe(404);

    const cases: [unknown, string, string][] = [
      [{ identifier_kind: 'participant_id', identifier: '   ' }, 'identifier', 'validation.required'],
      [{ identifier_kind: 'participant_id' }, 'identifier', 'validation.required'],
      [{ identifier: 'w-1' }, 'identifier_kind', 'validation.required'],
      [{ identifier_kind: 'email', identifier: 'w-1' }, 'identifier_kind', 'validation.required'],
      [{ identifier_kind: 'session_id', identifier: 'not-a-uuid' }, 'identifier', 'deletion.sessionIdInvalid'],
      [{ identifier_kind: 'participant_id', identifier: 'x'.repeat(256) }, 'identifier', 'validation.maxChars'],
      [{ identifier_kind: 'completion_code', identifier: 'abc.def.ghi' }, 'identifier', 'deletion.codeInvalid'],
    ];
    for (const [body, field, key] of cases) {
      res = await remove(alice, link.projectId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field_keys[field].key, JSON.stringify(body)).toBe(key);
    }
    res = await remove(alice, link.projectId, { identifier_kind: 'participant_id', identifier: 'w-1', extra: 1 });
    expect(res.statusCode).toBe(400);
    expect(await holdings(sid)).toMatchObject({ session: 1, chunks: 3 });
    expect(await deletions(link.projectId)).toEqual([]);
  });

  it("frees a deleted completed session's quota slot", async () => {
    const link = await launchedLink(t.app, alice);
    await db().updateTable('project_accessor_links').set({ quota_size: 1 }).where('id', '=', link.linkId).execute();
    const sid = await respondent(link, 'q-1');
    const info = async () => (await alice.request('GET', `/r/links/${link.token}`)).json();
    expect((await info()).state).toBe('quota_full');
    const res = await remove(alice, link.projectId, { identifier_kind: 'session_id', identifier: sid });
    expect(res.statusCode).toBe(200);
    expect((await info()).state).toBe('open');
    const next = await completeRespondent(t.app, link.token, { panel: { participant_id: 'q-2' } });
    expect(next.end.outcome).toBe('complete');
  });
});
