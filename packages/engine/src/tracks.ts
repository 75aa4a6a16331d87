/**
 * Multi-face mode: stable track ids for the people in a recording, and each person's per-second
 * curves and strongest moments. Pure functions of the per-frame data, so the session analysis can
 * call them on frames decoded earlier (or stored and decoded again for reprocessing).
 */
import { faceActionUnits } from './action-units.ts';
import { HEAD_TURN_LIMIT } from './face.ts';
import { FaceSignalSums, faceSignalColumns, faceSignals } from './face-signals.ts';
import { DEFAULT_SMOOTHING_SIGMA_SECONDS, engagement, smoothSeries, valence } from './metrics.ts';
import type { PerSecondSeries, PersonTrack } from './session-types.ts';
import {
  type Box,
  EXPRESSIONS,
  type Expression,
  type ExpressionScores,
  type FaceData,
  type FrameActionUnits,
  type FrameData,
  type HeadPose,
} from './types.ts';

export interface TrackerOptions {
  /** A person unseen for longer than this gets a new id when seen again. Default 1 s. */
  maxGapSeconds?: number;
  /**
   * How far a face's centre may move and still be the same person, in face sizes (√area):
   * `maxShift + maxSpeed · Δt` for Δt seconds since the track was last seen. Defaults 0.2 and 1 per
   * second: a cut to other people sitting nearly where the previous ones sat (measured: 0.46 face
   * sizes away on the face-api samples) starts new tracks, a head moving at webcam pace does not.
   */
  maxShift?: number;
  maxSpeed?: number;
  /** Largest change of face size (√area ratio) within one track. Default 1.5. */
  maxScale?: number;
}

export const DEFAULT_TRACKER_OPTIONS: Required<TrackerOptions> = {
  maxGapSeconds: 1,
  maxShift: 0.2,
  maxSpeed: 1,
  maxScale: 1.5,
};

interface LiveTrack {
  id: number;
  box: Box;
  lastTime: number;
}

export function iou(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}

/** Distance between the boxes' centres in units of the larger face's size (√area). */
function centreDistance(a: Box, b: Box): number {
  const dx = a.x + a.width / 2 - (b.x + b.width / 2);
  const dy = a.y + a.height / 2 - (b.y + b.height / 2);
  const size = Math.sqrt(Math.max(a.width * a.height, b.width * b.height, 1e-9));
  return Math.hypot(dx, dy) / size;
}

/**
 * Assigns track ids frame by frame: every face is paired greedily with the live track it fits best
 * (least `(1 − IoU) + centre distance`, among pairs whose centres are close enough for the time
 * elapsed and whose sizes are alike), each track and face at most once. A track lives on through gaps up to `maxGapSeconds` (a missed
 * detection, a head turned away); an unmatched face starts a new track. Ids start at 1.
 */
export class FaceTracker {
  private readonly options: Required<TrackerOptions>;
  private live: LiveTrack[] = [];
  private nextId = 1;

  constructor(options: TrackerOptions = {}) {
    this.options = { ...DEFAULT_TRACKER_OPTIONS, ...options };
  }

  /** Sets `track` on each face of the frame (the same objects) and returns the ids in face order. */
  assign(time: number, faces: FaceData[]): number[] {
    const { maxGapSeconds, maxShift, maxSpeed, maxScale } = this.options;
    this.live = this.live.filter((t) => time - t.lastTime <= maxGapSeconds + 1e-6);
    const pairs: { track: number; face: number; cost: number }[] = [];
    for (const [ti, track] of this.live.entries()) {
      for (const [fi, face] of faces.entries()) {
        const distance = centreDistance(track.box, face.box);
        if (distance > maxShift + maxSpeed * Math.max(0, time - track.lastTime)) continue;
        const scale = Math.sqrt(
          (face.box.width * face.box.height) / Math.max(track.box.width * track.box.height, 1e-9),
        );
        if (scale > maxScale || scale < 1 / maxScale) continue;
        pairs.push({ track: ti, face: fi, cost: 1 - iou(track.box, face.box) + distance });
      }
    }
    pairs.sort((a, b) => a.cost - b.cost);
    const ids: (number | undefined)[] = new Array(faces.length).fill(undefined);
    const usedTracks = new Set<number>();
    for (const pair of pairs) {
      if (usedTracks.has(pair.track) || ids[pair.face] !== undefined) continue;
      usedTracks.add(pair.track);
      const track = this.live[pair.track] as LiveTrack;
      ids[pair.face] = track.id;
    }
    for (const [fi, face] of faces.entries()) {
      let id = ids[fi];
      if (id === undefined) {
        id = this.nextId++;
        ids[fi] = id;
        this.live.push({ id, box: face.box, lastTime: time });
      } else {
        const track = this.live.find((t) => t.id === id) as LiveTrack;
        track.box = face.box;
        track.lastTime = time;
      }
      face.track = id;
    }
    return ids as number[];
  }
}

