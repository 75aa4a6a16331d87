import { PHANTOM_TRUTH_FORMAT, PHANTOM_TRUTH_LIMITS } from '@emolens/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Client, createTestApp, loggedIn, TEST_BACKEND, type TestApp } from '../../test/harness.ts';
import { launchedLink } from '../../test/respondent.ts';
import { insertRespondentSession } from '../../test/respondent-rows.ts';

/**
 * Phantom respondents' truth (decision 035): who may attach one, its strict shape and size, and the statistic's
 * SQL, on both databases. The whole flow (a phantom through the respondent API, the worker's engine, the figures)
 * is phantom-truths-flow.test.ts, which runs once (scripts/test-passes.mjs).
 */
let t: TestApp;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.ctx.queue.start({ work: false });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.reset();
  ({ alice, bob } = await loggedIn(t.app, 'alice', 'bob'));
});

describe(`phantom truth on the research statistic, ${TEST_BACKEND}`, { timeout: 240_000 }, () => {
  it('takes a truth only from the session’s project owner, strictly shaped and within its size', async () => {
    const link = await launchedLink(t.app, alice);
    const sessionId = await insertRespondentSession(t.app, { linkId: link.linkId, status: 'started' });
    // A truth of the contract's shape without drawing a frame: a still, neutral face looking at the centre.
    const frames = Array.from({ length: 60 }, (_, i) => ({
      t_ms: (i * 1000) / 15,
      smile: 0,
      surprise: 0,
      frown: 0,
      gaze_x: 640,
      gaze_y: 360,
      gaze_phase: 'fixation',
      blink: 0,
      yaw: 0,
      pitch: 0,
      roll: 0,
    }));
    const body = {
      format: PHANTOM_TRUTH_FORMAT,
      phantom: { name: 'truth-upload', source: 'astronaut', fps: 15, duration_ms: 4000 },
      screen: { width: 1280, height: 720, width_cm: 34.5, height_cm: 19.4, distance_cm: 60 },
      expressions: [],
      blinks: [],
      frames,
    };
    const url = `/api/cabinet/respondent-sessions/${sessionId}/phantom-truth/`;

    const created = await alice.request('PUT', url, { body });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ session_id: sessionId, name: 'truth-upload', frames: 60, created: true });
    const replaced = await alice.request('PUT', url, { body });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().created).toBe(false);

    // Another customer's session is not found, and so is their research's statistic.
    const foreign = await bob.request('PUT', url, { body });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().key).toBe('fieldwork.sessionNotFound');
    const foreignStatistic = await bob.request('GET', `/api/cabinet/campaigns/${link.researchIds[0]}/phantom-truths/`);
    expect(foreignStatistic.statusCode).toBe(404);
    // The owner's statistic lists phantoms whose recording has a video process; this one has none yet.
    const own = await alice.request('GET', `/api/cabinet/campaigns/${link.researchIds[0]}/phantom-truths/`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ items: [] });

    // Strict: an unknown field, frames out of time order, a phase that is not one.
    const unknown = await alice.request('PUT', url, { body: { ...body, comment: 'x' } });
    expect(unknown.statusCode).toBe(400);
    const backwards = await alice.request('PUT', url, { body: { ...body, frames: [...frames].reverse() } });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().field_keys?.frames?.key).toBe('validation.invalid');
    const phase = await alice.request('PUT', url, {
      body: { ...body, frames: [{ ...frames[0], gaze_phase: 'blink' }] },
    });
    expect(phase.statusCode).toBe(400);

    // Past the size limit: refused before it is read.
    const huge = await alice.request('PUT', url, {
      rawBody: JSON.stringify({ ...body, padding: 'x'.repeat(PHANTOM_TRUTH_LIMITS.bodyBytes) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().key).toBe('errors.payload_too_large');

    // A preview is never processed: no truth for it.
    const preview = await insertRespondentSession(t.app, { linkId: link.linkId, status: 'started', preview: true });
    const refused = await alice.request('PUT', `/api/cabinet/respondent-sessions/${preview}/phantom-truth/`, { body });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().key).toBe('fieldwork.phantomTruthPreview');
  });
});
