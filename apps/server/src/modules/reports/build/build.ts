import {
  type Curve,
  type FixationSettings,
  type HeatmapGrid,
  type Language,
  metricRange,
  REPORT_METRICS,
  type ReportFilters,
  type ReportItem,
  type ReportMetric,
  type ReportRespondent,
  type ReportSnapshot,
  type ReportType,
  SHARE_THRESHOLD,
} from '@emolens/contracts';
import type { DigestBuckets, GazeTrack, ReportDigest } from '../../processing/digest.ts';
import type { ReportSummaryPart } from '../reports.repository.ts';
import { band, keyMoments } from './aggregate.ts';
import { clampBand, wilsonInterval } from './bands.ts';
import { areaMetrics, type Fixation, fixationsOf } from './gaze.ts';
import { heatmapGridOf } from './heatmap.ts';

/**
 * A report's snapshot from the stored results of its sessions (issue 13; design section 8). Pure but for yielding
 * to the event loop between items: the job feeds it what the repository read.
 *
 *  - Curves: per content item and point (`step` seconds), each respondent's value is the mean of their per-second
 *    values in the point; across respondents N, mean and the 95% t-band (`aggregate.ts`), and the share of
 *    respondents above SHARE_THRESHOLD. "calibration_subtraction" subtracts the respondent's own mean during the
 *    calibration (engagement and valence as the engine summarised them, each expression over the calibration's
 *    good frames); attention is a share of frames and is never corrected.
 *  - Key moments: peaks and drops of the engagement curve by prominence (≥ 0.05, at least 2 respondents).
 *  All of it is read from each result's report digest (`digest.ts`), not its frames or series' JSON.
 *  - Gaze: per item, every included respondent's samples on it (content pixels) make the heatmap, which counts
 *    those that fall on the content (gaze beside it is not behind the map); fixations by the
 *    I-VT filter (`gaze.ts`) with the report's settings are counted. The kernel's σ is the widest included
 *    respondent's accuracy on the item (their accuracy in % of the screen diagonal × the item's diagonal — the
 *    item is shown fitted to the screen), never under 2% of the diagonal. A video also gets one grid per point
 *    from the respondents' per-second mean gaze, which the engine placed on the video's own timeline.
 *  - Areas of interest (the shelf's zones and those drawn on the report): `areaMetrics` over each respondent's fixations, timed from their first
 *    gaze sample on the item.
 *  - The happy filter: a respondent's resting happy score is their mean `happy` over the calibration's good frames
 *    (decision 015).
 */

export interface BuildSession {
  session_id: string;
  /** The research (a report may pool several). */
  campaign_id: string;
  process_id: string;
  participant_id: string | null;
  status: string;
  sex: string | null;
  age: number | null;
  started_at: Date;
  engine_version: string;
  usable: boolean;
  excluded_reason: string | null;
  bad_frame_share: number;
  calibration_accuracy_px: number | null;
  calibration_accuracy_percent: number | null;
  mean_engagement: number | null;
  summary: ReportSummaryPart;
  /** The result's report digest (`digest.ts`), read. */
  digest: ReportDigest;
}

export interface BuildItem {
  index: number;
  label: string;
  media_id: string | null;
  width: number | null;
  height: number | null;
  /** The content's length in seconds where known (video), so the curve covers it even where nobody has data. */
  seconds: number | null;
  /** Areas of interest on it (item pixels): the shelf's zones, and those drawn on the report. */
  areas: {
    id: string;
    name: string;
    source: 'zone' | 'drawn';
    x: number;
    y: number;
    width: number;
    height: number;
    from: number | null;
    to: number | null;
  }[];
}

export interface Segment {
  key: string;
  labels: Record<Language, string> | null;
}

export interface BuildInput {
  type: ReportType;
  step: number;
  filters: ReportFilters;
  fixations: FixationSettings;
  timeline: string;
  items: BuildItem[];
  sessions: BuildSession[];
  /** The segment a session falls in (null: none, or not segmented). */
  segmentOf: (session: BuildSession) => Segment | null;
  onProgress?: (fraction: number) => Promise<void> | void;
}

/** What one session gives the report. */
interface SessionData extends ReportDigest {
  session: BuildSession;
}

const KERNEL_FLOOR = 0.02;
const GRID_CELLS = 48;
const MOMENT_PROMINENCE = 0.05;

/**
 * Why the report leaves a session out, or null when it counts it: its quality, its calibration's accuracy, its resting
 * happy score (the digest's). The job asks it too, before the build, to know whom the report counts.
 */
