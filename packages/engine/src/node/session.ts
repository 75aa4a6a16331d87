/**
 * One recording of one research, as the worker runs it (design section 7): decode only the calibration and the
 * research windows of the session's files, fit gaze on the calibration, place every research frame on the
 * content's timeline, and return the summary, the per-second series and the per-frame data. Either a whole
 * `SessionResult` or a typed `EngineError`: never a half result.
 */
import { EngineError } from '../errors.ts';
import { encodeFrames, type FaceRow, type FrameRow, framesTable } from '../frames-codec.ts';
import { applyGaze, calibrationDots, calibrationSamples, fitGaze, predictGaze, splitCalibration } from '../gaze.ts';
import {
  attentionSeries,
  badFrameReason,
  DEFAULT_ALLOWED_BAD_FRAME_SHARE,
  DEFAULT_SMOOTHING_SIGMA_SECONDS,
  engagement,
  smoothExpressions,
  summarise,
  valence,
} from '../metrics.ts';
import { type Bucket, ContentTimeline, calibrationLog, type MsWindow, sessionWindows } from '../session-timeline.ts';
import type {
  CalibrationOutcome,
  ExclusionReason,
  PerSecondSeries,
  SessionProgress,
  SessionResult,
  SessionSummaryOut,
  SessionTask,
} from '../session-types.ts';
import { FaceTracker, personTracks } from '../tracks.ts';
import {
  EXPRESSIONS,
  type Expression,
  type ExpressionScores,
  type FrameData,
  type FrameGaze,
  type GazeResult,
} from '../types.ts';
import { ENGINE_VERSION } from '../version.ts';
import { analyzeFrames, DEFAULT_FPS, DEFAULT_SKIP_FRAMES, type Sampling, samplingFor } from './analyze.ts';
import { probeVideo, probeVideoEnd, type VideoInfo } from './ffmpeg.ts';
import { createHuman, type HumanLike } from './human.ts';

/** Events may run this far past the recording's end (upload and clock slack) before the log is inconsistent. */
export const EVENT_SLACK_MS = 10_000;
/** A research window longer than this many times the content (plus `TOO_LONG_SLACK_SECONDS`) is refused. */
export const TOO_LONG_FACTOR = 3;
export const TOO_LONG_SLACK_SECONDS = 60;
/** At most this many progress reports a second. */
const PROGRESS_INTERVAL_MS = 500;

export interface SessionOptions {
  signal?: AbortSignal;
  onProgress?: (progress: SessionProgress) => void;
  /** A loaded Human to reuse across sessions (the pool's worker keeps one). */
  human?: HumanLike;
}

export interface Source {
  file: string;
  offsetMs: number;
  info: VideoInfo;
  /** Seconds of the file, null when neither the container nor the packets say. */
  duration: number | null;
}

/** A decoded, analysed frame on the session clock. */
export interface SessionFrame {
  frame: FrameData;
  ms: number;
  source: Source;
}