export interface PersonTrackOptions {
  /** Gaussian smoothing of each person's expressions, seconds. Default 0.3 (as the main series). */
  smoothingSigmaSeconds?: number;
  /** Tracks seen in fewer frames are left out (stray detections). Default 5. */
  minFrames?: number;
  /** Strongest moments kept per person. Default 3. */
  maxMoments?: number;
  /** Least distance between two moments of a person, seconds. Default 5. */
  momentSeparationSeconds?: number;
  /** Seconds subtracted from frame times for the series' `second` (the recording's start). Default 0. */
  originSeconds?: number;
}

const turned = (face: FaceData) =>
  Math.abs(face.pose.yaw) > HEAD_TURN_LIMIT.yaw || Math.abs(face.pose.pitch) > HEAD_TURN_LIMIT.pitch;

const mean = (values: number[]) => (values.length ? values.reduce((s, v) => s + v, 0) / values.length : null);

/**
 * Each tracked person's per-second curves (timeline 'recording', buckets from the person's first to
 * last second) and strongest engagement moments: the highest per-second engagement values, at least
 * `momentSeparationSeconds` apart, strongest first, with the strongest non-neutral expression of
 * that second. Per bucket: `frames` counts every sampled frame of that second; `goodFrames` those
 * where the person was seen with the head not turned away, behind the means; attention is
 * goodFrames / frames. Gaze is null: the calibration belongs to the respondent, not to each person.
 * Frames need `faces` with `track` set (multi-face `analyzeFrames`). `frames` is read once, in order, and no frame
 * is kept (a session passes frames materialised one at a time from its frame store).
 */