export function exclusion(
  s: Pick<BuildSession, 'usable' | 'excluded_reason' | 'calibration_accuracy_px'>,
  restingHappy: number | null,
  filters: ReportFilters,
): string | null {
  if (filters.quality === 'usable' && !s.usable) return s.excluded_reason ?? 'bad_frames';
  if (
    filters.accuracy_max_px !== null &&
    (s.calibration_accuracy_px === null || s.calibration_accuracy_px > filters.accuracy_max_px)
  ) {
    return 'accuracy';
  }
  const happy = filters.happy;
  if (happy && (restingHappy === null || restingHappy < happy.min || restingHappy > happy.max)) return 'happy';
  return null;
}

function grade(s: BuildSession): 'A' | 'B' | 'C' {
  if (!s.usable) return 'C';
  const pct = s.calibration_accuracy_percent;
  return pct !== null && pct <= 5 && s.bad_frame_share <= 0.1 ? 'A' : 'B';
}

/** What "calibration-subtraction" takes from a respondent's metric: 0 for raw reports and attention; NaN: none known. */
function baselineOf(data: SessionData, metric: ReportMetric, type: ReportType): number {
  if (type !== 'calibration_subtraction' || metric === 'attention') return 0;
  const b =
    metric === 'engagement' || metric === 'valence'
      ? (data.session.summary.baseline?.[metric] ?? null)
      : data.resting[metric];
  return b ?? Number.NaN;
}

/** Points of the item's curves: the last point anyone has a value in, or the content's own length. */
function pointCount(included: readonly SessionData[], item: BuildItem, step: number): number {
  let last = -1;
  for (const { buckets: b } of included) {
    for (let k = 0; k < b.length; k++) {
      if (b.item[k] === item.index) last = Math.max(last, Math.floor((b.second[k] as number) / step));
    }
  }
  return Math.max(last + 1, item.seconds ? Math.ceil(item.seconds / step) : 0);
}

/** Which point of a curve a bucket of a respondent's series falls in (`length` points; out of range: none). */
type PointOf = (buckets: DigestBuckets, k: number) => number;

/**
 * Every respondent's value of every metric at every point of the item, as one matrix per metric
 * (`[r · length + p]`, NaN where they have none): the mean of their per-second values in the point, baseline
 * removed. A respondent without the baseline a corrected report needs has no values of that metric.
 */
function pointMatrices(
  included: readonly SessionData[],
  item: number,
  type: ReportType,
  length: number,
  pointOf: PointOf,
) {
  const size = included.length * length;
  // Where each respondent's buckets fall in the matrix, found once for every metric (-1: no point of the item).
  const cells = included.map((data, r) => {
    const b = data.buckets;
    const at = new Int32Array(b.length);
    for (let k = 0; k < b.length; k++) {
      const p = pointOf(b, k);
      at[k] = b.item[k] === item && p >= 0 && p < length ? r * length + p : -1;
    }
    return at;
  });
  return Object.fromEntries(
    REPORT_METRICS.map((metric) => {
      const sums = new Float64Array(size);
      const counts = new Uint16Array(size);
      included.forEach((data, r) => {
        const baseline = baselineOf(data, metric, type);
        if (Number.isNaN(baseline)) return;
        const values = data.buckets.metrics[metric];
        const at = cells[r] as Int32Array;
        for (let k = 0; k < at.length; k++) {
          const v = values[k] as number;
          const cell = at[k] as number;
          if (cell < 0 || Number.isNaN(v)) continue;
          sums[cell] = (sums[cell] as number) + v - baseline;
          counts[cell] = (counts[cell] as number) + 1;
        }
      });
      for (let i = 0; i < size; i++) sums[i] = counts[i] ? (sums[i] as number) / (counts[i] as number) : Number.NaN;
      return [metric, sums];
    }),
  ) as Record<ReportMetric, Float64Array>;
}

/** Points of a task's step curve: one more than the most steps anyone reached (at least the start). */
function stepCount(included: readonly SessionData[], item: number): number {
  let most = 0;
  for (const { buckets: b } of included) {
    for (let k = 0; k < b.length; k++) {
      const step = b.step[k] as number;
      if (b.item[k] === item && Number.isFinite(step)) most = Math.max(most, step);
    }
  }
  return most + 1;
}

const round = (v: number | null, digits = 4) => (v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits);

/**
 * The curve of some respondents (`members`: rows of the matrix): per point N, mean, the t-band clamped to the
 * metric's `range`, the share above with its Wilson interval (`bands.ts`).
 */
