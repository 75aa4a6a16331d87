import type { ReportOutput } from '@emolens/contracts';
import { strFromU8, unzipSync } from 'fflate';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Client, insertMedia, loggedIn } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { insertProcessedRespondent, type SyntheticRespondent, videoResearch } from '../../test/report-rows.ts';
import { insertEventLog, insertRecording, insertRespondentSession } from '../../test/respondent-rows.ts';
import { buildReportJob } from './jobs/build-report.job.ts';

/**
 * Reports through the cabinet API (issue 13): definitions, the build job, the snapshot's arithmetic against
 * hand-computed figures, every refusal of the spec, and the exports. Respondents are processed results written
 * with chosen values (`report-rows.ts`).
 */
const t = appPerFile({}, { queue: true });
let alice: Client;
let bob: Client;
let researchId: string;
let linkId: string;
beforeEach(async () => {
  ({ alice } = await loggedIn(t.app, 'alice'));
  ({ bob } = await loggedIn(t.app, 'bob'));
  ({ researchId, linkId } = await videoResearch(t.app, alice, 'alice', { width: 1000, height: 500, seconds: 4 }));
});

async function respondent(r: SyntheticRespondent & { sex?: 'man' | 'woman'; age?: number }) {
  const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
  await t.app.ctx.database.db
    .updateTable('respondent_sessions')
    .set({ sex: r.sex ?? null, age: r.age ?? null })
    .where('id', '=', sessionId)
    .execute();
  const processId = await insertProcessedRespondent(t.app, { sessionId, researchId }, r);
  return { sessionId, processId };
}

/** The three respondents of the hand-computed figures. */
async function threeRespondents(extra: Partial<Record<0 | 1 | 2, Partial<SyntheticRespondent>>> = {}) {
  return [
    await respondent({ engagement: [0.2, 0.4, 0.6, 0.8], sex: 'man', ...extra[0] }),
    await respondent({ engagement: [0.4, 0.4, 0.4, 0.4], sex: 'woman', ...extra[1] }),
    await respondent({ engagement: [0.6, null, 0.2, 0.0], sex: 'man', ...extra[2] }),
  ];
}

const create = (body: Record<string, unknown>, client = alice) =>
  client.request('POST', `/api/cabinet/campaigns/${researchId}/reports/`, { body: { name: 'Launch test', ...body } });

/** Creates a report and runs its build job; the opened report. */
async function built(body: Record<string, unknown> = {}): Promise<ReportOutput> {
  const res = await create(body);
  expect(res.statusCode, res.body).toBe(201);
  const report = res.json();
  await t.app.ctx.queue.run(buildReportJob, { report_id: report.id, generation: 1 });
  return (await alice.request('GET', `/api/cabinet/reports/${report.id}/`)).json();
}

/** The research's newest report. */
async function latestReport(): Promise<{ id: string }> {
  const [report] = (await alice.request('GET', `/api/cabinet/campaigns/${researchId}/reports/`)).json();
  return report;
}

const close = (value: number | null | undefined, expected: number) => {
  expect(value).not.toBeNull();
  expect(value as number).toBeCloseTo(expected, 4);
};

/** A drawn area's shapes, in fractions of the item. */
const rect = (x: number, y: number, width: number, height: number) => ({ kind: 'rectangle', x, y, width, height });
const pt = (x: number, y: number) => ({ x, y });

describe('curves', () => {
  it('per second: N, mean, the 95% t-band and the share above 0.5, as computed by hand', async () => {
    await threeRespondents();
    const report = await built();
    expect(report).toMatchObject({ status: 'done', video_count: 3, progress: 100, can: { open: true } });
    const s = report.snapshot;
    expect(s).toMatchObject({ method: 't-interval', timeline: 'video', respondents: 3, threshold: 0.5 });
    const e = s?.items[0]?.curves.engagement;
    expect(s?.items[0]?.seconds).toEqual([0, 1, 2, 3]);
    expect(e?.n).toEqual([3, 2, 3, 3]);
    // Second 0: 0.2, 0.4, 0.6 → mean 0.4, s 0.2, t(0.975, 2) = 4.3027, half-width 4.3027 · 0.2 / √3 = 0.49683:
    // −0.0968 … 0.8968, clamped to engagement's 0..1 (issue 28, item 2).
    close(e?.mean[0], 0.4);
    expect(e?.low[0]).toBe(0);
    close(e?.high[0], 0.8968);
    // Second 1: 0.4, 0.4 (the third has no good frame) → no spread.
    close(e?.low[1], 0.4);
    close(e?.high[1], 0.4);
    // Second 3: 0.8, 0.4, 0.0 → s 0.4, half-width 0.99367: −0.5937 … 1.3937, clamped to 0 … 1.
    expect(e?.low[3]).toBe(0);
    expect(e?.high[3]).toBe(1);
    // Above 0.5: 0.6 at second 0; 0.6 at 2; 0.8 at 3 — with the 95% Wilson interval of 1 of 3 (0.0615 … 0.7923)
    // and of 0 of 2 (0 … 0.6576).
    expect(e?.share_above).toEqual([0.3333, 0, 0.3333, 0.3333]);
    expect(e?.share_low).toEqual([0.0615, 0, 0.0615, 0.0615]);
    expect(e?.share_high).toEqual([0.7923, 0.6576, 0.7923, 0.7923]);
    // Valence is engagement / 2 in these results.
    close(s?.items[0]?.curves.valence.mean[3], 0.2);
  });

  it('step detail: a point is the mean of each respondent’s seconds in it', async () => {
    await threeRespondents();
    const s = (await built({ step: 2 })).snapshot;
    const e = s?.items[0]?.curves.engagement;
    expect(s?.items[0]?.seconds).toEqual([0, 2]);
    // Point 0: (0.2 + 0.4) / 2 = 0.3, 0.4, 0.6 (second 1 missing) → 0.43333.
    close(e?.mean[0], (0.3 + 0.4 + 0.6) / 3);
    expect(e?.n).toEqual([3, 3]);
  });

  it('calibration-subtraction takes each respondent’s calibration mean away; without one they drop out', async () => {
    await threeRespondents({ 0: { baselineEngagement: 0.1 }, 2: { baselineEngagement: 0.2 } });
    const s = (await built({ type: 'calibration_subtraction' })).snapshot;
    const e = s?.items[0]?.curves.engagement;
    // Second 0: 0.2 − 0.1 and 0.6 − 0.2.
    expect(e?.n[0]).toBe(2);
    close(e?.mean[0], (0.1 + 0.4) / 2);
    // Attention is a share of frames: never corrected.
    expect(s?.items[0]?.curves.attention.n[0]).toBe(3);
    // Happy is corrected by the calibration's own happy (0 here).
    expect(s?.items[0]?.curves.happy.n[0]).toBe(3);
  });

  it('segments by sex, each with its own band', async () => {
    await threeRespondents();
    const s = (await built({ segment: { by: 'sex' } })).snapshot;
    const segments = s?.items[0]?.segments ?? [];
    expect(segments.map((g) => [g.key, g.respondents])).toEqual([
      ['man', 2],
      ['woman', 1],
    ]);
    close(segments[0]?.curves.engagement.mean[0], 0.4);
    close(segments[0]?.curves.engagement.mean[3], 0.4);
    expect(segments[1]?.curves.engagement.low[0]).toBeNull();
  });

  it('marks the engagement peak and drop', async () => {
    await respondent({ engagement: [0.2, 0.2, 0.9, 0.2, 0.1, 0.1, 0.5, 0.5] });
    await respondent({ engagement: [0.2, 0.2, 0.9, 0.2, 0.1, 0.1, 0.5, 0.5] });
    await t.app.ctx.database.db.updateTable('media').set({ duration_seconds: 8 }).execute();
    const s = (await built()).snapshot;
    const moments = s?.items[0]?.moments ?? [];
    expect(moments[0]).toMatchObject({ second: 2, kind: 'peak' });
    expect(moments.find((m) => m.kind === 'drop')).toMatchObject({ second: 4 });
  });
});