export function personTracks(frames: Iterable<FrameData>, options: PersonTrackOptions = {}): PersonTrack[] {
  const sigma = options.smoothingSigmaSeconds ?? DEFAULT_SMOOTHING_SIGMA_SECONDS;
  const minFrames = options.minFrames ?? 5;
  const maxMoments = options.maxMoments ?? 3;
  const separation = options.momentSeparationSeconds ?? 5;
  const origin = options.originSeconds ?? 0;
  const secondOf = (time: number) => Math.max(0, Math.floor(time - origin + 1e-9));

  // Frames per second of the recording, whoever is in them; each track's sightings: time, whether the face was
  // good, and its 7 expression scores (flat).
  const framesPerSecond = new Map<number, number>();
  const seen = new Map<
    number,
    {
      times: number[];
      good: boolean[];
      scores: number[];
      poses: HeadPose[];
      units: (FrameActionUnits | null)[];
    }
  >();
  for (const frame of frames) {
    framesPerSecond.set(secondOf(frame.time), (framesPerSecond.get(secondOf(frame.time)) ?? 0) + 1);
    for (const face of frame.faces ?? (frame.face ? [frame.face] : [])) {
      if (face.track === undefined) continue;
      let list = seen.get(face.track);
      if (!list) {
        list = { times: [], good: [], scores: [], poses: [], units: [] };
        seen.set(face.track, list);
      }
      const good = !turned(face) && EXPRESSIONS.every((e) => Number.isFinite(face.expressions[e]));
      list.times.push(frame.time);
      list.good.push(good);
      for (const e of EXPRESSIONS) list.scores.push(face.expressions[e]);
      list.poses.push(face.pose);
      list.units.push(good ? faceActionUnits(face) : null);
    }
  }

  const people: PersonTrack[] = [];
  for (const [track, { times, good, scores: raw, poses, units }] of [...seen.entries()].sort((a, b) => a[0] - b[0])) {
    if (times.length < minFrames) continue;
    const n = EXPRESSIONS.length;
    const smoothed = EXPRESSIONS.map((_, k) =>
      smoothSeries(
        times,
        times.map((_, i) => (good[i] ? (raw[i * n + k] as number) : null)),
        sigma,
      ),
    );
    const scores: (ExpressionScores | null)[] = times.map((_, i) => {
      if (!good[i]) return null;
      const out = {} as ExpressionScores;
      for (const [k, e] of EXPRESSIONS.entries()) {
        const v = smoothed[k]?.[i];
        if (typeof v !== 'number') return null;
        out[e] = v;
      }
      return out;
    });

    const first = secondOf(times[0] as number);
    const last = secondOf(times.at(-1) as number);
    const buckets = new Map<number, ExpressionScores[]>();
    // The person's face geometry, without a baseline (the calibration is the respondent's, not each person's).
    const signals = faceSignals({ times, poses, units, baseline: null, sigmaSeconds: sigma });
    const faceSums = new Map<number, FaceSignalSums>();
    for (const [i, s] of scores.entries()) {
      const second = secondOf(times[i] as number);
      let sums = faceSums.get(second);
      if (!sums) {
        sums = new FaceSignalSums();
        faceSums.set(second, sums);
      }
      sums.add(signals, i, s !== null, s);
      if (!s) continue;
      let list = buckets.get(second);
      if (!list) {
        list = [];
        buckets.set(second, list);
      }
      list.push(s);
    }
    const series = emptySeries();
    const seconds: FaceSignalSums[] = [];
    for (let second = first; second <= last; second++) {
      seconds.push(faceSums.get(second) ?? new FaceSignalSums());
      const list = buckets.get(second) ?? [];
      const all = framesPerSecond.get(second) ?? 0;
      series.item.push(0);
      series.step.push(0);
      series.second.push(second);
      series.frames.push(all);
      series.goodFrames.push(list.length);
      series.engagement.push(mean(list.map(engagement)));
      series.valence.push(mean(list.map(valence)));
      series.attention.push(all ? list.length / all : null);
      for (const e of EXPRESSIONS) series.expressions[e].push(mean(list.map((s) => s[e])));
      series.gazeX.push(null);
      series.gazeY.push(null);
    }
    Object.assign(series, faceSignalColumns(seconds));

    people.push({
      track,
      firstSeconds: times[0] as number,
      lastSeconds: times.at(-1) as number,
      frames: times.length,
      series,
      moments: strongestMoments(series, maxMoments, separation),
    });
  }
  return people;
}

function emptySeries(): PerSecondSeries {
  return {
    timeline: 'recording',
    item: [],
    step: [],
    second: [],
    frames: [],
    goodFrames: [],
    engagement: [],
    valence: [],
    attention: [],
    expressions: Object.fromEntries(EXPRESSIONS.map((e) => [e, []])) as unknown as Record<
      Expression,
      (number | null)[]
    >,
    gazeX: [],
    gazeY: [],
    ...faceSignalColumns([]),
  };
}

/** Highest engagement seconds, greedily, each at least `separation` seconds from those already taken. */
function strongestMoments(series: PerSecondSeries, count: number, separation: number): PersonTrack['moments'] {
  const candidates = series.second
    .map((second, i) => ({ second, i, engagement: series.engagement[i] }))
    .filter(
      (c): c is { second: number; i: number; engagement: number } =>
        typeof c.engagement === 'number' && c.engagement > 0,
    )
    .sort((a, b) => b.engagement - a.engagement || a.second - b.second);
  const moments: PersonTrack['moments'] = [];
  for (const c of candidates) {
    if (moments.length >= count) break;
    if (moments.some((m) => Math.abs(m.second - c.second) < separation)) continue;
    let expression: Expression = 'neutral';
    let best = -1;
    for (const e of EXPRESSIONS) {
      if (e === 'neutral') continue;
      const v = series.expressions[e][c.i] ?? 0;
      if (v > best) {
        best = v;
        expression = e;
      }
    }
    moments.push({ second: c.second, engagement: c.engagement, expression });
  }
  return moments;
}