export async function analyzeSession(task: SessionTask, options: SessionOptions = {}): Promise<SessionResult> {
  const { signal } = options;
  const canceled = () => new EngineError('canceled', 'The analysis was canceled');
  if (signal?.aborted) throw canceled();
  if (!Array.isArray(task?.sources) || task.sources.length === 0) {
    throw new EngineError('invalid_options', 'The task names no video files');
  }
  if (!Array.isArray(task.events)) throw new EngineError('invalid_event_log', 'The task has no event list');
  const warnings: string[] = [];
  const multiFace = task.multiFace ?? false;
  const fps = task.fps ?? DEFAULT_FPS;
  const allowedBadFrameShare = task.allowedBadFrameShare ?? DEFAULT_ALLOWED_BAD_FRAME_SHARE;
  const progress = throttledProgress(options.onProgress);
  progress({ stage: 'decoding', fraction: 0, frames: 0 });

  // Every file first: a broken one fails the session before any decoding.
  const sources: Source[] = [];
  for (const s of [...task.sources].sort((a, b) => a.offsetMs - b.offsetMs)) {
    if (!Number.isFinite(s.offsetMs) || s.offsetMs < 0) {
      throw new EngineError('invalid_options', `Bad offsetMs ${s.offsetMs} for ${s.file}`);
    }
    const info = await probeVideo(s.file);
    const duration = info.durationSeconds ?? (await probeVideoEnd(s.file, info, signal));
    sources.push({ file: s.file, offsetMs: s.offsetMs, info, duration });
    if (signal?.aborted) throw canceled();
  }
  const known = sources.every((s) => s.duration !== null);
  if (!known) warnings.push('The length of a recording file is unknown: event times cannot be checked against it.');
  const recordingEndMs = known ? Math.max(...sources.map((s) => s.offsetMs + (s.duration as number) * 1000)) : null;

  const windows = sessionWindows(task.events, task.research, recordingEndMs, warnings);
  checkWindows(task, windows.research, windows.calibration, recordingEndMs);

  // Decode only the two windows, per file.
  // A file that runs past the start of the next one (overlapping segments) yields to it, so no moment counts twice.
  const plan = sources.map((source, i) => ({
    source,
    ranges: fileRanges(
      source,
      [windows.calibration, windows.research].filter((w): w is MsWindow => w !== null),
      sources[i + 1]?.offsetMs,
    ),
  }));
  const researchCovered = sources.some(
    (source, i) => fileRanges(source, [windows.research], sources[i + 1]?.offsetMs).length > 0,
  );
  if (!researchCovered) {
    throw new EngineError('event_log_inconsistent', 'The research window lies outside every recording file');
  }

  const human = options.human ?? (await createHuman({ skipFrames: DEFAULT_SKIP_FRAMES }));
  const frames: SessionFrame[] = [];
  let sampling: Sampling | null = null;
  let decodedSeconds = 0;
  // Frames the windows hold at each file's own sampling rate (never above the file's rate): progress's 100%.
  const expected = Math.max(
    1,
    plan.reduce((sum, p) => {
      const seconds = p.ranges.reduce((s, r) => s + (r.end - r.start), 0);
      return sum + seconds * samplingFor(p.source.info, { fps }).fps;
    }, 0),
  );
  for (const { source, ranges } of plan) {
    if (ranges.length === 0) continue;
    const stream = analyzeFrames(source.file, {
      fps,
      human,
      info: source.info,
      multiFace,
      keepLandmarks: false,
      ranges,
      strict: true,
      ...(signal ? { signal } : {}),
      onWarning: (w) => warnings.push(`${source.file}: ${w}`),
    });
    let lastFileTime = Number.NEGATIVE_INFINITY;
    let sourceSampling: Sampling | null = null;
    let count = 0;
    try {
      let next = await stream.next();
      while (!next.done) {
        const frame = next.value;
        const fileTime = frame.time - source.info.startTime;
        lastFileTime = Math.max(lastFileTime, fileTime);
        const ms = source.offsetMs + fileTime * 1000;
        frames.push({ frame: { ...frame, time: ms / 1000 }, ms, source });
        count++;
        progress({ stage: 'analysing', fraction: Math.min(1, frames.length / expected), frames: frames.length });
        if (signal?.aborted) throw canceled();
        next = await stream.next();
      }
      sourceSampling = next.value.sampling;
    } finally {
      // Stops ffmpeg when we leave early (canceled, an error).
      await stream.return(undefined as never).catch(() => undefined);
    }
    if (signal?.aborted) throw canceled();
    sampling ??= sourceSampling;
    decodedSeconds += count / sourceSampling.fps;
    // ffmpeg ends a cut-off file quietly ("File ended prematurely"): frames stopping well short of the length
    // the container states means the file lost its end, and a session is not analysed from half a file.
    const wanted = Math.min(ranges.at(-1)?.end ?? 0, source.duration ?? 0);
    if (Number.isFinite(lastFileTime) && wanted - lastFileTime > 0.5 + 1 / sourceSampling.fps) {
      throw new EngineError(
        'decode_failed',
        `${source.file} is truncated: frames stop at ${lastFileTime.toFixed(1)} s of ${wanted.toFixed(1)} s`,
      );
    }
  }
  if (signal?.aborted) throw canceled();
  if (frames.length === 0) throw new EngineError('no_frames', 'No frame of the analysed windows could be decoded');
  frames.sort((a, b) => a.ms - b.ms);
  progress({ stage: 'summarising', fraction: 1, frames: frames.length });

  const research =
    windows.research.end === Number.POSITIVE_INFINITY
      ? { start: windows.research.start, end: (frames.at(-1)?.ms ?? 0) + 1 }
      : windows.research;
  const inResearch = frames.filter((f) => f.ms >= research.start && f.ms < research.end);
  const calFrames = windows.calibration
    ? frames.filter((f) => windows.calibration && f.ms >= windows.calibration.start && f.ms <= windows.calibration.end)
    : [];

  // Gaze: fitted on the calibration, applied to every analysed frame.
  const calibration = calibrate(task, windows.calibration, windows.screen, calFrames);
  const model = calibration.gaze?.status === 'calibrated' ? calibration.gaze.model : null;
  const allGaze = model
    ? applyGaze(
        model,
        frames.map((f) => f.frame),
      )
    : null;
  const gazeOf = new Map<SessionFrame, FrameGaze>();
  if (allGaze) for (const [i, f] of frames.entries()) gazeOf.set(f, allGaze[i] as FrameGaze);

  const timeline = new ContentTimeline(task.events, task.research, research, windows.screen);
  const researchFrames = inResearch.map((f) => f.frame);
  const researchGaze = allGaze ? inResearch.map((f) => gazeOf.get(f) as FrameGaze) : null;
  const quality = { multiFace };
  const summary = summarise(researchFrames, { multiFace, gaze: researchGaze, allowedBadFrameShare });

  // Per-frame placement, content coordinates and the frame table.
  const placed = inResearch.map((f) => timeline.bucket(f.ms));
  const content = inResearch.map((f) => {
    const point = gazeOf.get(f)?.point;
    return point ? timeline.contentPoint(f.ms, point) : null;
  });
  if (timeline.usedLetterbox) {
    warnings.push(
      'The event log has no content_rect for some content: gaze was mapped as if the content filled the screen, letterboxed to its aspect ratio.',
    );
  }
  const contentOf = new Map<SessionFrame, { item: number; x: number; y: number } | null>();
  for (const [i, f] of inResearch.entries()) contentOf.set(f, content[i] ?? null);

  const smoothed = smoothExpressions(researchFrames, DEFAULT_SMOOTHING_SIGMA_SECONDS, quality);
  const attention = attentionSeries(researchFrames, researchGaze);
  const series = buildSeries(
    timeline.timeline,
    inResearch.map((f, i) => ({
      bucket: placed[i] ?? null,
      good: badFrameReason(f.frame, quality) === null,
      scores: smoothed[i] ?? null,
      attention: attention[i] ?? 0,
      content: content[i] ?? null,
      item: content[i]?.item ?? -1,
    })),
    task.research?.items ?? [],
  );

  // Multi-face: stable tracks per person, and each person's curves over the research window.
  if (multiFace) assignTracks(frames, sampling?.fps ?? fps);
  const people = multiFace
    ? personTracks(
        inResearch.map((f) => ({ ...f.frame, time: f.ms / 1000 })),
        // People seen for at least a second of frames; stray detections are left out.
        { originSeconds: research.start / 1000, minFrames: Math.max(3, Math.round(sampling?.fps ?? fps)) },
      )
    : [];

  const rows: FrameRow[] = frames.map((f) => {
    const gaze = gazeOf.get(f)?.point ?? null;
    const point = contentOf.get(f) ?? null;
    const inWindow = f.ms >= research.start && f.ms < research.end;
    return {
      time: f.ms / 1000,
      faceCount: f.frame.faceCount,
      flags: f.frame.flags,
      bad: badFrameReason(f.frame, quality) !== null,
      face: f.frame.face,
      gaze,
      item: inWindow ? timeline.item(f.ms) : -1,
      content: point ? { x: point.x, y: point.y } : null,
    };
  });
  const faceRows: FaceRow[] | null = multiFace
    ? frames.flatMap((f, i) => (f.frame.faces ?? []).map((face) => ({ frame: i, track: face.track ?? 0, face })))
    : null;

  // Exclusion, most basic reason first.
  const faceFound = frames.some((f) => f.frame.face !== null && f.frame.faceCount > 0);
  const severalShare =
    researchFrames.length > 0 ? researchFrames.filter((f) => f.faceCount > 1).length / researchFrames.length : 0;
  let excludedReason: ExclusionReason | null = null;
  if (!faceFound) excludedReason = 'no_face';
  else if (!multiFace && severalShare > 0.5) excludedReason = 'several_faces';
  else if (summary.badFrameShare > allowedBadFrameShare) excludedReason = 'bad_frames';
  else if (task.gazeRequired && calibration.outcome.status !== 'calibrated') excludedReason = 'calibration_failed';

  if (signal?.aborted) throw canceled();
  const usedSampling = sampling ?? { fps, width: 0, height: 0 };
  return {
    engineVersion: ENGINE_VERSION,
    sampling: usedSampling,
    recordingSeconds: decodedSeconds,
    frames: encodeFrames(framesTable(rows, faceRows)),
    frameCount: frames.length,
    summary: {
      frames: summary.frames,
      badFrames: summary.badFrames,
      badFrameShare: summary.badFrameShare,
      faceFound,
      usable: excludedReason === null,
      excludedReason,
      calibration: calibration.outcome,
      screen: windows.screen,
      windowMs: { start: research.start, end: research.end },
      meanEngagement: summary.meanEngagement,
      meanValence: summary.meanValence,
      attentionShare: summary.attentionShare,
      people: multiFace ? people.length : faceFound ? 1 : 0,
      baseline: windows.calibration ? baselineOf(calFrames, quality) : null,
    },
    series,
    people,
    warnings,
  };
}

