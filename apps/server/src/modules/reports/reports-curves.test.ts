import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { appPerFile } from '../../test/per-file.ts';
import { DIGEST_VERSION } from '../processing/digest.ts';
import { close, type VideoResearch, videoResearchEachTest } from './reports.fixture.ts';

/**
 * Reports through the cabinet API (issue 13): the snapshot's curves against hand-computed figures, the filters that
 * choose its respondents, the digests a build reads their results from, the list of reports and the exports.
 */
const t = appPerFile({}, { queue: true });
let { alice, researchId } = {} as VideoResearch;
const { built, respondent, threeRespondents } = videoResearchEachTest(t, (r) => ({ alice, researchId } = r));

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
    await threeRespondents({
      0: { baselineEngagement: 0.1, smile: [0.5, 0.3, 0, 0] },
      1: { smile: [0.2, 0, 0, 0] },
      2: { baselineEngagement: 0.2 },
    });
    const s = (await built({ type: 'calibration_subtraction' })).snapshot;
    const e = s?.items[0]?.curves.engagement;
    // Second 0: 0.2 − 0.1 and 0.6 − 0.2.
    expect(e?.n[0]).toBe(2);
    close(e?.mean[0], (0.1 + 0.4) / 2);
    // Attention is a share of frames: never corrected.
    expect(s?.items[0]?.curves.attention.n[0]).toBe(3);
    // The smile index is measured from each respondent's rest by the engine: never corrected, its band within 0..1;
    // the respondent without one has no smile values.
    const smile = s?.items[0]?.curves.smile;
    expect(smile?.n).toEqual([2, 2, 2, 2]);
    close(smile?.mean[0], 0.35);
    close(smile?.mean[1], 0.15);
    expect(smile?.low[2]).toBe(0);
    expect(smile?.high.every((v) => v !== null && v <= 1)).toBe(true);
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
      DIGEST_VERSION,
      DIGEST_VERSION,
      DIGEST_VERSION,
    ]);
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
