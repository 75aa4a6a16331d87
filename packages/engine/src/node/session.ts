/**
 * One recording of one research, as the worker runs it (design section 7): decode only the calibration and the
 * research windows of the session's files, fit gaze on the calibration, place every research frame on the
 * content's timeline, and return the summary, the per-second series and the per-frame data. Either a whole
 * `SessionResult` or a typed `EngineError`: never a half result.
 */
import { type actionUnitBaseline, faceActionUnits, restingFaceOf } from '../action-units.ts';
import { EngineError } from '../errors.ts';
import { type FaceSignals, faceSignals, frameSmile } from '../face-signals.ts';
import { FrameStore } from '../frame-store.ts';
import { emptyFramesTable, encodeFrames, putFaceRow, putFrameRow, putGazeRow } from '../frames-codec.ts';
import { DEFAULT_GAZE_WINDOW_MS, gazeTracks } from '../gaze.ts';
import { distanceFromIris } from '../iris-distance.ts';
import {
  attention,
  badFrameReason,
  DEFAULT_ALLOWED_BAD_FRAME_SHARE,
  DEFAULT_SMOOTHING_SIGMA_SECONDS,
  SummaryAccumulator,
  smoothExpressions,
  summarise,
} from '../metrics.ts';
import { headSpeed } from '../motion.ts';
import { ContentTimeline, type MsWindow, sessionWindows } from '../session-timeline.ts';
import type { ExclusionReason, SessionProgress, SessionResult, SessionTask } from '../session-types.ts';
import { personTracks } from '../tracks.ts';
import type { ExpressionScores, FrameActionUnits, FrameData, HeadPose } from '../types.ts';
import { ENGINE_VERSION } from '../version.ts';
import { analyzeFrames, DEFAULT_FPS, DEFAULT_SKIP_FRAMES, type Sampling, samplingFor } from './analyze.ts';
import { probeVideo, probeVideoEnd } from './ffmpeg.ts';
import { createHuman, type HumanLike } from './human.ts';
import { calibrate } from './session-calibration.ts';
import { EyeSeries, researchEyes } from './session-eyes.ts';
import {
  calibrationFrames,
  DEFAULT_GAZE_FPS,
  gazeTrackRows,
  LightGaze,
  samplesPerSecond,
  withDrift,
} from './session-gaze.ts';
import { SeriesAccumulator } from './session-series.ts';
import { trackFaces } from './session-tracks.ts';
import { checkWindows, fileRanges, type Source } from './session-windows.ts';

export { buildSeries, SeriesAccumulator } from './session-series.ts';
export { assignTracks } from './session-tracks.ts';
export type { Source } from './session-windows.ts';

/** At most this many progress reports a second. */
const PROGRESS_INTERVAL_MS = 500;
/** Frames materialised at a time by the passes after decoding. */
const BLOCK_FRAMES = 1024;

export interface SessionOptions {
  signal?: AbortSignal;
  /** Frames materialised at a time after decoding (default 1024); the results do not depend on it. */
  blockFrames?: number;
  onProgress?: (progress: SessionProgress) => void;
  /** A loaded Human to reuse across sessions (the pool's worker keeps one). */
  human?: HumanLike;
}