/** Event times past the recording, a window far longer than the content: the log does not fit the video. */
function checkWindows(
  task: SessionTask,
  research: MsWindow,
  calibration: MsWindow | null,
  recordingEndMs: number | null,
): void {
  if (recordingEndMs !== null) {
    const limit = recordingEndMs + EVENT_SLACK_MS;
    const times = [research.start, research.end, calibration?.start, calibration?.end].filter(
      (t): t is number => t !== undefined && Number.isFinite(t),
    );
    const late = times.find((t) => t > limit);
    if (late !== undefined) {
      throw new EngineError(
        'event_log_inconsistent',
        `An event at ${(late / 1000).toFixed(1)} s lies past the recording's end (${(recordingEndMs / 1000).toFixed(1)} s)`,
      );
    }
  }
  if (research.end <= research.start) {
    throw new EngineError('event_log_inconsistent', 'The research ends before it starts');
  }
  const content = task.research?.durationSeconds;
  const seconds = (research.end - research.start) / 1000;
  if (
    content &&
    content > 0 &&
    Number.isFinite(seconds) &&
    seconds > TOO_LONG_FACTOR * content + TOO_LONG_SLACK_SECONDS
  ) {
    throw new EngineError(
      'recording_too_long',
      `The research took ${seconds.toFixed(0)} s for ${content.toFixed(0)} s of content`,
    );
  }
}

