import { createReportInput, REPORT_METRICS } from '@emolens/contracts';
import { EXPRESSIONS } from '@emolens/engine';
import { describe, expect, it } from 'vitest';
import type { ReportDigest } from '../../processing/digest.ts';
import { driftColumns } from '../../processing/drift-columns.ts';
import { type BuildInput, type BuildSession, buildSnapshot } from './build.ts';

/** A respondent with gaze samples on item 0 at 10 Hz and one per-second bucket per 10 samples (mean gaze). */
function session(id: string, gaze: { x: number; y: number }[]): BuildSession {
  const seconds = Math.ceil(gaze.length / 10);
  const column = (f: (s: number) => number) => Float32Array.from({ length: seconds }, (_, s) => f(s));
  const mean = (s: number, axis: 'x' | 'y') => {
    const part = gaze.slice(s * 10, s * 10 + 10);
    return part.reduce((sum, p) => sum + p[axis], 0) / part.length;
  };
  const digest: ReportDigest = {
    resting: Object.fromEntries(EXPRESSIONS.map((e) => [e, null])) as ReportDigest['resting'],
    buckets: {
      length: seconds,
      item: column(() => 0),
      step: column(() => 0),
      second: column((s) => s),
      metrics: Object.fromEntries(
        REPORT_METRICS.map((m) => [m, column(() => 0.5)]),
      ) as ReportDigest['buckets']['metrics'],
      gazeX: column((s) => mean(s, 'x')),
      gazeY: column((s) => mean(s, 'y')),
    },
    gaze: new Map([
      [
        0,
        {
          length: gaze.length,
          t: Float32Array.from(gaze, (_, i) => 10 + i / 10),
          x: Float32Array.from(gaze, (p) => p.x),
          y: Float32Array.from(gaze, (p) => p.y),
        },
      ],
    ]),
  };
  return {
    session_id: id,
    campaign_id: 'c',
    process_id: `p-${id}`,
    participant_id: null,
    status: 'completed',
    sex: null,
    age: null,
    started_at: new Date('2026-11-01T10:00:00Z'),
    calibration_check: null,
    engine_version: '0.5.0',
    usable: true,
    excluded_reason: null,
    bad_frame_share: 0,
    calibration_accuracy_px: 40,
    calibration_accuracy_percent: 3,
    calibration_precision_px: null,
    calibration_precision_percent: null,
    ...driftColumns(null),
    distance_cm: null,
    mean_engagement: 0.5,
    summary: { windowMs: { start: 10_000, end: 10_000 + seconds * 1000 }, baseline: null },
    digest,
  };
}

const defaults = createReportInput.parse({ name: 'Test' });
const input = (sessions: BuildSession[]): BuildInput => ({
  type: 'shift',
  step: 1,
  filters: defaults.filters,
  fixations: defaults.fixations,
  timeline: 'video',
  items: [{ index: 0, label: 'v', media_id: null, width: 1000, height: 500, seconds: 2, areas: [] }],
  sessions,
  segmentOf: () => null,
  tasks: { tasks: [], runs: [], media: [] },
  researches: [],
  benchmark: null,
});
const build = async (sessions: BuildSession[]) => (await buildSnapshot(input(sessions))).snapshot;

describe('the heatmap of a built snapshot', () => {
  it('counts only the gaze samples that fall on the content, in the whole map and in each second', async () => {
    const at = (x: number, y: number, n: number) => Array.from({ length: n }, () => ({ x, y }));
    const snapshot = await build([
      // Second 0: 6 samples on the item, 4 off it to the right; second 1: all 10 below it (mean gaze off it too).
      session('a', [...at(100, 100, 6), ...at(1200, 100, 4), ...at(300, 700, 10)]),
      // 10 samples on it, in second 0.
      session('b', at(500, 250, 10)),
    ]);
    const item = snapshot.items[0];
    expect(item?.gaze_respondents).toBe(2);
    expect(item?.heatmap?.samples).toBe(16);
    // Respondent a's mean gaze in second 0 is (580, 100), on the item; in second 1 (300, 700), off it.
    expect(item?.heatmap_frames?.map((f) => f.samples)).toEqual([2, 0]);
  });

  it('has no heatmap when no sample falls on the content', async () => {
    const snapshot = await build([
      session(
        'a',
        Array.from({ length: 10 }, () => ({ x: -5, y: 100 })),
      ),
    ]);
    expect(snapshot.items[0]?.heatmap).toBeNull();
    expect(snapshot.items[0]?.heatmap_frames?.map((f) => f.samples)).toEqual([0, 0]);
  });
});