/** A decoded, analysed frame on the session clock (`assignTracks`' input). */
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
  const gazeFps = task.gazeFps ?? DEFAULT_GAZE_FPS;
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
  // Every analysed frame, as columns: the session's memory grows ~150 bytes a frame (see FrameStore).
  const store = new FrameStore({ multiFace });
  const quality = { multiFace };
  // One face: its eyes read at the recording's rate up to `gazeFps` too (light frames between the full ones), for
  // blinks…
  const eyes = multiFace ? null : new EyeSeries();
  // …and its gaze: the light frames' eye features and head pose join the calibration and the gaze median.
  const lightGaze = multiFace ? null : new LightGaze(windows.calibration);
  // The main face's iris diameter in every good frame, full and light, for the distance (decision 043).
  const irisSizes: (number | null)[] = [];
  const irisOf = (f: FrameData) => (badFrameReason(f, quality) === null ? (f.face?.irisPx ?? null) : null);
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
      ...(eyes
        ? {
            lightFrames: {
              fps: gazeFps,
              onFrame: (f: FrameData) => {
                const ms = source.offsetMs + (f.time - source.info.startTime) * 1000;
                eyes.push(f, ms, quality);
                lightGaze?.push(f, ms);
                irisSizes.push(irisOf(f));
              },
            },
          }
        : {}),
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
        store.push(frame, ms);
        eyes?.push(frame, ms, quality);
        irisSizes.push(irisOf(frame));
        count++;
        progress({ stage: 'analysing', fraction: Math.min(1, store.length / expected), frames: store.length });
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
  if (store.length === 0) throw new EngineError('no_frames', 'No frame of the analysed windows could be decoded');
  store.sortByTime();
  const n = store.length;
  progress({ stage: 'summarising', fraction: 1, frames: n });

  const research =
    windows.research.end === Number.POSITIVE_INFINITY
      ? { start: windows.research.start, end: store.msAt(n - 1) + 1 }
      : windows.research;
  // Frames are in time order, so each window is a run of them: research [r0, r1), calibration [c0, c1).
  const r0 = store.firstAtOrAfter(research.start);
  const r1 = Math.max(r0, store.firstAtOrAfter(research.end));
  const calFrames = windows.calibration
    ? store.frames(store.firstAtOrAfter(windows.calibration.start), store.firstAfter(windows.calibration.end))
    : [];

  // Gaze: fitted on the calibration's frames, light ones too (decision 040), applied to every analysed frame.
  const calibration = calibrate(task, windows.calibration, windows.screen, calibrationFrames(calFrames, lightGaze));
  const model = calibration.gaze?.status === 'calibrated' ? calibration.gaze.model : null;
  // Every frame's gaze point, full and light, the median of the points within ±200 ms on the session clock
  // (`gazeTracks`, decision 032).
  const tracks = model
    ? gazeTracks(
        model,
        n,
        (i) => ({ ...store.frame(i), time: store.msAt(i) / 1000 }),
        DEFAULT_GAZE_WINDOW_MS,
        lightGaze?.readings() ?? null,
      )
    : null;
  // Drift checkpoints in the research window correct its gaze (decision 053).
  const drifted =
    tracks && windows.calibration && windows.screen
      ? withDrift(
          tracks,
          task.events,
          windows.calibration.end,
          research,
          windows.screen,
          task.correctDrift ?? true,
          calibration.outcome.accuracyPx,
        )
      : null;
  const gazes = drifted?.frames ?? tracks?.frames ?? null;
  // Multi-face: stable tracks per person over every analysed frame, before anything reads the tracks.
  if (multiFace) {
    trackFaces(
      n,
      (i) => store.msAt(i),
      (i) => store.frame(i),
      sampling?.fps ?? fps,
      (i, f) => store.setTracks(i, f),
    );
  }

  // The face's geometry over the research window (action units against the calibration's resting face, head motion,
  // blinks, distraction): a pass over the window's poses and action units, which are small next to the frames.
  const restingFace = windows.calibration ? restingFaceOf(calFrames, quality) : null;
  const signals = researchSignals(store, r0, r1, quality, restingFace, eyes, research);
  const summarised = new SummaryAccumulator({ multiFace, allowedBadFrameShare });
  const timeline = new ContentTimeline(task.events, task.research, research, windows.screen);
  const series = new SeriesAccumulator(timeline.timeline, task.research?.items ?? []);
  // The gaze track: every analysed frame's gaze, at the recording's rate up to `gazeFps` (decision 049).
  const gazeRows = drifted ? gazeTrackRows(drifted.frames, drifted.between, research, timeline) : null;
  const table = emptyFramesTable(n, multiFace ? store.faceRows : null, gazeRows?.length ?? null);
  for (const [i, row] of (gazeRows ?? []).entries()) putGazeRow(table, i, row);
  let faceRow = 0;
  let faceFound = false;
  let several = 0;
  // One pass over the frames, a block at a time: gaze, content placement, summary, per-second series and the frame
  // table. Smoothing reads the research frames within the kernel's reach of the block (3σ, plus a second to spare),
  // which gives each frame the same sum, in the same order, as smoothing the whole window.
  const reachMs = 3 * DEFAULT_SMOOTHING_SIGMA_SECONDS * 1000 + 1000;
  const block = Math.max(1, Math.floor(options.blockFrames ?? BLOCK_FRAMES));
  for (let a = 0; a < n; a += block) {
    if (signal?.aborted) throw canceled();
    const b = Math.min(n, a + block);
    const s0 = Math.max(a, r0);
    const s1 = Math.min(b, r1);
    let from = 0;
    let near: FrameData[] = [];
    let smoothed: (ExpressionScores | null)[] = [];
    if (s1 > s0) {
      from = Math.max(r0, store.firstAtOrAfter(store.msAt(s0) - reachMs));
      near = store.frames(from, Math.min(r1, store.firstAfter(store.msAt(s1 - 1) + reachMs)));
      smoothed = smoothExpressions(
        near,
        DEFAULT_SMOOTHING_SIGMA_SECONDS,
        quality,
        (j) => signals.fast[from + j - r0] === true,
      );
    }
    for (let i = a; i < b; i++) {
      const inWindow = i >= r0 && i < r1;
      const frame = (inWindow ? near[i - from] : undefined) ?? store.frame(i);
      const ms = store.msAt(i);
      const gaze = gazes?.[i] ?? null;
      const bad = badFrameReason(frame, quality) !== null;
      if (frame.face !== null && frame.faceCount > 0) faceFound = true;
      let content: { item: number; x: number; y: number } | null = null;
      if (inWindow) {
        const distraction = signals.distraction[i - r0] ?? null;
        summarised.add(frame, gaze, distraction);
        if (frame.faceCount > 1) several++;
        content = gaze?.point ? timeline.contentPoint(ms, gaze.point) : null;
        series.add({
          bucket: timeline.bucket(ms),
          good: !bad,
          scores: smoothed[i - from] ?? null,
          attention: attention(frame, gaze, distraction),
          content,
          item: content?.item ?? -1,
          signals: { of: signals, k: i - r0 },
        });
      }
      putFrameRow(table, i, {
        time: ms / 1000,
        faceCount: frame.faceCount,
        flags: frame.flags,
        bad,
        face: frame.face,
        smile: inWindow && !bad ? frameSmile(signals, i - r0, smoothed[i - from] ?? null) : null,
        gaze: gaze?.point ?? null,
        item: inWindow ? timeline.item(ms) : -1,
        content: content ? { x: content.x, y: content.y } : null,
      });
      if (multiFace) {
        for (const face of frame.faces ?? []) putFaceRow(table, faceRow++, { frame: i, track: face.track ?? 0, face });
      }
    }
  }
  if (timeline.usedLetterbox) {
    warnings.push(
      'The event log has no content_rect for some content: gaze was mapped as if the content filled the screen, letterboxed to its aspect ratio.',
    );
  }
  const summary = summarised.result();

  // Multi-face: each person's curves over the research window.
  const people = multiFace
    ? personTracks(
        store.iterate(r0, r1),
        // People seen for at least a second of frames; stray detections are left out.
        { originSeconds: research.start / 1000, minFrames: Math.max(3, Math.round(sampling?.fps ?? fps)) },
      )
    : [];

  // Exclusion, most basic reason first.
  const severalShare = r1 > r0 ? several / (r1 - r0) : 0;
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
    frames: encodeFrames(table),
    frameCount: n,
    summary: {
      frames: summary.frames,
      badFrames: summary.badFrames,
      badFrameShare: summary.badFrameShare,
      faceFound,
      usable: excludedReason === null,
      excludedReason,
      calibration: calibration.outcome,
      distance: distanceFromIris(irisSizes, usedSampling.width),
      gazeSamplesPerSecond: gazeRows ? samplesPerSecond(gazeRows, research) : null,
      drift: drifted?.drift ?? null,
      screen: windows.screen,
      windowMs: { start: research.start, end: research.end },
      meanEngagement: summary.meanEngagement,
      meanValence: summary.meanValence,
      attentionShare: summary.attentionShare,
      people: multiFace ? people.length : faceFound ? 1 : 0,
      baseline: windows.calibration ? { ...baselineOf(calFrames, quality), actionUnits: restingFace } : null,
      motion: {
        blinksPerMinute: signals.blinksPerMinute,
        headDegreesPerSecond: headSpeed(signals.steps),
        distractedShare: r1 > r0 ? signals.distraction.filter((d) => d !== null).length / (r1 - r0) : null,
      },
    },
    series: series.result(),
    people,
    warnings,
  };
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