/** The windows as decode ranges of one file (seconds from the file's start), merged where they touch. */
function fileRanges(source: Source, windows: MsWindow[], nextOffsetMs?: number): { start: number; end: number }[] {
  const length = Math.min(
    source.duration ?? Number.POSITIVE_INFINITY,
    nextOffsetMs === undefined ? Number.POSITIVE_INFINITY : (nextOffsetMs - source.offsetMs) / 1000,
  );
  const ranges = windows
    .map((w) => ({
      start: Math.max(0, (w.start - source.offsetMs) / 1000),
      end: Math.min(length, (w.end - source.offsetMs) / 1000),
    }))
    .filter((r) => r.end > r.start)
    .sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const r of ranges) {
    const last = merged.at(-1);
    if (last && r.start <= last.end + 0.5) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  // An open end (length unknown) decodes to the file's end.
  return merged.map((r) => ({ start: r.start, end: Number.isFinite(r.end) ? r.end : r.start + 24 * 3600 }));
}

function throttledProgress(report?: (p: SessionProgress) => void): (p: SessionProgress) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (p) => {
    if (!report) return;
    const now = performance.now();
    if (now - last < PROGRESS_INTERVAL_MS) return;
    last = now;
    report(p);
  };
}

function calibrate(
  task: SessionTask,
  window: MsWindow | null,
  screen: { width: number; height: number } | null,
  frames: SessionFrame[],
): { outcome: CalibrationOutcome; gaze: GazeResult | null } {
  const notRun = (reason: string): { outcome: CalibrationOutcome; gaze: null } => ({
    outcome: { status: 'not_run', accuracyPx: null, accuracyPercent: null, reason, validation: [] },
    gaze: null,
  });
  if (!window) return notRun('The event log has no calibration before the research.');
  if (!screen) return notRun('The event log has no screen size, so gaze cannot be placed.');
  const log = calibrationLog(task.events, window, screen);
  const gaze = fitGaze(
    frames.map((f) => f.frame),
    log,
  );
  // The validation dots with the mean gaze measured on each, for the dot test's drawing: the log's validation
  // dots, or the positions fitGaze held out when the log marks none (same samples as its accuracy figure).
  const samples = calibrationSamples(
    frames.map((f) => f.frame),
    log,
  );
  const split = splitCalibration(samples, { validationFromLog: calibrationDots(log).some((d) => d.validation) });
  const measured = new Map<string, { x: number; y: number; n: number }>();
  if (gaze.status === 'calibrated' && split.ok) {
    for (const sample of split.validation) {
      const point = predictGaze(gaze.model, sample.features);
      const key = sample.group;
      const acc = measured.get(key) ?? { x: 0, y: 0, n: 0 };
      acc.x += point.x;
      acc.y += point.y;
      acc.n++;
      measured.set(key, acc);
    }
  }
  const logged = calibrationDots(log).filter((d) => d.validation);
  const targets: { x: number; y: number; group: string }[] =
    logged.length > 0
      ? [...new Map(logged.map((d) => [d.group, { x: d.x, y: d.y, group: d.group }])).values()]
      : split.ok
        ? split.validationPoints.map((p, i) => ({ ...p, group: split.validationPositions[i] ?? '' }))
        : [];
  const validation: CalibrationOutcome['validation'] = targets.map(({ x, y, group }) => {
    const m = measured.get(group);
    return { x, y, gazeX: m ? m.x / m.n : null, gazeY: m ? m.y / m.n : null };
  });
  if (gaze.status === 'calibrated') {
    return {
      outcome: {
        status: 'calibrated',
        accuracyPx: gaze.accuracyPx,
        accuracyPercent: gaze.accuracyPercentOfDiagonal,
        reason: null,
        validation,
      },
      gaze,
    };
  }
  return {
    outcome: { status: 'calibration_failed', accuracyPx: null, accuracyPercent: null, reason: gaze.reason, validation },
    gaze,
  };
}