describe('filters', () => {
  it('the happy filter [0, 0.13] leaves out respondents already smiling in the calibration, listed with why', async () => {
    const [, , smiling] = await threeRespondents({ 2: { restingHappy: 0.5 } });
    const report = await built({ filters: { happy: { min: 0, max: 0.13 } } });
    expect(report.snapshot?.respondents).toBe(2);
    expect(report.video_count).toBe(2);
    const person = report.snapshot?.people.find((p) => p.session_id === smiling?.sessionId);
    expect(person).toMatchObject({ included: false, excluded_reason: 'happy', resting_happy: 0.5 });
  });

  it('quality: excluded sessions only when asked; accuracy better than N px', async () => {
    await threeRespondents({ 0: { accuracyPx: 20 } });
    await respondent({ engagement: [1, 1, 1, 1], usable: false });
    expect((await built()).snapshot?.respondents).toBe(3);
    expect((await built({ name: 'All', filters: { quality: 'all' } })).snapshot?.respondents).toBe(4);
    const precise = await built({ name: 'Precise', filters: { accuracy_max_px: 30 } });
    expect(precise.snapshot?.respondents).toBe(1);
    expect(precise.snapshot?.people.filter((p) => p.excluded_reason === 'accuracy')).toHaveLength(2);
  });

  it('sex, age, session dates and chosen process ids narrow the respondents', async () => {
    const [first] = await threeRespondents();
    expect((await built({ filters: { respondents: { sex: 'man' } } })).snapshot?.respondents).toBe(2);
    const chosen = await built({ name: 'Chosen', filters: { process_ids: [first?.processId] } });
    expect(chosen.snapshot?.respondents).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    const dated = await built({ name: 'Dated', filters: { date_from: today, date_to: today } });
    expect(dated.snapshot?.respondents).toBe(3);
  });
});

