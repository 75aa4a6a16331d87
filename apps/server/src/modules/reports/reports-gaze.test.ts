import type { ReportOutput } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { insertMedia } from '../../test/harness.ts';
import { appPerFile } from '../../test/per-file.ts';
import { insertRecording } from '../../test/respondent-rows.ts';
import { buildReportJob } from './jobs/build-report.job.ts';
import { close, pt, rect, type VideoResearch, videoResearchEachTest } from './reports.fixture.ts';

/**
 * Reports through the cabinet API (issue 13): gaze (the heatmap, fixations, a respondent's gaze plot and playback)
 * and areas of interest: a shelf's zones, areas drawn on a picture, areas on a video in a time window or moving with
 * key frames.
 */
const t = appPerFile({}, { queue: true });
let { alice, bob, researchId } = {} as VideoResearch;
const { built, respondent } = videoResearchEachTest(t, (r) => ({ alice, bob, researchId } = r));

/** The research's newest report. */
async function latestReport(): Promise<{ id: string }> {
  const [report] = (await alice.request('GET', `/api/cabinet/campaigns/${researchId}/reports/`)).json();
  return report;
}

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
