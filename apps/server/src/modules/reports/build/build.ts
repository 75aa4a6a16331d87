import type {
  AreaKeyFrame,
  AreaShape,
  CalibrationCheckVerdict,
  FixationSettings,
  HeatmapGrid,
  KeyMetrics,
  Language,
  ReportBenchmark,
  ReportFilters,
  ReportItem,
  ReportRespondent,
  ReportSnapshot,
  ReportType,
  WebTask,
} from '@emolens/contracts';
import {
  FIXATION_FILTER,
  gazeDriftOf,
  pxToDegrees,
  roundedDegrees,
  SHARE_THRESHOLD,
  type StoredGazeDrift,
  VIEWING,
} from '@emolens/contracts';
import { benchmarkOf, keyMetricsOf } from '../../benchmarks/key-metrics.ts';
import type { GazeTrack, ReportDigest } from '../../processing/digest.ts';
import type { ReportSummaryPart } from '../reports.repository.ts';
import { type MarkedRun, tasksOf } from '../tasks/task-runs.ts';
import { keyMoments } from './aggregate.ts';
import { areaMetrics, clicksIn, type TracedFixation, withPath } from './areas.ts';
import { curvesOf, pointCount, pointMatrices, round, stepCount } from './curves.ts';
import { fixationsOf } from './gaze.ts';
import { heatmapGridOf } from './heatmap.ts';

/**
 * A report's snapshot from the stored results of its sessions (issue 13; design section 8). Pure but for yielding
 * to the event loop between items: the job feeds it what the repository read.
 *
 *  - Curves: per content item and point (`step` seconds), each respondent's value is the mean of their per-second
 *    values in the point; across respondents N, mean and the 95% t-band (`aggregate.ts`), and the share of
 *    respondents above SHARE_THRESHOLD. "calibration_subtraction" subtracts the respondent's own mean during the
 *    calibration (engagement and valence as the engine summarised them, each expression over the calibration's
 *    good frames); attention (a share of frames) and the smile index (measured from the respondent's rest by the
 *    engine) are never corrected (`isCorrectedMetric`).
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
 *  - What the job read besides the results: the website tasks' runs (statistics per task, and clicks counted per
 *    area of each task's screenshot), the researches pooled (with the respondents counted of each) and the benchmark
 *    base the research is compared with (decision 016, with its key metrics).
 */

/** A session as the build reads it; its drift columns (decision 053) are all null without a checkpoint. */
export interface BuildSession extends StoredGazeDrift {
  session_id: string;
  /** The research (a report may pool several). */
  campaign_id: string;
  process_id: string;
  participant_id: string | null;
  status: string;
  sex: string | null;
  age: number | null;
  started_at: Date;
  /** The calibration check before the content (decision 050); null when the session was not checked. */
  calibration_check: CalibrationCheckVerdict | null;
  engine_version: string;
  usable: boolean;
  excluded_reason: string | null;
  bad_frame_share: number;
  calibration_accuracy_px: number | null;
  calibration_accuracy_percent: number | null;
  /** The gaze's precision on the validation dots, RMS sample to sample (decision 052); null when not measured. */
  calibration_precision_px: number | null;
  calibration_precision_percent: number | null;
  /** Estimated from the iris's size (decision 043); null when not measured. */
  distance_cm: number | null;
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
    /** The area's shape (the rectangle above when absent) and a moving one's key frames (s from the onset). */
    shape?: AreaShape;
    key_frames?: AreaKeyFrame[];
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
  /** The website tasks of the report's research, every run of the included respondents with its mark, the images. */
  tasks: {
    tasks: readonly WebTask[];
    runs: readonly MarkedRun[];
    media: readonly { id: string; width: number | null; height: number | null }[];
  };
  /** The researches pooled (decision 019), the report's own first. */
  researches: readonly { id: string; title: string }[];
  /** The research and the base of its subtype, when the report compares with it (decision 016); null: no benchmark. */
  benchmark: {
    research: { subtype: string; content_type: ReportBenchmark['content_type'] };
    base: { researches: KeyMetrics[]; imported: KeyMetrics[] };
    wholeSample: boolean;
  } | null;
  onProgress?: (fraction: number) => Promise<void> | void;
}

/** The snapshot with the research's key metrics (decision 016; null when no point has anyone behind it). */
export interface BuiltReport {
  snapshot: ReportSnapshot;
  metrics: KeyMetrics | null;
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

export async function buildSnapshot(input: BuildInput): Promise<BuiltReport> {
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
      accuracy_degrees: roundedDegrees(pxToDegrees(s.calibration_accuracy_px, s.distance_cm)),
      precision_px: round(s.calibration_precision_px, 1),
      precision_percent: round(s.calibration_precision_percent, 2),
      precision_degrees: roundedDegrees(pxToDegrees(s.calibration_precision_px, s.distance_cm)),
      drift: gazeDriftOf(s, s.distance_cm),
      distance_cm: s.distance_cm === null ? null : Math.round(s.distance_cm),
      calibration_check: s.calibration_check,
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
      const perRespondent: TracedFixation[][] = [];
      // A moving area judges fixations by their samples (decision 044).
      const moving = item.areas.some((a) => a.key_frames?.length);
      for (const data of included) {
        const track = data.gaze.get(item.index);
        if (!track?.length) continue;
        tracks.push(track);
        const pct = data.session.calibration_accuracy_percent;
        if (pct !== null) worst = Math.max(worst, (pct / 100) * diagonal);
        const onset = track.t[0] as number;
        const found = fixationsOf(track, size, input.fixations);
        fixationCount += found.length;
        perRespondent.push(
          found.map((f) => (moving ? withPath(track, f, onset) : { ...f, start: f.start - onset, end: f.end - onset })),
        );
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
          // Counted below from the tasks' event logs, for website prototypes.
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

  // Website tasks: each task's figures, and the clicks on each area of interest of its screenshot.
  const tasks = tasksOf(input.tasks.tasks, input.tasks.runs, new Map(input.tasks.media.map((m) => [m.id, m])));
  for (const task of tasks) {
    const item = items.find((it) => it.index === task.task);
    for (const area of item?.areas ?? []) {
      area.clicks = clicksIn(area, task.clicks);
    }
  }
  const metrics = keyMetricsOf(items, included.length);
  const { benchmark } = input;
  const snapshot: ReportSnapshot = {
    method: 't-interval',
    timeline: input.timeline,
    step,
    threshold: SHARE_THRESHOLD,
    type,
    respondents: included.length,
    engine_versions: [...new Set(included.map((d) => d.session.engine_version))].sort(),
    researches: input.researches.map((r) => ({
      id: r.id,
      title: r.title,
      respondents: included.filter((d) => d.session.campaign_id === r.id).length,
    })),
    items,
    people,
    tasks,
    benchmark:
      benchmark && metrics ? benchmarkOf(benchmark.research, metrics, benchmark.base, benchmark.wholeSample) : null,
    fixation_filter: { name: FIXATION_FILTER.name, settings: input.fixations, distance_cm: VIEWING.distanceCm },
  };
  return { snapshot, metrics };
}