describe('gaze', () => {
  it('a heatmap whose kernel follows the worst accuracy, fixations by the I-VT filter, a grid per video second', async () => {
    const still = (x: number, y: number) => Array.from({ length: 10 }, () => ({ x, y }));
    const { sessionId: gazed } = await respondent({
      engagement: [0.5, 0.5, 0.5, 0.5],
      gaze: [...still(100, 100), ...still(800, 400)],
      accuracyPercent: 3,
    });
    await respondent({ engagement: [0.5, 0.5, 0.5, 0.5], gaze: still(100, 100), accuracyPercent: 5 });
    const item = (await built()).snapshot?.items[0];
    expect(item?.gaze_respondents).toBe(2);
    // Two steady stretches at 10 Hz, then one: three fixations (the samples either side of the jump are the saccade's).
    expect(item?.fixations).toBe(3);
    // 5% of the 1000 × 500 item's diagonal (1118 px) is wider than the 2% floor.
    close(item?.kernel_px, Math.round(0.05 * Math.hypot(1000, 500) * 10) / 10);
    const map = item?.heatmap;
    expect(map).toMatchObject({ cols: 48, rows: 24, samples: 30 });
    // The densest cell is where both looked first.
    const peak = map?.cells.indexOf(255) ?? -1;
    expect([Math.floor(peak / 48), peak % 48]).toEqual([Math.floor(100 / (1000 / 48)), Math.floor(100 / (1000 / 48))]);
    // Per second of the video: two respondents' mean gaze in second 0, one in second 1, nobody later.
    expect(item?.heatmap_frames?.map((f) => f.samples)).toEqual([2, 1, 0, 0]);
    // A gaze plot of one respondent: their fixations in order, from their first sample on the item.
    const [first] = (await alice.request('GET', `/api/cabinet/reports/${(await latestReport()).id}/`)).json().snapshot
      .people;
    const plot = await alice.request(
      'GET',
      `/api/cabinet/reports/${(await latestReport()).id}/gaze-plot/?session_id=${first.session_id}&item=0`,
    );
    expect(plot.statusCode, plot.body).toBe(200);
    expect(plot.json().fixations.map((f: { x: number; y: number; start: number }) => [f.x, f.y, f.start])).toEqual(
      first.session_id === gazed
        ? [
            [100, 100, 0],
            // The sample landing at 1.0 s belongs to the saccade (decision 042): the fixation starts at 1.1 s.
            [800, 400, 1.1],
          ]
        : [[100, 100, 0]],
    );
    // Playback: the gazed respondent's samples at 10 Hz from their first on the item, and their recording's
    // segments where kept (none, then one).
    const reportId = (await latestReport()).id;
    const playbackOf = async () =>
      (await alice.request('GET', `/api/cabinet/reports/${reportId}/playback/?session_id=${gazed}&item=0`)).json();
    const played = await playbackOf();
    expect(played.gaze.t).toHaveLength(20);
    expect(played.gaze.t.slice(0, 3)).toEqual([0, 0.1, 0.2]);
    expect([played.gaze.x[0], played.gaze.y[0], played.gaze.x[19], played.gaze.y[19]]).toEqual([100, 100, 800, 400]);
    expect(played.segments).toEqual([]);
    await insertRecording(t.app, gazed, 0, [Buffer.from('webm')]);
    expect((await playbackOf()).segments).toEqual([
      {
        segment: 0,
        offset: 0,
        mime_type: 'video/webm',
        url: `/api/cabinet/respondent-sessions/${gazed}/recordings/0/`,
      },
    ]);
    expect(
      (await bob.request('GET', `/api/cabinet/reports/${reportId}/playback/?session_id=${gazed}&item=0`)).statusCode,
    ).toBe(404);
    const stranger = await alice.request(
      'GET',
      `/api/cabinet/reports/${(await latestReport()).id}/gaze-plot/?session_id=3f2b6c1e-8a4d-4e7f-9b2a-1c5d6e7f8a9b&item=0`,
    );
    expect(stranger.statusCode).toBe(404);
    const noItem = await alice.request(
      'GET',
      `/api/cabinet/reports/${(await latestReport()).id}/gaze-plot/?session_id=${first.session_id}&item=7`,
    );
    expect(noItem.json().field_keys.item.key).toBe('validation.choice');
  });
});