/** Mean engagement and valence over the good frames of the calibration (summarise's means). */
function baselineOf(frames: FrameData[], quality: { multiFace: boolean }) {
  const s = summarise(frames, quality);
  return { frames: s.expressionFrames, engagement: s.meanEngagement, valence: s.meanValence };
}

/**
 * `faceSignals` of the main face over frames [r0, r1) of the store; action units of good frames only. With the eye
 * series (one face), blinks and eyes-closed distraction come from it, at the recording's rate (`researchEyes`).
 */
function researchSignals(
  store: FrameStore,
  r0: number,
  r1: number,
  quality: { multiFace: boolean },
  baseline: ReturnType<typeof actionUnitBaseline>,
  eyes: EyeSeries | null,
  window: MsWindow,
): FaceSignals {
  const times: number[] = [];
  const poses: (HeadPose | null)[] = [];
  const units: (FrameActionUnits | null)[] = [];
  for (let i = r0; i < r1; i++) {
    const frame = store.frame(i);
    times.push(store.msAt(i) / 1000);
    poses.push(frame.face?.pose ?? null);
    units.push(frame.face && badFrameReason(frame, quality) === null ? faceActionUnits(frame.face) : null);
  }
  const signals = faceSignals({ times, poses, units, baseline });
  if (!eyes) return signals;
  const fine = researchEyes(
    eyes.sorted(),
    window.start,
    window.end,
    times.map((t) => t * 1000),
    poses,
  );
  return {
    ...signals,
    blinkStarts: fine.blinkStarts,
    distraction: fine.distraction,
    blinksPerMinute: fine.blinksPerMinute,
  };
}
