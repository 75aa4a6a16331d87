import type { SessionDrift } from '@emolens/engine';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Client, loggedIn, markLaunched, TEST_BACKEND } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { insertRespondentSession, insertVideoProcess } from '../../test/respondent-rows.ts';
import { sessionResult } from '../../test/session-result.ts';

// Drift per respondent (issue 31 item 4, decision 053): what a result's `summary.drift` measured is stored with the
// result when processing finishes, and the cabinet's process list shows it in px, % and degrees at the distance.

const t = appPerFile();
let alice: Client;
let linkId: string;
let researchId: string;

beforeEach(async () => {
  ({ alice } = await loggedIn(t.app, 'alice'));
  const projectId = await alice.draftProject();
  await alice.readyToLaunch(projectId);
  linkId = (await alice.request('GET', `/api/cabinet/projects/${projectId}/project-accessor-links/`)).json().items[0]
    .id;
  researchId = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${projectId}`)).json().items[0].id;
  await markLaunched(t.app, projectId);
});

/** A process the worker took and finished with this result (as `process-recording.handler` hands it over). */
async function finished(participantId: string, options: Parameters<typeof sessionResult>[0]) {
  const sessionId = await insertRespondentSession(t.app, {
    linkId,
    status: 'completed',
    outcome: 'complete',
    quotaState: 'pending',
    participantId,
  });
  const id = await insertVideoProcess(t.app, { sessionId, researchId, status: 'in_process' });
  const repo = t.app.ctx.deps.processing;
  expect(await repo.finish(id, 0, { status: 'done', result: sessionResult(options) })).toBeTruthy();
  return id;
}

const stored = (processId: string) =>
  t.app.ctx.database.db
    .selectFrom('process_results')
    .select(['drift_mean_px', 'drift_max_px', 'drift_mean_percent', 'drift_checkpoints', 'drift_corrected'])
    .where('process_id', '=', processId)
    .executeTakeFirstOrThrow();

// Three checkpoints: two measured (offsets 30 and 50 px), one whose gaze was off the dot (left out of the correction).
const DRIFT: SessionDrift = {
  checkpoints: [
    { ms: 70_000, dots: 3, samples: 40, offset: { x: 18, y: 24 }, used: true },
    { ms: 140_000, dots: 3, samples: 38, offset: { x: -30, y: 40 }, used: true },
    { ms: 210_000, dots: 3, samples: 41, offset: { x: 400, y: 300 }, used: false },
  ],
  meanPx: 40,
  maxPx: 50,
  meanPercent: (40 / Math.hypot(1280, 800)) * 100,
  corrected: true,
};

describe(`drift per respondent on ${TEST_BACKEND}`, () => {
  it('stores the checkpoints used, the mean and largest offset and the correction, and lists them in degrees', async () => {
    const drifted = await finished('rid-1', { accuracyPx: 44, distanceCm: 60.4, drift: DRIFT });
    const none = await finished('rid-2', { accuracyPx: 44, distanceCm: 60.4 });
    const unmeasured = await finished('rid-3', {
      accuracyPx: 44,
      drift: {
        checkpoints: [{ ms: 70_000, dots: 3, samples: 2, offset: null, used: false }],
        meanPx: null,
        maxPx: null,
        meanPercent: null,
        corrected: false,
      },
    });

    const row = await stored(drifted);
    expect(row).toMatchObject({ drift_mean_px: 40, drift_max_px: 50, drift_checkpoints: 2, drift_corrected: true });
    expect(row.drift_mean_percent).toBeCloseTo(2.65, 2);
    // No checkpoint in the session: nothing stored, as for results stored before drift was measured.
    expect(await stored(none)).toEqual({
      drift_mean_px: null,
      drift_max_px: null,
      drift_mean_percent: null,
      drift_checkpoints: null,
      drift_corrected: null,
    });
    expect(await stored(unmeasured)).toMatchObject({
      drift_checkpoints: 0,
      drift_mean_px: null,
      drift_corrected: false,
    });

    const res = await alice.request('GET', `/api/videoprocessor/campaigns-processes-list/?campaign=${researchId}`);
    expect(res.statusCode).toBe(200);
    const by = Object.fromEntries(
      (res.json().items as { respondent: string; result: { drift: unknown } }[]).map((p) => [p.respondent, p.result]),
    );
    // 40 CSS px (0.2646 mm each) seen from 60.4 cm: atan(10.58 / 604) = 1.00°.
    expect(by['rid-1']?.drift).toEqual({
      checkpoints: 2,
      mean_px: 40,
      max_px: 50,
      mean_percent: 2.65,
      mean_degrees: 1,
      corrected: true,
    });
    expect(by['rid-2']?.drift).toBeNull();
    // Checkpoints shown but none measured; no distance either, so no degrees.
    expect(by['rid-3']?.drift).toEqual({
      checkpoints: 0,
      mean_px: null,
      max_px: null,
      mean_percent: null,
      mean_degrees: null,
      corrected: false,
    });
  });
});