describe('areas of interest', () => {
  it("a shelf's zones: who looked, when first, how long, revisits and fixations, on a known path; exported", async () => {
    const db = t.app.ctx.database.db;
    const image = await insertMedia(t.app, { researchId, owner: 'alice', kind: 'image', status: 'ready' });
    await db.updateTable('media').set({ width: 1000, height: 500 }).where('id', '=', image).execute();
    const zone = (name: string, x: number, y: number) => ({ name, description: name, x, y, width: 0.2, height: 0.4 });
    await db
      .updateTable('campaigns')
      .set({
        content_type: 'shelf',
        shelf_content_scenario: JSON.stringify([
          {
            id: 's1',
            name: 'Shelf',
            task: '',
            duration_seconds: 5,
            auto_display: true,
            image,
            zones: [zone('Brand A', 0, 0), zone('Brand B', 0.7, 0.6)],
          },
        ]),
      })
      .where('id', '=', researchId)
      .execute();
    const still = (x: number, y: number, n = 10) => Array.from({ length: n }, () => ({ x, y }));
    // One looks at A (0.9 s), away, back at A (0.9 s); the other at B only after 1 s elsewhere.
    await respondent({
      engagement: [0.5, 0.5, 0.5],
      gaze: [...still(100, 100), ...still(500, 100), ...still(100, 150)],
    });
    await respondent({ engagement: [0.5, 0.5], gaze: [...still(500, 100), ...still(800, 400)] });
    const report = await built();
    const [a, b] = report.snapshot?.items[0]?.areas ?? [];
    expect(a).toMatchObject({ name: 'Brand A', source: 'zone', x: 0, y: 0, width: 200, height: 200 });
    // A: one of two looked, first at 0 s, dwell (0.8 + 0.8) / 2 respondents, one revisit, 2 fixations / 2 (each look
    // loses the sample beside its saccade: 0–0.8 s and 2.1–2.9 s).
    expect(a).toMatchObject({ respondents: 2, looked: 1, looked_share: 0.5, time_to_first_fixation: 0, revisits: 1 });
    close(a?.dwell_time, 0.8);
    close(a?.fixation_count, 1);
    // B: the second respondent from 1.1 s (the landing sample at 1.0 s is the saccade's), 0.8 s of their 1.6 s.
    expect(b).toMatchObject({ looked: 1, time_to_first_fixation: 1.1, revisits: 0 });
    close(b?.dwell_share, 0.25);
    const csv = await alice.request('GET', `/api/cabinet/reports/${report.id}/export/?kind=areas&format=csv`);
    const lines = csv.body.trim().split(/\r?\n/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"Brand A"');
  });
});

describe('areas drawn on the report', () => {
  it('rectangles on a picture: metrics after the rebuild; outside the image, an unknown item, too many refused', async () => {
    const db = t.app.ctx.database.db;
    const image = await insertMedia(t.app, { researchId, owner: 'alice', kind: 'image', status: 'ready' });
    await db.updateTable('media').set({ width: 1000, height: 500 }).where('id', '=', image).execute();
    await db
      .updateTable('campaigns')
      .set({ content_type: 'pictures', picture_gallery: JSON.stringify({ items: [{ image, duration_seconds: 5 }] }) })
      .where('id', '=', researchId)
      .execute();
    const still = (x: number, y: number, n = 10) => Array.from({ length: n }, () => ({ x, y }));
    await respondent({ engagement: [0.5, 0.5], gaze: [...still(100, 100), ...still(800, 400)] });
    const report = await built();
    expect(report.snapshot?.items[0]?.areas).toEqual([]);
    const put = (areas: object[]) =>
      alice.request('PUT', `/api/cabinet/reports/${report.id}/areas/`, { body: { areas } });

    const outside = await put([{ item: 0, name: 'Edge', shape: rect(0.9, 0, 0.2, 0.1) }]);
    expect(outside.statusCode).toBe(400);
    expect(outside.json().field_keys['areas.0.shape.width'].key).toBe('content.zoneOutside');
    const unknown = await put([{ item: 4, name: 'Nowhere', shape: rect(0, 0, 0.1, 0.1) }]);
    expect(unknown.json().field_keys['areas.0.item'].key).toBe('validation.choice');
    const many = await put(
      Array.from({ length: 31 }, (_, i) => ({ item: 0, name: `A${i}`, shape: rect(0, 0, 0.1, 0.1) })),
    );
    expect(many.json().field_keys.areas).toEqual({ key: 'validation.maxItems', params: { max: 30 } });
    // Key frames belong to a video's areas; a polygon crossing itself is refused.
    const frames = [{ t: 0, shape: rect(0, 0, 0.1, 0.1) }];
    const moving = await put([{ item: 0, name: 'Moving', shape: rect(0, 0, 0.1, 0.1), key_frames: frames }]);
    expect(moving.json().field_keys['areas.0.key_frames'].key).toBe('validation.unknownField');
    const bow = { kind: 'polygon', points: [pt(0, 0), pt(0.5, 0.5), pt(0.5, 0), pt(0, 0.5)] };
    const crossing = await put([{ item: 0, name: 'Bow', shape: bow }]);
    expect(crossing.json().field_keys['areas.0.shape.points'].key).toBe('report.areaPolygonCrossing');

    const saved = await put([
      { item: 0, name: 'Logo', shape: rect(0, 0, 0.2, 0.4) },
      // A triangle over the second fixation (800, 400), and one beside it.
      { item: 0, name: 'Pack', shape: { kind: 'polygon', points: [pt(0.6, 0.6), pt(0.95, 0.7), pt(0.7, 0.95)] } },
      // Its bounding box holds (800, 400), the triangle does not.
      { item: 0, name: 'Beside', shape: { kind: 'polygon', points: [pt(0.7, 0.7), pt(0.9, 0.7), pt(0.9, 0.85)] } },
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ status: 'in_progress', areas: [{ name: 'Logo' }, { name: 'Pack' }, {}] });
    // While it builds, no second change.
    expect((await put([])).json().key).toBe('report.notDone');
    await t.app.ctx.queue.run(buildReportJob, { report_id: report.id, generation: 2 });
    const rebuilt: ReportOutput = (await alice.request('GET', `/api/cabinet/reports/${report.id}/`)).json();
    expect(rebuilt.snapshot?.items[0]?.areas).toEqual([
      expect.objectContaining({
        id: '1',
        name: 'Logo',
        source: 'drawn',
        x: 0,
        y: 0,
        width: 200,
        height: 200,
        shape: { kind: 'rectangle', x: 0, y: 0, width: 200, height: 200 },
        looked: 1,
      }),
      expect.objectContaining({ id: '2', name: 'Pack', x: 600, y: 300, width: 350, height: 175, looked: 1 }),
      expect.objectContaining({ id: '3', name: 'Beside', looked: 0 }),
    ]);
  });
});

describe('areas on a video', () => {
  it('count only the fixations within their time window; a window that ends before it starts is refused', async () => {
    const still = (x: number, y: number, n = 10) => Array.from({ length: n }, () => ({ x, y }));
    // The video's first second on the top-left corner, the second on (800, 400).
    await respondent({ engagement: [0.5, 0.5, 0.5, 0.5], gaze: [...still(100, 100), ...still(800, 400)] });
    const report = await built();
    const put = (areas: object[]) =>
      alice.request('PUT', `/api/cabinet/reports/${report.id}/areas/`, { body: { areas } });
    const backwards = await put([{ item: 0, name: 'Pack', shape: rect(0.7, 0.7, 0.2, 0.2), from: 2, to: 1 }]);
    expect(backwards.json().field_keys['areas.0.to'].key).toBe('report.areaWindow');
    const pack = { item: 0, shape: rect(0.7, 0.7, 0.2, 0.2) };
    const saved = await put([
      { ...pack, name: 'Pack early', from: 0, to: 1 },
      { ...pack, name: 'Pack late', from: 1, to: 3 },
    ]);
    expect(saved.statusCode, saved.body).toBe(200);
    await t.app.ctx.queue.run(buildReportJob, { report_id: report.id, generation: 2 });
    const rebuilt: ReportOutput = (await alice.request('GET', `/api/cabinet/reports/${report.id}/`)).json();
    const [early, late] = rebuilt.snapshot?.items[0]?.areas ?? [];
    expect(early).toMatchObject({ name: 'Pack early', from: 0, to: 1, looked: 0, time_to_first_fixation: null });
    // The fixation on (800, 400) starts 1.1 s after the onset (its landing sample at 1.0 s is the saccade's): 0.1 s
    // into the late window.
    expect(late).toMatchObject({ name: 'Pack late', from: 1, to: 3, looked: 1, time_to_first_fixation: 0.1 });
  });

  it('a moving area follows its key frames: judged against its shape at each gaze sample’s moment', async () => {
    const still = (x: number, y: number, n = 10) => Array.from({ length: n }, () => ({ x, y }));
    await respondent({ engagement: [0.5, 0.5, 0.5, 0.5], gaze: [...still(100, 100), ...still(800, 400)] });
    const report = await built();
    // From the top-left corner at 0 s to (750..850, 375..425) at 1 s: it leaves the first gaze at once.
    const key_frames = [
      { t: 0, shape: rect(0.05, 0.1, 0.1, 0.2) },
      { t: 1, shape: rect(0.75, 0.75, 0.1, 0.1) },
    ];
    const put = (areas: object[]) =>
      alice.request('PUT', `/api/cabinet/reports/${report.id}/areas/`, { body: { areas } });
    const saved = await put([{ item: 0, name: 'Ball', shape: rect(0.5, 0.5, 0.1, 0.1), key_frames }]);
    expect(saved.statusCode, saved.body).toBe(200);
    // Stored with its first key frame's shape.
    expect(saved.json().areas[0].shape).toEqual(key_frames[0]?.shape);
    await t.app.ctx.queue.run(buildReportJob, { report_id: report.id, generation: 2 });
    const rebuilt: ReportOutput = (await alice.request('GET', `/api/cabinet/reports/${report.id}/`)).json();
    const [ball] = rebuilt.snapshot?.items[0]?.areas ?? [];
    expect(ball?.key_frames).toHaveLength(2);
    // Both fixations touch it, one after the other: one visit.
    expect(ball).toMatchObject({ name: 'Ball', looked: 1, time_to_first_fixation: 0, fixation_count: 2, revisits: 0 });
    // The first sample (0.05 s) and the second fixation (0.9-1 s by the filter's edge), not the first rectangle's 0.9.
    expect(Math.abs((ball?.dwell_time ?? 0) - 1)).toBeLessThanOrEqual(0.06);
    // Exported with its shape and key frames (item pixels).
    const csv = await alice.request('GET', `/api/cabinet/reports/${report.id}/export/?kind=areas&format=csv`);
    const [header, row] = csv.body.trim().split(/\r?\n/);
    expect(header).toContain('"shape","points","key_frames"');
    expect(row).toContain('"rectangle","","0: 50 50 100 100 | 1: 750 375 100 50"');
  });
});

describe('website-prototype tasks', () => {
  it('results, times, clicks on the screenshot and paths from the event logs; marks; unmarked tasks stop a report', async () => {
    const db = t.app.ctx.database.db;
    const image = await insertMedia(t.app, { researchId, owner: 'alice', kind: 'image', status: 'ready' });
    await db.updateTable('media').set({ width: 1000, height: 2000 }).where('id', '=', image).execute();
    const research = await db
      .selectFrom('campaigns')
      .select('settings')
      .where('id', '=', researchId)
      .executeTakeFirstOrThrow();
    const task = { id: 't1', description: 'Find the price', steps: [], anyIsFinal: false, image };
    const settings = (use: boolean) =>
      JSON.stringify({ ...research.settings, webResourceScenario: [task], useTasksStatsInReport: use });
    await db
      .updateTable('campaigns')
      .set({ content_type: 'site', settings: settings(false) })
      .where('id', '=', researchId)
      .execute();
    const [done, lost] = [await respondent({ engagement: [0.5] }), await respondent({ engagement: [0.4] })];
    await db.updateTable('respondent_sessions').set({ screen_width: 1280, screen_height: 800 }).execute();
    const start = { type: 'research_start', t: 1000, campaign_id: researchId, index: 0 };
    await insertEventLog(t.app, done?.sessionId as string, [
      start,
      { type: 'task_shown', t: 2000, task: 0 },
      { type: 'click', t: 3000, x: 100, y: 400 },
      { type: 'click', t: 4500, x: 640, y: 400, target: 'final' },
      { type: 'task_result', t: 4500, task: 0, result: 'success' },
    ]);
    await insertEventLog(t.app, lost?.sessionId as string, [
      start,
      { type: 'task_shown', t: 2000, task: 0 },
      { type: 'click', t: 3000, x: 700, y: 100 },
      { type: 'task_result', t: 62000, task: 0, result: 'fail' },
    ]);
    const url = `/api/cabinet/campaigns/${researchId}/task-statistics/`;
    const stats = (await alice.request('GET', url)).json();
    expect(stats).toMatchObject({ unmarked: 2, used_in_reports: false });
    expect(stats.tasks[0]).toMatchObject({
      description: 'Find the price',
      shown: 2,
      success: 1,
      fail: 1,
      success_share: 0.5,
      time_to_success: { mean: 2.5, median: 2.5 },
      clicks_to_success: 2,
      misclicks: 1,
    });
    // The 1000 × 2000 screenshot fills the 800 px high screen from x = 440: (640, 400) is its middle; (100, 400) is off it.
    expect(stats.tasks[0].clicks).toEqual([
      { x: 500, y: 1000, hit: true },
      { x: 650, y: 250, hit: false },
    ]);

    // The research uses task statistics in reports: no report until every run is marked.
    await db
      .updateTable('campaigns')
      .set({ settings: settings(true) })
      .where('id', '=', researchId)
      .execute();
    const refused = await create({});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().key).toBe('report.unmarkedTasks');
    const marks = `/api/cabinet/campaigns/${researchId}/task-marks/`;
    const unknown = await alice.request('PUT', marks, {
      body: { marks: [{ session_id: '3f2b6c1e-8a4d-4e7f-9b2a-1c5d6e7f8a9b', task: 0, mark: 'accepted' }] },
    });
    expect(unknown.json().field_keys['marks.0.task'].key).toBe('validation.choice');
    const foreign = await bob.request('PUT', marks, {
      body: { marks: [{ session_id: done?.sessionId, task: 0, mark: 'accepted' }] },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await bob.request('GET', url)).statusCode).toBe(404);
    const marked = await alice.request('PUT', marks, {
      body: {
        marks: [
          { session_id: done?.sessionId, task: 0, mark: 'rejected' },
          { session_id: lost?.sessionId, task: 0, mark: 'accepted' },
        ],
      },
    });
    expect(marked.json()).toMatchObject({ unmarked: 0, tasks: [{ success: 1, fail: 1 }] });
    expect(
      marked
        .json()
        .runs.map((r: { mark: string }) => r.mark)
        .sort(),
    ).toEqual(['accepted', 'rejected']);
    const report = await built();
    expect(report.snapshot?.tasks[0]).toMatchObject({ shown: 2, success: 1, fail: 1, time_to_success: { mean: 60 } });
    // Clicks per area: an area drawn around the screenshot's middle holds the hit, not the misclick.
    const area = { item: 0, name: 'Price', shape: rect(0.4, 0.4, 0.2, 0.2) };
    expect(
      (await alice.request('PUT', `/api/cabinet/reports/${report.id}/areas/`, { body: { areas: [area] } })).statusCode,
    ).toBe(200);
    await t.app.ctx.queue.run(buildReportJob, { report_id: report.id, generation: 2 });
    const withArea: ReportOutput = (await alice.request('GET', `/api/cabinet/reports/${report.id}/`)).json();
    expect(withArea.snapshot?.items[0]?.areas[0]).toMatchObject({ name: 'Price', clicks: 1 });
    // Unmarking one stops the next report again.
    await alice.request('PUT', marks, {
      body: { marks: [{ session_id: done?.sessionId, task: 0, mark: 'not_marked' }] },
    });
    expect((await create({ name: 'Again' })).json().key).toBe('report.unmarkedTasks');
  });
  it('a task’s curves by its progress: each respondent’s seconds before and after each step reached', async () => {
    const db = t.app.ctx.database.db;
    const task = { id: 't1', description: 'Buy the ticket', steps: [], anyIsFinal: true, image: null };
    const research = await db
      .selectFrom('campaigns')
      .select('settings')
      .where('id', '=', researchId)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('campaigns')
      .set({ content_type: 'site', settings: JSON.stringify({ ...research.settings, webResourceScenario: [task] }) })
      .where('id', '=', researchId)
      .execute();
    // One reached a step after 2 s and the second after 3 s; the other reached one step after 1 s.
    await respondent({ engagement: [0.2, 0.4, 0.6, 0.8], steps: [0, 0, 1, 2] });
    await respondent({ engagement: [0.5, 0.3, 0.3, 0.3], steps: [0, 1, 1, 1] });
    const report = await built();
    const s = report.snapshot;
    expect(s?.timeline).toBe('site');
    const e = s?.items[0]?.step_curves?.engagement;
    // Before any step: 0.3 (0.2, 0.4) and 0.5. After one: 0.6 and 0.3. After two: 0.8 alone.
    expect(e?.n).toEqual([2, 2, 1]);
    close(e?.mean[0], 0.4);
    close(e?.mean[1], 0.45);
    close(e?.mean[2], 0.8);
    // t(0.975, 1) = 12.706; the spread of 0.3 and 0.5 is 0.1414: half-width 12.706 · 0.1414 / √2 = 1.2706, so
    // −0.8706 … 1.6706, clamped to engagement's 0..1.
    expect([e?.low[0], e?.high[0]]).toEqual([0, 1]);
    expect(e?.low[2]).toBeNull();
    // The curves export: the time points, then the task's points by progress.
    const csv = await alice.request('GET', `/api/cabinet/reports/${report.id}/export/?kind=curves&format=csv`);
    const lines = csv.body.replaceAll('"', '').trim().split(/\r?\n/);
    expect(lines[0]).toContain('second,steps_reached,engagement_n');
    expect(lines.slice(-3).map((l) => l.split(',').slice(2, 5))).toEqual([
      ['', '0', '2'],
      ['', '1', '2'],
      ['', '2', '1'],
    ]);
  });
});

