import type { VideoProcessStatus } from '@emolens/contracts';
import type { GazePrecision, SessionResult } from '@emolens/engine';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Client, loggedIn, markLaunched, TEST_BACKEND } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { insertRespondentSession, insertVideoProcess } from '../../test/respondent-rows.ts';
import { sessionResult } from '../../test/session-result.ts';

// The processing module without the engine: the engine's results are written by hand as the worker
// would hand them to the repository (the shapes of session-types.ts), and the HTTP API is driven as
// the cabinet drives it.

const t = appPerFile();
let alice: Client;
let bob: Client;
let projectId: string;
let linkId: string;
let researchId: string;

beforeEach(async () => {
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
  projectId = await alice.draftProject();
  await alice.readyToLaunch(projectId);
  const links = await alice.request('GET', `/api/cabinet/projects/${projectId}/project-accessor-links/`);
  linkId = links.json().items[0].id;
  researchId = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${projectId}`)).json().items[0].id;
  await markLaunched(t.app, projectId);
});

const repo = () => t.app.ctx.deps.processing;
const db = () => t.app.ctx.database.db;

/** A completed session (pending quota slot unless told) with one process of the research. */
async function process(
  status: VideoProcessStatus,
  options: { participantId?: string; quotaState?: 'pending' | 'counted' | 'released'; campaign?: string } = {},
) {
  const sessionId = await insertRespondentSession(t.app, {
    linkId,
    status: 'completed',
    outcome: 'complete',
    quotaState: options.quotaState ?? 'pending',
    participantId: options.participantId ?? null,
  });
  const id = await insertVideoProcess(t.app, { sessionId, researchId: options.campaign ?? researchId, status });
  return { id, sessionId };
}

const row = (id: string) =>
  db().selectFrom('video_processes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const resultsOf = (id: string) =>
  db().selectFrom('process_results').selectAll().where('process_id', '=', id).orderBy('generation').execute();
const quotaOf = async (sessionId: string) =>
  (
    await db()
      .selectFrom('respondent_sessions')
      .select('quota_state')
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow()
  ).quota_state;

/** A process the worker took and finished with this result: done (or detection error). */
async function finished(
  status: 'done' | 'detection_error',
  result: SessionResult,
  options: Parameters<typeof process>[1] = {},
  precision: GazePrecision | null = null,
) {
  const p = await process('in_process', options);
  const generation = (await row(p.id)).generation;
  expect(await repo().finish(p.id, generation, { status, result, precision })).toBeTruthy();
  return p;
}

const list = async (client = alice) => {
  const res = await client.request('GET', `/api/videoprocessor/campaigns-processes-list/?campaign=${researchId}`);
  expect(res.statusCode).toBe(200);
  return res.json().items as Record<string, unknown>[];
};
const statistic = async () => {
  const res = await alice.request('POST', '/api/cabinet/campaigns/videoprocesses-statistic/', {
    body: { campaigns: [researchId] },
  });
  expect(res.statusCode).toBe(200);
  return res.json().items[0];
};
const restart = (id: string, client = alice) => client.request('POST', `/api/cabinet/video-processes/${id}/restart/`);
const cancel = (id: string, client = alice) => client.request('POST', `/api/cabinet/video-processes/${id}/cancel/`);
const reprocess = (client = alice) => client.request('POST', `/api/cabinet/campaigns/${researchId}/reprocess/`);

describe(`process lists and counts on ${TEST_BACKEND}`, () => {
  it('answers the result, the error, the engine, the timings and what may be done', async () => {
    const good = await finished(
      'done',
      sessionResult({ engagement: 0.61, accuracyPx: 44, distanceCm: 60.4 }),
      { participantId: 'rid-1' },
      { px: 18, percentOfDiagonal: 0.8, pairs: 40 },
    );
    const bad = await finished('done', sessionResult({ excluded: 'bad_frames' }), { participantId: 'rid-2' });
    const noFace = await finished('detection_error', sessionResult({ excluded: 'no_face' }), {
      participantId: 'rid-3',
    });
    const failed = await process('in_process', { participantId: 'rid-4' });
    expect(await repo().fail(failed.id, 0, 'decode_failed')).toBe(true);
    await process('collected', { participantId: 'rid-5' });

    const items = await list();
    expect(items).toHaveLength(5);
    const by = Object.fromEntries(items.map((p) => [p.respondent, p]));
    expect(by['rid-1']).toMatchObject({
      id: good.id,
      session_id: good.sessionId,
      status: 'done',
      progress: 100,
      error: null,
      engine_version: 'test-1',
      finished_at: expect.any(String),
      can: { restart: true, cancel: false },
      result: {
        engine_version: 'test-1',
        recording_seconds: 12,
        frames: 120,
        face_found: true,
        usable: true,
        excluded_reason: null,
        calibration_status: 'calibrated',
        calibration_accuracy_px: 44,
        calibration_accuracy_percent: 2,
        // 44 CSS px (0.2646 mm each) seen from 60.4 cm: atan(11.64 / 604) = 1.10° (decision 043).
        calibration_accuracy_degrees: 1.1,
        // The precision on the validation dots (decision 052): 18 px at the same distance, atan(4.76 / 604) = 0.45°.
        calibration_precision_px: 18,
        calibration_precision_percent: 0.8,
        calibration_precision_degrees: 0.45,
        distance_cm: 60,
      },
    });
    expect((by['rid-1'] as { result: { mean_engagement: number } }).result.mean_engagement).toBeCloseTo(0.61, 5);
    expect((by['rid-1'] as { result: { bad_frame_share: number } }).result.bad_frame_share).toBeCloseTo(0.05, 5);
    expect(by['rid-2']).toMatchObject({
      id: bad.id,
      result: {
        usable: false,
        excluded_reason: 'bad_frames',
        calibration_status: 'not_run',
        calibration_accuracy_degrees: null,
        calibration_precision_px: null,
        calibration_precision_degrees: null,
        distance_cm: null,
      },
    });
    expect(by['rid-3']).toMatchObject({
      id: noFace.id,
      status: 'detection_error',
      result: { usable: false, face_found: false, excluded_reason: 'no_face' },
      can: { restart: true, cancel: false },
    });
    expect(by['rid-4']).toMatchObject({
      status: 'error',
      error: 'decode_failed',
      result: null,
      can: { restart: true, cancel: false },
    });
    expect(by['rid-5']).toMatchObject({ status: 'collected', result: null, can: { restart: false, cancel: true } });

    const stats = await statistic();
    expect(stats).toEqual({
      campaign_id: researchId,
      total: 5,
      by_status: {
        created: 0,
        collected: 1,
        preprocessing: 0,
        in_process: 0,
        done: 2,
        error: 1,
        detection_error: 1,
        canceled: 0,
        restarted: 0,
      },
      usable: 1,
      excluded: 2,
      can_reprocess: true,
      // No session of the research was measured for privacy mode.
      device_analysis: null,
    });
  });

  it('offers no reprocess while nothing has ended', async () => {
    await process('collected');
    await process('in_process');
    expect(await statistic()).toMatchObject({ total: 2, usable: 0, excluded: 0, can_reprocess: false });
    const res = await reprocess();
    expect(res.statusCode).toBe(409);
    expect(res.json().key).toBe('processing.nothingToReprocess');
  });
});

describe(`restart and cancel on ${TEST_BACKEND}`, () => {
  it('restarts only an ended process, as a new generation', async () => {
    for (const status of ['done', 'error', 'detection_error', 'canceled'] as const) {
      const p = await process(status);
      const res = await restart(p.id);
      expect(res.statusCode, status).toBe(200);
      expect(res.json()).toMatchObject({
        id: p.id,
        status: 'restarted',
        progress: 0,
        can: { restart: false, cancel: true },
      });
      expect((await row(p.id)).generation).toBe(1);
    }
    for (const status of ['collected', 'restarted', 'preprocessing', 'in_process', 'created'] as const) {
      const p = await process(status);
      const res = await restart(p.id);
      expect(res.statusCode, status).toBe(409);
      expect(res.json().key).toBe('processing.notRestartable');
      expect(await row(p.id)).toMatchObject({ status, generation: 0 });
    }
  });

  it('cancels only a waiting or running process', async () => {
    for (const status of ['collected', 'restarted', 'preprocessing', 'in_process'] as const) {
      const p = await process(status);
      const res = await cancel(p.id);
      expect(res.statusCode, status).toBe(200);
      expect(res.json()).toMatchObject({ status: 'canceled', finished_at: expect.any(String) });
      expect(res.json().can).toEqual({ restart: true, cancel: false });
    }
    for (const status of ['done', 'error', 'detection_error', 'canceled', 'created'] as const) {
      const p = await process(status);
      const res = await cancel(p.id);
      expect(res.statusCode, status).toBe(409);
      expect(res.json().key).toBe('processing.notCancelable');
      expect(await row(p.id)).toMatchObject({ status, generation: 0 });
    }
  });

  it("refuses every write of a canceled attempt's generation", async () => {
    const p = await process('collected');
    expect(await repo().claim(p.id, 0, 'test-1')).toMatchObject({ id: p.id, attempts: 1 });
    expect(await repo().progress(p.id, 0, 'in_process', 40)).toBe(true);
    expect((await cancel(p.id)).statusCode).toBe(200);
    expect((await row(p.id)).generation).toBe(1);

    // The worker still running generation 0 finds it is no longer current.
    expect(await repo().progress(p.id, 0, 'in_process', 80)).toBe(false);
    expect(await repo().finish(p.id, 0, { status: 'done', result: sessionResult() })).toBe(false);
    expect(await repo().fail(p.id, 0, 'engine_crashed')).toBe(false);
    expect(await repo().claim(p.id, 0, 'test-1')).toBeUndefined();
    expect(await resultsOf(p.id)).toEqual([]);
    expect(await row(p.id)).toMatchObject({ status: 'canceled', result_id: null, progress: 40, error_code: null });
    expect(await quotaOf(p.sessionId)).toBe('pending');
  });
});

describe(`results per generation on ${TEST_BACKEND}`, () => {
  it('writes a result once per generation and points the process at it', async () => {
    const p = await process('in_process');
    const result = sessionResult();
    const first = await repo().finish(p.id, 0, { status: 'done', result });
    const second = await repo().finish(p.id, 0, { status: 'done', result: sessionResult({ engagement: 0.9 }) });
    expect(first).toBeTruthy();
    expect(second).toBe(false);
    const results = await resultsOf(p.id);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ generation: 0, engine_version: 'test-1', usable: true, frame_count: 120 });
    expect(results[0]?.mean_engagement).toBeCloseTo(0.42, 5);
    // The stored frames are the engine's bytes as they came.
    expect(Buffer.from(results[0]?.frames as Uint8Array).equals(Buffer.from(result.frames))).toBe(true);
    expect(await row(p.id)).toMatchObject({ status: 'done', progress: 100, result_id: results[0]?.id });

    // The same generation finished twice at once (a retried job beside the first): still one result.
    const q = await process('in_process');
    const both = await Promise.all([
      repo().finish(q.id, 0, { status: 'done', result }),
      repo().finish(q.id, 0, { status: 'done', result }),
    ]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect(await resultsOf(q.id)).toHaveLength(1);
  });

  it('replaces the older result when a restarted generation finishes', async () => {
    const p = await finished('done', sessionResult({ engineVersion: 'old' }));
    const [old] = await resultsOf(p.id);
    expect((await restart(p.id)).statusCode).toBe(200);
    // Until the new generation is done, the old result is the current one.
    expect(await row(p.id)).toMatchObject({ status: 'restarted', generation: 1, result_id: old?.id });
    expect((await list())[0]).toMatchObject({ status: 'restarted', result: { engine_version: 'old' } });

    expect(await repo().claim(p.id, 1, 'new')).toBeDefined();
    expect(
      await repo().finish(p.id, 1, { status: 'done', result: sessionResult({ engineVersion: 'new' }) }),
    ).toBeTruthy();
    const results = await resultsOf(p.id);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ generation: 1, engine_version: 'new' });
    expect(await row(p.id)).toMatchObject({ result_id: results[0]?.id, engine_version: 'new', attempts: 1 });
  });

  it("decides the session's quota slot from its results, only while it is pending", async () => {
    const usable = await finished('done', sessionResult());
    expect(await quotaOf(usable.sessionId)).toBe('counted');
    const excluded = await finished('done', sessionResult({ excluded: 'bad_frames' }));
    expect(await quotaOf(excluded.sessionId)).toBe('released');
    const noFace = await finished('detection_error', sessionResult({ excluded: 'no_face' }));
    expect(await quotaOf(noFace.sessionId)).toBe('released');
    // Decided at completion already: a later verdict does not move it.
    const counted = await finished('done', sessionResult({ excluded: 'bad_frames' }), { quotaState: 'counted' });
    expect(await quotaOf(counted.sessionId)).toBe('counted');
    const released = await finished('done', sessionResult(), { quotaState: 'released' });
    expect(await quotaOf(released.sessionId)).toBe('released');
  });

  it('counts a session shown several researches only when every one is done and usable', async () => {
    // A second research (another project of alice's: only the process's research matters here).
    const other = await alice.draftProject();
    const added = await alice.request('POST', '/api/cabinet/projects/add-new-campaign/', {
      body: { project_id: other, campaigns_data: [{ title: 'Second', content_type: 'contentless' }] },
    });
    const secondResearch = added.json().campaigns[0].id;
    const first = await process('in_process');
    const second = await insertVideoProcess(t.app, {
      sessionId: first.sessionId,
      researchId: secondResearch,
      status: 'in_process',
    });
    expect(await repo().finish(first.id, 0, { status: 'done', result: sessionResult() })).toBeTruthy();
    expect(await quotaOf(first.sessionId)).toBe('pending');
    expect(await repo().finish(second, 0, { status: 'done', result: sessionResult() })).toBeTruthy();
    expect(await quotaOf(first.sessionId)).toBe('counted');

    // One excluded research of the two releases the slot at once.
    const again = await process('in_process');
    const secondAgain = await insertVideoProcess(t.app, {
      sessionId: again.sessionId,
      researchId: secondResearch,
      status: 'in_process',
    });
    expect(
      await repo().finish(secondAgain, 0, { status: 'done', result: sessionResult({ excluded: 'no_face' }) }),
    ).toBeTruthy();
    expect(await quotaOf(again.sessionId)).toBe('released');
  });
});

describe(`reprocessing a research on ${TEST_BACKEND}`, () => {
  it('runs every ended process again and keeps the current results until the new ones are done', async () => {
    const a = await finished('done', sessionResult({ engineVersion: 'v1' }), { participantId: 'a' });
    const b = await finished('done', sessionResult({ engineVersion: 'v1', excluded: 'bad_frames' }), {
      participantId: 'b',
    });
    const running = await process('in_process', { participantId: 'c' });

    const res = await reprocess();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ restarted: 2 });
    expect(await row(running.id)).toMatchObject({ status: 'in_process', generation: 0 });
    const items = Object.fromEntries((await list()).map((p) => [p.respondent, p]));
    expect(items.a).toMatchObject({ status: 'restarted', result: { engine_version: 'v1', usable: true } });
    expect(items.b).toMatchObject({ status: 'restarted', result: { engine_version: 'v1', usable: false } });
    // The research still counts its current verdicts while it reprocesses.
    expect(await statistic()).toMatchObject({ usable: 1, excluded: 1, can_reprocess: false });
    // Nothing ended any more: a second reprocess has nothing to do.
    expect((await reprocess()).statusCode).toBe(409);

    expect(
      await repo().finish(a.id, 1, { status: 'done', result: sessionResult({ engineVersion: 'v2' }) }),
    ).toBeTruthy();
    const after = Object.fromEntries((await list()).map((p) => [p.respondent, p]));
    expect(after.a).toMatchObject({ status: 'done', result: { engine_version: 'v2' } });
    expect(after.b).toMatchObject({ status: 'restarted', result: { engine_version: 'v1' } });
    expect((await resultsOf(a.id)).map((r) => r.generation)).toEqual([1]);
    expect((await resultsOf(b.id)).map((r) => r.generation)).toEqual([0]);
  });
});

describe(`who may see and act on processes, on ${TEST_BACKEND}`, () => {
  it("answers another customer's processes and research as not found", async () => {
    const done = await finished('done', sessionResult());
    const waiting = await process('collected');
    expect(
      (await bob.request('GET', `/api/videoprocessor/campaigns-processes-list/?campaign=${researchId}`)).statusCode,
    ).toBe(404);
    const stats = await bob.request('POST', '/api/cabinet/campaigns/videoprocesses-statistic/', {
      body: { campaigns: [researchId] },
    });
    expect(stats.statusCode).toBe(404);
    const restarted = await restart(done.id, bob);
    expect(restarted.statusCode).toBe(404);
    expect(restarted.json().key).toBe('processing.processNotFound');
    expect((await cancel(waiting.id, bob)).statusCode).toBe(404);
    expect((await reprocess(bob)).statusCode).toBe(404);
    expect(
      (await bob.request('GET', `/api/videoprocessor/campaigns-processes-list/cint-processes-statistic/${researchId}`))
        .statusCode,
    ).toBe(404);
    // Nothing changed.
    expect(await row(done.id)).toMatchObject({ status: 'done', generation: 0 });
    expect(await row(waiting.id)).toMatchObject({ status: 'collected', generation: 0 });
    expect((await restart('not-a-uuid')).statusCode).toBe(404);
  });

  it('hides the processes of an archived project', async () => {
    const done = await finished('done', sessionResult());
    const waiting = await process('collected');
    await db().updateTable('projects').set({ status: 'archived' }).where('id', '=', projectId).execute();
    expect(
      (await alice.request('GET', `/api/videoprocessor/campaigns-processes-list/?campaign=${researchId}`)).statusCode,
    ).toBe(404);
    expect((await restart(done.id)).statusCode).toBe(404);
    expect((await cancel(waiting.id)).statusCode).toBe(404);
    expect((await reprocess()).statusCode).toBe(404);
    expect(
      (
        await alice.request(
          'GET',
          `/api/videoprocessor/campaigns-processes-list/cint-processes-statistic/${researchId}`,
        )
      ).statusCode,
    ).toBe(404);
    expect(await row(waiting.id)).toMatchObject({ status: 'collected', generation: 0 });
  });
});

describe(`the Cint file on ${TEST_BACKEND}`, () => {
  const cintUrl = () => `/api/videoprocessor/campaigns-processes-list/cint-processes-statistic/${researchId}`;

  it('lists every process with the RID, the state and the verdict, safe for spreadsheets', async () => {
    await db().updateTable('campaigns').set({ title: 'Ролик «Весна»' }).where('id', '=', researchId).execute();
    const good = await finished('done', sessionResult({ badFrameShare: 0.123456 }), { participantId: 'RID-1' });
    const bad = await finished('done', sessionResult({ excluded: 'bad_frames', badFrameShare: 0.4 }), {
      participantId: '=HYPERLINK("http://x")',
    });
    const failed = await process('in_process', { participantId: '+7 999' });
    await repo().fail(failed.id, 0, 'decode_failed');
    const waiting = await process('collected');

    const res = await alice.request('GET', cintUrl());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment; filename="[ -~]+\.csv"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("''")[1] ?? '')).toBe('Ролик «Весна» - Cint.csv');
    expect(res.rawPayload.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);

    const lines = res.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe('"RID","session_id","status","usable","reason","bad_frame_share","completed_at"');
    const rows = lines.slice(1, -1);
    expect(rows).toHaveLength(4);
    const bySession = (sessionId: string) => rows.find((line) => line.includes(sessionId));
    expect(bySession(good.sessionId)).toMatch(
      new RegExp(`^"RID-1","${good.sessionId}","done","yes","","0.1235","\\d{4}-\\d\\d-\\d\\dT[^"]+Z"$`),
    );
    // A formula from the panel's link is written as text, its quotes doubled.
    expect(bySession(bad.sessionId)).toMatch(
      new RegExp(`^"'=HYPERLINK\\(""http://x""\\)","${bad.sessionId}","done","no","bad_frames","0.4",`),
    );
    expect(bySession(failed.sessionId)).toMatch(
      new RegExp(`^"'\\+7 999","${failed.sessionId}","error","","decode_failed","",`),
    );
    // No panel id: the RID cell is empty.
    expect(bySession(waiting.sessionId)).toMatch(new RegExp(`^"","${waiting.sessionId}","collected","","","",`));
  });

  it("takes Cint's RID from the panel parameters", async () => {
    const p = await process('collected', { participantId: 'own-id' });
    await db()
      .updateTable('respondent_sessions')
      .set({ panel: JSON.stringify({ RID: '@rid-9' }) })
      .where('id', '=', p.sessionId)
      .execute();
    const res = await alice.request('GET', cintUrl());
    expect(res.body).toContain(`"'@rid-9","${p.sessionId}","collected"`);
  });

  it('answers a research without processes with the header only, and an unknown one with 404', async () => {
    const res = await alice.request('GET', cintUrl());
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('\uFEFF"RID","session_id","status","usable","reason","bad_frame_share","completed_at"\r\n');
    expect(
      (
        await alice.request(
          'GET',
          '/api/videoprocessor/campaigns-processes-list/cint-processes-statistic/00000000-0000-4000-8000-000000000000',
        )
      ).statusCode,
    ).toBe(404);
  });
});