describe("the respondents' accuracy in degrees (decision 043)", () => {
  it('converts the px at the estimated distance, and gives none without a distance', async () => {
    const at = (x: number, y: number, n: number) => Array.from({ length: n }, () => ({ x, y }));
    const snapshot = await build([
      { ...session('a', at(100, 100, 10)), distance_cm: 58.6 },
      session('b', at(100, 100, 10)),
    ]);
    const [a, b] = snapshot.people;
    // 40 CSS px of 0.2646 mm seen from 58.6 cm: atan(10.58 / 586) = 1.03°.
    expect(a).toMatchObject({ accuracy_px: 40, accuracy_degrees: 1.03, distance_cm: 59 });
    expect(b).toMatchObject({ accuracy_px: 40, accuracy_degrees: null, distance_cm: null });
  });
});

/** What the job used to add after the build, now the build's own (issue 29 item 1). */
describe('the whole snapshot from the build', () => {
  const site = (sessions: BuildSession[]): BuildInput => ({
    ...input(sessions),
    timeline: 'site',
    items: [
      {
        index: 0,
        label: 'Find the price',
        media_id: 'shot',
        width: 1000,
        height: 500,
        seconds: null,
        areas: [
          { id: '1', name: 'Left', source: 'drawn', x: 0, y: 0, width: 500, height: 500, from: null, to: null },
          { id: '2', name: 'Right', source: 'drawn', x: 500, y: 0, width: 500, height: 500, from: null, to: null },
        ],
      },
    ],
    tasks: {
      tasks: [{ description: 'Find the price', image: 'shot' } as BuildInput['tasks']['tasks'][number]],
      // Two clicks on the left half and one on the right, on a screen the size of the screenshot.
      runs: [
        {
          task: 0,
          result: 'success',
          seconds: 3,
          clicks: 3,
          misclicks: 0,
          path: [0],
          points: [
            { x: 100, y: 100, hit: true },
            { x: 200, y: 300, hit: true },
            { x: 900, y: 100, hit: false },
          ],
          session_id: 'a',
          participant_id: null,
          screen: { width: 1000, height: 500 },
          mark: 'not_marked',
        },
      ],
      media: [{ id: 'shot', width: 1000, height: 500 }],
    },
    researches: [
      { id: 'c', title: 'Mine' },
      { id: 'd', title: 'Pooled' },
    ],
  });

  it("counts each research's respondents, each task's figures and the clicks on each area, with the key metrics", async () => {
    const other = { ...session('b', [{ x: 10, y: 10 }]), campaign_id: 'd' };
    const { snapshot, metrics } = await buildSnapshot(site([session('a', [{ x: 10, y: 10 }]), other]));
    expect(snapshot.researches).toEqual([
      { id: 'c', title: 'Mine', respondents: 1 },
      { id: 'd', title: 'Pooled', respondents: 1 },
    ]);
    expect(snapshot.tasks.map((t) => [t.task, t.shown, t.success, t.clicks.length])).toEqual([[0, 1, 1, 3]]);
    expect(snapshot.items[0]?.areas.map((a) => [a.name, a.clicks])).toEqual([
      ['Left', 2],
      ['Right', 1],
    ]);
    // Every metric at 0.5 for everyone: the key metrics say so; no benchmark was asked for.
    expect(metrics).toMatchObject({ mean_engagement: 0.5, mean_valence: 0.5, mean_attention: 0.5 });
    expect(snapshot.benchmark).toBeNull();
  });
});