function curveOf(
  matrix: Float64Array,
  members: readonly number[],
  length: number,
  range: { min: number; max: number },
): Curve {
  const curve: Curve = { n: [], mean: [], low: [], high: [], share_above: [], share_low: [], share_high: [] };
  const values = new Float64Array(members.length);
  for (let p = 0; p < length; p++) {
    let n = 0;
    let above = 0;
    for (const r of members) {
      const v = matrix[r * length + p] as number;
      if (Number.isNaN(v)) continue;
      values[n++] = v;
      if (v > SHARE_THRESHOLD) above++;
    }
    const b = band(values.subarray(0, n));
    const clamped = clampBand(b.low, b.high, range);
    const share = wilsonInterval(above, n);
    curve.n.push(b.n);
    curve.mean.push(round(b.mean));
    curve.low.push(round(clamped.low));
    curve.high.push(round(clamped.high));
    curve.share_above.push(n ? round(above / n) : null);
    curve.share_low.push(share ? round(share.low) : null);
    curve.share_high.push(share ? round(share.high) : null);
  }
  return curve;
}

const curvesOf = (
  matrices: Record<ReportMetric, Float64Array>,
  members: readonly number[],
  length: number,
  type: ReportType,
) =>
  Object.fromEntries(
    REPORT_METRICS.map((m) => [m, curveOf(matrices[m], members, length, metricRange(m, type))]),
  ) as Record<ReportMetric, Curve>;

/** Every track's points, one after another, as two columns. */
function joined(tracks: readonly GazeTrack[], total: number) {
  const x = new Float32Array(total);
  const y = new Float32Array(total);
  let at = 0;
  for (const track of tracks) {
    for (let i = 0; i < track.length; i++, at++) {
      x[at] = track.x[i] as number;
      y[at] = track.y[i] as number;
    }
  }
  return { length: total, x, y };
}

/** A grid as the snapshot holds it; its samples are those that fell on the content (gaze off it is not counted). */
function gridOut(grid: ReturnType<typeof heatmapGridOf>): HeatmapGrid {
  return {
    cols: grid.columns,
    rows: grid.rows,
    cells: Array.from(grid.values, (v) => Math.round(v * 255)),
    samples: grid.total,
  };
}