/** Mean engagement and valence over the good frames of the calibration (summarise's means). */
function baselineOf(frames: SessionFrame[], quality: { multiFace: boolean }): SessionSummaryOut['baseline'] {
  const s = summarise(
    frames.map((f) => f.frame),
    quality,
  );
  return { frames: s.expressionFrames, engagement: s.meanEngagement, valence: s.meanValence };
}

interface PlacedFrame {
  bucket: Bucket | null;
  good: boolean;
  scores: ExpressionScores | null;
  attention: number;
  content: { item: number; x: number; y: number } | null;
  item: number;
}

/**
 * Per-second means. Expressions, engagement and valence: over the good frames (smoothed scores); attention:
 * over every placed frame (a bad frame counts as not attending, as in the summary's attention share); gaze: over
 * good frames whose gaze falls on the item, in its natural pixels.
 */
export function buildSeries(
  timeline: PerSecondSeries['timeline'],
  frames: PlacedFrame[],
  items: { width: number; height: number }[],
): PerSecondSeries {
  interface Acc {
    bucket: Bucket;
    frames: number;
    good: number;
    scored: number;
    expressions: Record<Expression, number>;
    engagement: number;
    valence: number;
    attention: number;
    gazeN: number;
    gazeX: number;
    gazeY: number;
  }
  const buckets = new Map<string, Acc>();
  for (const f of frames) {
    if (!f.bucket) continue;
    const key = `${f.bucket.item}|${f.bucket.step}|${f.bucket.second}`;
    let acc = buckets.get(key);
    if (!acc) {
      acc = {
        bucket: f.bucket,
        frames: 0,
        good: 0,
        scored: 0,
        expressions: Object.fromEntries(EXPRESSIONS.map((e) => [e, 0])) as Record<Expression, number>,
        engagement: 0,
        valence: 0,
        attention: 0,
        gazeN: 0,
        gazeX: 0,
        gazeY: 0,
      };
      buckets.set(key, acc);
    }
    acc.frames++;
    acc.attention += f.attention;
    if (!f.good) continue;
    acc.good++;
    if (f.scores) {
      acc.scored++;
      for (const e of EXPRESSIONS) acc.expressions[e] += f.scores[e];
      acc.engagement += engagement(f.scores);
      acc.valence += valence(f.scores);
    }
    const size = f.content ? items[f.content.item] : undefined;
    if (
      f.content &&
      size &&
      f.content.x >= 0 &&
      f.content.x <= size.width &&
      f.content.y >= 0 &&
      f.content.y <= size.height
    ) {
      acc.gazeN++;
      acc.gazeX += f.content.x;
      acc.gazeY += f.content.y;
    }
  }
  const sorted = [...buckets.values()].sort(
    (a, b) => a.bucket.item - b.bucket.item || a.bucket.step - b.bucket.step || a.bucket.second - b.bucket.second,
  );
  const per = (n: (a: Acc) => number, d: (a: Acc) => number) => sorted.map((a) => (d(a) > 0 ? n(a) / d(a) : null));
  return {
    timeline,
    item: sorted.map((a) => a.bucket.item),
    step: sorted.map((a) => a.bucket.step),
    second: sorted.map((a) => a.bucket.second),
    frames: sorted.map((a) => a.frames),
    goodFrames: sorted.map((a) => a.good),
    engagement: per(
      (a) => a.engagement,
      (a) => a.scored,
    ),
    valence: per(
      (a) => a.valence,
      (a) => a.scored,
    ),
    attention: per(
      (a) => a.attention,
      (a) => a.frames,
    ),
    expressions: Object.fromEntries(
      EXPRESSIONS.map((e) => [
        e,
        per(
          (a) => a.expressions[e],
          (a) => a.scored,
        ),
      ]),
    ) as Record<Expression, (number | null)[]>,
    gazeX: per(
      (a) => a.gazeX,
      (a) => a.gazeN,
    ),
    gazeY: per(
      (a) => a.gazeY,
      (a) => a.gazeN,
    ),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Multi-face tracking

/**
 * Multi-face: one tracker over the analysed frames in time order, on a clock that closes the stretches not
 * decoded (between the calibration and the research window, between segment files): a person keeps their id
 * across them, while a person missing from frames that were decoded still loses it after the tracker's gap.
 * Sets `track` on every face (the main face is one of them).
 */
export function assignTracks(frames: SessionFrame[], fps: number): void {
  const tracker = new FaceTracker();
  const step = 2 / fps;
  let clock = 0;
  let last: number | null = null;
  for (const f of frames) {
    const t = f.ms / 1000;
    if (last !== null) clock += Math.min(Math.max(0, t - last), step);
    last = t;
    tracker.assign(clock, f.frame.faces ?? (f.frame.face ? [f.frame.face] : []));
  }
}