describe('a report over several researches of the project', () => {
  /** Another research of the same project (a copy of the first, content and all), showing a video of `size`. */
  async function sibling(size: { width: number; height: number } | null, over: { content_type?: 'shelf' } = {}) {
    const db = t.app.ctx.database.db;
    const home = await db.selectFrom('campaigns').selectAll().where('id', '=', researchId).executeTakeFirstOrThrow();
    const { id: _id, created_at: _c, updated_at: _u, ...rest } = home;
    const row = await db
      .insertInto('campaigns')
      .values({
        ...rest,
        title: 'Second panel',
        categories: JSON.stringify(rest.categories),
        settings: JSON.stringify(rest.settings),
        picture_gallery: JSON.stringify(rest.picture_gallery),
        shelf_content_scenario: JSON.stringify(rest.shelf_content_scenario),
        shelf_setting: JSON.stringify(rest.shelf_setting),
        ...over,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (size) {
      const video = await insertMedia(t.app, {
        researchId: row.id,
        owner: 'alice',
        kind: 'video',
        status: 'ready',
        duration_seconds: 4,
      });
      await db.updateTable('media').set(size).where('id', '=', video).execute();
    }
    return row.id;
  }

  async function theirs(research: string, r: SyntheticRespondent) {
    const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed' });
    await insertProcessedRespondent(t.app, { sessionId, researchId: research }, r);
    return sessionId;
  }

  it('pools the respondents, compares the researches on one chart and maps their gaze onto the report’s video', async () => {
    await threeRespondents();
    // The second research's video is twice as large: its respondents' gaze is halved onto the report's 1000 × 500.
    const second = await sibling({ width: 2000, height: 1000 });
    const gazed = await theirs(second, {
      engagement: [0.8, 0.8, 0.8, 0.8],
      gaze: Array.from({ length: 40 }, () => ({ x: 1000, y: 500 })),
    });
    await theirs(second, { engagement: [0.6, 0.6, 0.6, 0.6] });
    const poolable = await alice.request('GET', `/api/cabinet/campaigns/${researchId}/reports/researches/`);
    expect(poolable.json()).toEqual([{ id: second, title: 'Second panel', processed: 2 }]);

    const report = await built({ researches: [second], segment: { by: 'research' } });
    expect(report).toMatchObject({ status: 'done', researches: [second], video_count: 5 });
    const s = report.snapshot;
    expect(s?.researches.map((r) => [r.id, r.respondents])).toEqual([
      [researchId, 3],
      [second, 2],
    ]);
    // Second 0: 0.2, 0.4, 0.6 and 0.8, 0.6 → 0.52 over five.
    const e = s?.items[0]?.curves.engagement;
    expect(e?.n[0]).toBe(5);
    close(e?.mean[0], 0.52);
    const segments = s?.items[0]?.segments ?? [];
    const bySegment = Object.fromEntries(segments.map((g) => [g.key, g]));
    expect(bySegment[researchId]?.respondents).toBe(3);
    close(bySegment[researchId]?.curves.engagement.mean[0], 0.4);
    close(bySegment[second]?.curves.engagement.mean[0], 0.7);
    expect(bySegment[second]?.labels?.ru).toBe('Second panel');
    expect(s?.people.filter((p) => p.campaign_id === second)).toHaveLength(2);

    const played = (
      await alice.request('GET', `/api/cabinet/reports/${report.id}/playback/?session_id=${gazed}&item=0`)
    ).json();
    expect(played.gaze.x[0]).toBe(500);
    expect(played.gaze.y[0]).toBe(250);
    // The heatmap's densest cell is where that gaze lands on the report's video: the middle.
    const heatmap = s?.items[0]?.heatmap;
    const cells = heatmap?.cells ?? [];
    const peak = cells.indexOf(Math.max(...cells));
    expect(peak % (heatmap?.cols ?? 1)).toBe(Math.floor((heatmap?.cols ?? 0) / 2));
  });

  it('refuses researches it cannot pool, with the reason', async () => {
    await threeRespondents();
    const fields = async (body: Record<string, unknown>) => {
      const res = await create(body);
      expect(res.statusCode, res.body).toBe(400);
      return res.json().field_keys;
    };
    // The research itself, another content type, a research of another project.
    expect(await fields({ researches: [researchId] })).toMatchObject({
      researches: { key: 'report.researchMismatch' },
    });
    const shelf = await sibling(null, { content_type: 'shelf' });
    expect(await fields({ researches: [shelf] })).toMatchObject({ researches: { key: 'report.researchMismatch' } });
    const elsewhere = await videoResearch(t.app, alice, 'alice', { width: 1000, height: 500, seconds: 4 });
    expect(await fields({ researches: [elsewhere.researchId] })).toMatchObject({
      researches: { key: 'report.researchMismatch' },
    });
    // Comparing researches with none to compare.
    expect(await fields({ segment: { by: 'research' } })).toMatchObject({ segment: { key: 'report.segmentResearch' } });
    // Someone else's research is not found at all.
    const bobs = await videoResearch(t.app, bob, 'bob', { width: 1000, height: 500, seconds: 4 });
    expect((await create({ researches: [bobs.researchId] })).statusCode).toBe(404);

    // Shelves matched by position must have as many displays.
    const db = t.app.ctx.database.db;
    const display = (name: string) => ({ name, image: null, zones: [] });
    const other = await sibling(null, { content_type: 'shelf' });
    await db
      .updateTable('campaigns')
      .set({ content_type: 'shelf', shelf_content_scenario: JSON.stringify([display('A'), display('B')]) })
      .where('id', '=', researchId)
      .execute();
    await db
      .updateTable('campaigns')
      .set({ shelf_content_scenario: JSON.stringify([display('A')]) })
      .where('id', '=', other)
      .execute();
    expect(await fields({ researches: [other] })).toMatchObject({
      researches: { key: 'report.researchItems', params: { first: 2, second: 1 } },
    });
    expect(await t.app.ctx.database.db.selectFrom('reports').select('id').execute()).toEqual([]);
  });
});

describe('report digests', () => {
  it('a result stored without one gets it made from its frames at the first report, and kept', async () => {
    const [first] = await threeRespondents({ 0: { restingHappy: 0.5, gaze: [{ x: 10, y: 20 }] } });
    const db = t.app.ctx.database.db;
    await db.updateTable('process_results').set({ report_digest: null }).execute();
    const report = await built({ filters: { happy: { min: 0, max: 0.13 } } });
    expect(report.snapshot?.respondents).toBe(2);
    const person = report.snapshot?.people.find((p) => p.session_id === first?.sessionId);
    expect(person).toMatchObject({ excluded_reason: 'happy', resting_happy: 0.5 });
    const stored = await db.selectFrom('process_results').select('report_digest').execute();
    expect(stored.every((r) => r.report_digest !== null)).toBe(true);
  });

  it('a digest of an older layout (version 1: no steps) is made again from the frames and series', async () => {
    await threeRespondents();
    const db = t.app.ctx.database.db;
    const old = new Uint8Array(new Float32Array([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).buffer);
    await db.updateTable('process_results').set({ report_digest: old }).execute();
    expect((await built()).snapshot?.items[0]?.curves.engagement.n).toEqual([3, 2, 3, 3]);
    const stored = await db.selectFrom('process_results').select('report_digest').execute();
    expect(stored.map((r) => new Float32Array(new Uint8Array(r.report_digest as Uint8Array).buffer)[0])).toEqual([
      2, 2, 2,
    ]);
  });
});

describe('refusals', () => {
  it('a name over 30 characters or with symbols, with the spec’s messages', async () => {
    await threeRespondents();
    const long = await create({ name: 'A'.repeat(31) });
    expect(long.statusCode).toBe(400);
    expect(long.json().field_keys.name.key).toBe('report.nameLength');
    const symbols = await create({ name: 'Q3 report!' });
    expect(symbols.json().field_keys.name.key).toBe('report.nameLetters');
    expect((await create({ name: 'Отчёт 2 волна' })).statusCode).toBe(201);
  });

  it('ranges outside their bounds', async () => {
    const res = await create({
      filters: { accuracy_max_px: 5000, happy: { min: 0, max: 2 } },
      fixations: { velocityThreshold: 400 },
    });
    expect(res.statusCode).toBe(400);
    const keys = res.json().field_keys;
    expect(keys['filters.accuracy_max_px']).toEqual({ key: 'validation.between', params: { first: 1, second: 2000 } });
    expect(keys['filters.happy.max'].key).toBe('validation.between');
    expect(keys['fixations.velocityThreshold']).toEqual({
      key: 'validation.between',
      params: { first: 2, second: 300 },
    });
  });

  it("'incorrect timing': a date range that ends before it starts", async () => {
    await threeRespondents();
    const res = await create({ filters: { date_from: '2026-11-20', date_to: '2026-11-01' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().key).toBe('report.incorrectTiming');
    expect(res.json().field_keys['filters.date_to'].key).toBe('report.incorrectTiming');
  });

  it('no responses for the parameters; no video processes for the filters', async () => {
    const nobody = await create({});
    expect(nobody.statusCode).toBe(409);
    expect(nobody.json().key).toBe('report.noResponses');
    // A respondent without a processed video.
    await insertRespondentSession(t.app, { linkId, status: 'completed' }).then((sessionId) =>
      t.app.ctx.database.db
        .insertInto('video_processes')
        .values({ session_id: sessionId, campaign_id: researchId, status: 'collected' })
        .execute(),
    );
    expect((await create({})).json().key).toBe('report.noProcesses');
    await threeRespondents();
    expect((await create({ filters: { respondents: { sex: 'woman', age_min: 30 } } })).json().key).toBe(
      'report.noResponses',
    );
  });

  it('a report is already being generated: one build per research at a time', async () => {
    await threeRespondents();
    const first = (await create({})).json();
    const second = await create({ name: 'Second' });
    expect(second.statusCode).toBe(409);
    expect(second.json().key).toBe('report.alreadyGenerating');
    const again = await alice.request('POST', `/api/cabinet/reports/${first.id}/rebuild/`);
    expect(again.json().key).toBe('report.alreadyGenerating');
    expect((await alice.request('DELETE', `/api/cabinet/reports/${first.id}/`)).statusCode).toBe(409);
    // Exports wait for the snapshot.
    const early = await alice.request('GET', `/api/cabinet/reports/${first.id}/export/?kind=curves&format=csv`);
    expect(early.statusCode).toBe(409);
    expect(early.json().key).toBe('report.notDone');
  });

  it('the last report failed: a build whose filters leave nobody never shows as done', async () => {
    await threeRespondents({ 0: { restingHappy: 0.9 }, 1: { restingHappy: 0.9 }, 2: { restingHappy: 0.9 } });
    const report = await built({ filters: { happy: { min: 0, max: 0.13 } } });
    expect(report).toMatchObject({
      status: 'canceled',
      failed: true,
      error_key: 'report.noProcesses',
      snapshot: null,
      can: { rebuild: true, open: false },
    });
    const exported = await alice.request('GET', `/api/cabinet/reports/${report.id}/export/?kind=curves&format=xlsx`);
    expect(exported.json().key).toBe('report.lastFailed');
  });

  it('a cancelled build cannot write; a rebuild makes a new generation', async () => {
    await threeRespondents();
    const report = (await create({})).json();
    const canceled = await alice.request('POST', `/api/cabinet/reports/${report.id}/cancel/`);
    expect(canceled.json()).toMatchObject({ status: 'canceled', failed: false, can: { rebuild: true } });
    await t.app.ctx.queue.run(buildReportJob, { report_id: report.id, generation: 1 });
    expect((await alice.request('GET', `/api/cabinet/reports/${report.id}/`)).json().snapshot).toBeNull();
    const rebuilt = await alice.request('POST', `/api/cabinet/reports/${report.id}/rebuild/`);
    expect(rebuilt.json()).toMatchObject({ status: 'in_progress' });
    await t.app.ctx.queue.run(buildReportJob, { report_id: report.id, generation: 3 });
    const opened = (await alice.request('GET', `/api/cabinet/reports/${report.id}/`)).json();
    expect(opened).toMatchObject({ status: 'done', video_count: 3 });
    expect(opened.last_accessed_at).not.toBeNull();
  });

  it("another customer's report and a deleted research's report are not found", async () => {
    await threeRespondents();
    const report = await built();
    const foreign = await bob.request('GET', `/api/cabinet/reports/${report.id}/`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().key).toBe('report.notFound');
    expect((await bob.request('GET', `/api/cabinet/campaigns/${researchId}/reports/`)).statusCode).toBe(404);
    await t.app.ctx.database.db.deleteFrom('campaigns').where('id', '=', researchId).execute();
    expect((await alice.request('GET', `/api/cabinet/reports/${report.id}/`)).statusCode).toBe(404);
  });
});

describe('list and exports', () => {
  it('the list shows name, status, filters, video count, built and last accessed', async () => {
    await threeRespondents();
    const report = await built({ name: 'Wave 1', filters: { respondents: { sex: 'man' } } });
    const [row] = (await alice.request('GET', `/api/cabinet/campaigns/${researchId}/reports/`)).json();
    expect(row).toMatchObject({
      id: report.id,
      name: 'Wave 1',
      status: 'done',
      video_count: 2,
      filters: { respondents: { sex: 'man' } },
      can: { open: true, rebuild: true, delete: true, cancel: false },
    });
    expect(row.built_at).not.toBeNull();
    expect(row.last_accessed_at).not.toBeNull();
  });

  it('curves, respondents and per-respondent series as CSV and XLSX', async () => {
    await threeRespondents();
    const report = await built();
    const csv = await alice.request('GET', `/api/cabinet/reports/${report.id}/export/?kind=curves&format=csv`);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .trim()
      .split(/\r?\n/)
      .map((line) => line.replaceAll('"', ''));
    expect(lines).toHaveLength(5);
    expect(lines[0]?.startsWith('item,label,second,steps_reached,engagement_n,engagement_mean,engagement_low')).toBe(
      true,
    );
    // The t-band's lower end (-0.0968) is clamped to engagement's range, 0–1 (issue 28, item 2).
    expect(lines[1]?.split(',').slice(4, 7)).toEqual(['3', '0.4', '0']);
    const people = await alice.request('GET', `/api/cabinet/reports/${report.id}/export/?kind=respondents&format=xlsx`);
    const sheet = strFromU8(unzipSync(new Uint8Array(people.rawPayload))['xl/worksheets/sheet1.xml'] as Uint8Array);
    expect(sheet).toContain('accuracy_px');
    expect(sheet.match(/<row /g)).toHaveLength(4);
    const series = await alice.request('GET', `/api/cabinet/reports/${report.id}/export/?kind=series&format=csv`);
    expect(series.body.trim().split(/\r?\n/)).toHaveLength(1 + 3 * 4);
    const bad = await alice.request('GET', `/api/cabinet/reports/${report.id}/export/?kind=frames&format=csv`);
    expect(bad.statusCode).toBe(400);
  });
});
