import { type AreaKeyFrame, type AreaShape, builtShape, shapeAt, shapeContains } from '@emolens/contracts';
import type { GazeTrack } from '../../processing/digest.ts';
import type { Fixation } from './gaze.ts';

/**
 * Areas of interest (issue 13, item 3; issue 31, item 5; design section 8; decision 044): what respondents'
 * fixations did in each area, pure functions over fixations in content coordinates.
 *
 * A still area (a rectangle or a polygon) holds a fixation when it holds the fixation's centroid. A moving area (a
 * video's, with key frames) is judged sample by sample: each of the fixation's gaze samples owns the time from half
 * way to the sample before to half way to the one after (the first and last half an interval beyond the fixation, so
 * n samples stand for n sample intervals, not the n - 1 between the first and the last), and that time is in the
 * area when the sample lies in the area's shape at the sample's own moment. So a fixation that follows a moving object (smooth
 * pursuit, which a velocity filter takes for a fixation) counts for as long as the gaze stayed on it, and one that
 * spans key frames is split where the shape left it. A moving area's fixation without its samples is judged by its
 * centroid against the shape every 1/30 s.
 */

/** An area on the content, in its pixels; on a video, optionally within a time window (s from the onset). */
export interface AreaOfInterest {
  id: string;
  /** The rectangle around it: the area itself when it has no `shape`. */
  x: number;
  y: number;
  width: number;
  height: number;
  shape?: AreaShape;
  /** A moving area's shapes at moments (s from the onset), in time order. */
  key_frames?: readonly AreaKeyFrame[];
  from?: number | null;
  to?: number | null;
}

/** A fixation with, for moving areas, its gaze samples (times on the fixation's clock). */
export interface TracedFixation extends Fixation {
  path?: { t: readonly number[]; x: readonly number[]; y: readonly number[] };
}

export interface AreaMetrics {
  id: string;
  /** Respondents given, and how many had at least one fixation in the area; their share. */
  respondents: number;
  looked: number;
  lookedShare: number;
  /** Of those who looked: mean seconds from the window's start (the onset) to the first fixation in the area. */
  timeToFirstFixation: number | null;
  /** Mean over all respondents: seconds of fixation in the area, and its share of their fixation time. */
  dwellTime: number;
  dwellShare: number;
  /** Mean over those who looked: visits after the first (a visit is a run of consecutive fixations in it). */
  revisits: number | null;
  /** Mean over all respondents: fixations in the area. */
  fixationCount: number;
}

/** A fixation's samples (each track sample from its start to its end), times moved by `-onset`. */
export function withPath(track: GazeTrack, fixation: Fixation, onset: number): TracedFixation {
  // The first sample at or after the start (fixations start and end on samples).
  let lo = 0;
  let hi = track.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((track.t[mid] as number) < fixation.start) lo = mid + 1;
    else hi = mid;
  }
  const t: number[] = [];
  const x: number[] = [];
  const y: number[] = [];
  for (let i = lo; i < track.length && (track.t[i] as number) <= fixation.end; i++) {
    t.push((track.t[i] as number) - onset);
    x.push(track.x[i] as number);
    y.push(track.y[i] as number);
  }
  return { ...fixation, start: fixation.start - onset, end: fixation.end - onset, path: { t, x, y } };
}

/** Step (s) at which a moving area is checked against a fixation's centroid when its samples are not known. */
const CENTROID_STEP_S = 1 / 30;

/**
 * The parts of a fixation, cut to [from, to], that are in the area: their total seconds and the moment the first
 * begins (null: none).
 */
export function timeInArea(area: AreaOfInterest, f: TracedFixation, from: number, to: number) {
  const start = Math.max(f.start, from);
  const end = Math.min(f.end, to);
  const shape = builtShape(area);
  if (end < start) return { seconds: 0, first: null };
  if (!area.key_frames?.length) {
    return shapeContains(shape, f.x, f.y) ? { seconds: end - start, first: start } : { seconds: 0, first: null };
  }
  const moving = { shape, key_frames: area.key_frames };
  let seconds = 0;
  let first: number | null = null;
  const own = (a: number, b: number, inside: boolean) => {
    const lo = Math.max(a, from);
    const hi = Math.min(b, to);
    if (!inside || hi <= lo) return;
    seconds += hi - lo;
    if (first === null || lo < first) first = lo;
  };
  const path = f.path;
  if (path?.t.length) {
    const n = path.t.length;
    // The edge samples own half a sample interval beyond the fixation, as the inner ones do on either side.
    const half = n > 1 ? ((path.t[n - 1] as number) - (path.t[0] as number)) / (n - 1) / 2 : 0;
    for (let i = 0; i < n; i++) {
      const ti = path.t[i] as number;
      const a = i === 0 ? ti - half : (ti + (path.t[i - 1] as number)) / 2;
      const b = i === n - 1 ? ti + half : (ti + (path.t[i + 1] as number)) / 2;
      own(a, b, shapeContains(shapeAt(moving, ti), path.x[i] as number, path.y[i] as number));
    }
  } else {
    for (let a = start; a < end; a += CENTROID_STEP_S) {
      const b = Math.min(end, a + CENTROID_STEP_S);
      own(a, b, shapeContains(shapeAt(moving, (a + b) / 2), f.x, f.y));
    }
  }
  return { seconds, first };
}

/**
 * Per area, over respondents' fixations (each respondent's in time order, times from the onset). An area with a
 * time window counts only the fixation time inside it, and times its first fixation from the window's start; a
 * fixation is in the area when some of its time is.
 */
export function areaMetrics(
  areas: readonly AreaOfInterest[],
  respondents: readonly (readonly TracedFixation[])[],
): AreaMetrics[] {
  const n = respondents.length;
  return areas.map((area) => {
    const from = area.from ?? 0;
    const to = area.to ?? Number.POSITIVE_INFINITY;
    let looked = 0;
    let firstSum = 0;
    let dwellSum = 0;
    let shareSum = 0;
    let revisitSum = 0;
    let countSum = 0;
    for (const all of respondents) {
      let total = 0;
      let dwell = 0;
      let visits = 0;
      let wasInside = false;
      let first: number | null = null;
      for (const f of all) {
        if (!(f.end > from && f.start < to)) continue;
        total += Math.min(f.end, to) - Math.max(f.start, from);
        const part = timeInArea(area, f, from, to);
        const isInside = part.first !== null;
        if (isInside) {
          dwell += part.seconds;
          countSum += 1;
          first ??= part.first;
          if (!wasInside) visits += 1;
        }
        wasInside = isInside;
      }
      dwellSum += dwell;
      shareSum += total > 0 ? Math.min(1, dwell / total) : 0;
      if (first !== null) {
        looked += 1;
        firstSum += first - from;
        revisitSum += visits - 1;
      }
    }
    return {
      id: area.id,
      respondents: n,
      looked,
      lookedShare: n ? looked / n : 0,
      timeToFirstFixation: looked ? firstSum / looked : null,
      dwellTime: n ? dwellSum / n : 0,
      dwellShare: n ? shareSum / n : 0,
      revisits: looked ? revisitSum / looked : null,
      fixationCount: n ? countSum / n : 0,
    };
  });
}

/** Website prototypes: how many of the clicks (screenshot pixels) fell in a still area. */
export function clicksIn(area: AreaOfInterest, clicks: readonly { x: number; y: number }[]): number {
  const shape = builtShape(area);
  return clicks.filter((c) => shapeContains(shape, c.x, c.y)).length;
}