export async function buildSnapshot(input: BuildInput): Promise<ReportSnapshot> {
  const { step, type } = input;
  const read: SessionData[] = input.sessions.map((session) => ({ session, ...session.digest }));
  const people: ReportRespondent[] = [];
  const included: SessionData[] = [];
  for (const data of read) {
    const s = data.session;
    const reason = exclusion(s, data.resting.happy, input.filters);
    if (reason === null) included.push(data);
    people.push({
      session_id: s.session_id,
      campaign_id: s.campaign_id,
      process_id: s.process_id,
      participant_id: s.participant_id,
      status: s.status,
      sex: s.sex,
      age: s.age,
      started_at: s.started_at.toISOString(),
      bad_frame_share: round(s.bad_frame_share) as number,
      accuracy_px: round(s.calibration_accuracy_px, 1),
      accuracy_percent: round(s.calibration_accuracy_percent, 2),
      grade: grade(s),
      included: reason === null,
      excluded_reason: reason,
      resting_happy: round(data.resting.happy),
      mean_engagement: round(s.mean_engagement),
    });
  }
  // Segments by the rows of the included respondents.
  const segments = new Map<string, { labels: Segment['labels']; members: number[] }>();
  included.forEach((data, r) => {
    const segment = input.segmentOf(data.session);
    if (!segment) return;
    const entry = segments.get(segment.key) ?? { labels: segment.labels, members: [] };
    entry.members.push(r);
    segments.set(segment.key, entry);
  });
  const everyone = included.map((_, r) => r);

  const items: ReportItem[] = [];
  for (const [n, item] of input.items.entries()) {
    const length = pointCount(included, item, step);
    const matrices = pointMatrices(included, item.index, type, length, (b, k) =>
      Math.floor((b.second[k] as number) / step),
    );
    const curves = curvesOf(matrices, everyone, length, type);
    // A website task also by its progress: point p holds the seconds after p of its steps were reached.
    let stepCurves: ReportItem['step_curves'] = null;
    if (input.timeline === 'site') {
      const steps = stepCount(included, item.index);
      stepCurves = curvesOf(
        pointMatrices(included, item.index, type, steps, (b, k) => b.step[k] as number),
        everyone,
        steps,
        type,
      );
    }
    const segmentCurves = [...segments.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, { labels, members }]) => ({
        key,
        labels,
        respondents: members.length,
        curves: curvesOf(matrices, members, length, type),
      }));
    const engagement = curves.engagement.mean.map((mean, p) => ({
      n: curves.engagement.n[p] as number,
      mean,
      low: null,
      high: null,
    }));
    const moments = keyMoments(engagement, { minProminence: MOMENT_PROMINENCE, minN: 2 }).map((m) => ({
      second: m.second * step,
      kind: m.kind,
      value: round(m.value) as number,
      prominence: round(m.prominence) as number,
    }));

    // Gaze over the item.
    let heatmap: HeatmapGrid | null = null;
    let frames: HeatmapGrid[] | null = null;
    let kernel: number | null = null;
    let fixationCount = 0;
    let gazeRespondents = 0;
    let areas: ReportItem['areas'] = [];
    if (item.width && item.height) {
      const size = { width: item.width, height: item.height };
      const diagonal = Math.hypot(item.width, item.height);
      let worst = 0;
      // Each respondent's fixations, timed from their first gaze sample on the item (its onset as the gaze saw it).
      const tracks: GazeTrack[] = [];
      const perRespondent: Fixation[][] = [];
      for (const data of included) {
        const track = data.gaze.get(item.index);
        if (!track?.length) continue;
        tracks.push(track);
        const pct = data.session.calibration_accuracy_percent;
        if (pct !== null) worst = Math.max(worst, (pct / 100) * diagonal);
        const onset = track.t[0] as number;
        const found = fixationsOf(track, size, input.fixations);
        fixationCount += found.length;
        perRespondent.push(found.map((f) => ({ ...f, start: f.start - onset, end: f.end - onset })));
      }
      gazeRespondents = tracks.length;
      areas = areaMetrics(item.areas, perRespondent).map((m, i) => {
        const area = item.areas[i] as BuildItem['areas'][number];
        return {
          ...area,
          respondents: m.respondents,
          looked: m.looked,
          looked_share: round(m.lookedShare) as number,
          time_to_first_fixation: round(m.timeToFirstFixation, 2),
          dwell_time: round(m.dwellTime, 2) as number,
          dwell_share: round(m.dwellShare) as number,
          revisits: round(m.revisits, 2),
          fixation_count: round(m.fixationCount, 2) as number,
          // Counted by the job from the event logs, for website prototypes.
          clicks: null,
        };
      });
      kernel = Math.max(KERNEL_FLOOR * diagonal, worst);
      const options = { cell: Math.max(item.width, item.height) / GRID_CELLS, sigma: kernel, accuracy: null };
      const samples = tracks.reduce((sum, track) => sum + track.length, 0);
      const grid = samples ? heatmapGridOf(joined(tracks, samples), size, options) : null;
      // None of the samples on the content: no heatmap, as without gaze.
      if (grid?.total) heatmap = gridOut(grid);
      if (input.timeline === 'video') {
        // Each point's mean gazes, gathered into columns per point (count, then fill).
        const counts = new Uint32Array(length);
        const eachGaze = (visit: (p: number, x: number, y: number) => void) => {
          for (const { buckets: b } of included) {
            for (let k = 0; k < b.length; k++) {
              const x = b.gazeX[k] as number;
              const y = b.gazeY[k] as number;
              const p = Math.floor((b.second[k] as number) / step);
              if (b.item[k] === item.index && !Number.isNaN(x) && !Number.isNaN(y) && p < length) visit(p, x, y);
            }
          }
        };
        eachGaze((p) => {
          counts[p] = (counts[p] as number) + 1;
        });
        const columns = Array.from(counts, (n) => ({ length: 0, x: new Float32Array(n), y: new Float32Array(n) }));
        eachGaze((p, x, y) => {
          const c = columns[p] as (typeof columns)[number];
          c.x[c.length] = x;
          c.y[c.length] = y;
          c.length++;
        });
        frames = columns.map((c) => gridOut(heatmapGridOf(c, size, options)));
      }
    }
    items.push({
      index: item.index,
      width: item.width,
      height: item.height,
      media_id: item.media_id,
      label: item.label,
      seconds: Array.from({ length }, (_, p) => p * step),
      curves,
      step_curves: stepCurves,
      segments: segmentCurves,
      moments,
      heatmap,
      heatmap_frames: frames,
      kernel_px: kernel === null ? null : round(kernel, 1),
      fixations: fixationCount,
      gaze_respondents: gazeRespondents,
      areas,
    });
    await input.onProgress?.((n + 1) / input.items.length);
    await new Promise((resolve) => setImmediate(resolve));
  }

  return {
    method: 't-interval',
    timeline: input.timeline,
    step,
    threshold: SHARE_THRESHOLD,
    type,
    respondents: included.length,
    engine_versions: [...new Set(included.map((d) => d.session.engine_version))].sort(),
    // The job names the researches pooled and adds task statistics and the benchmark.
    researches: [],
    items,
    people,
    // Task statistics come from the event logs, not the results, and the benchmark from other researches: the job
    // adds them.
    tasks: [],
    benchmark: null,
  };
}
