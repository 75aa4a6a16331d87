/**
 * The second half of a session's analysis (design section 7), shared by the two ways frames arrive: decoded from the
 * recording's video files (`analyzeSession`, session.ts) and uploaded as readings by the respondent's browser in
 * privacy mode (`analyzeReadings`, session-readings.ts, decision 063). Frames go in through `SessionFrames` on the
 * session clock; `finishSession` fits gaze on the calibration, corrects drift, places every research frame on the
 * content's timeline and returns the summary, the per-second series and the frame table. Nothing here decodes video
 * or runs a face model.
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
import { ContentTimeline, type MsWindow, type SessionWindows } from '../session-timeline.ts';
import type { ExclusionReason, SessionProgress, SessionResult, SessionTask } from '../session-types.ts';
import { personTracks } from '../tracks.ts';
import type { ExpressionScores, FrameActionUnits, FrameData, HeadPose } from '../types.ts';
import { ENGINE_VERSION } from '../version.ts';
import { DEFAULT_FPS } from './analyze.ts';
import type { HumanLike } from './human.ts';
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

/** At most this many progress reports a second. */
const PROGRESS_INTERVAL_MS = 500;
/** Frames materialised at a time by the passes after the frames are in. */
const BLOCK_FRAMES = 1024;

export interface SessionOptions {
  signal?: AbortSignal;
  /** Frames materialised at a time after decoding (default 1024); the results do not depend on it. */
  blockFrames?: number;
  onProgress?: (progress: SessionProgress) => void;
  /** A loaded Human to reuse across sessions (the pool's worker keeps one); the readings path runs none. */
  human?: HumanLike;
}

/** The session's settings from its task, with their defaults. */
export interface SessionSettings {
  multiFace: boolean;
  fps: number;
  gazeFps: number;
  allowedBadFrameShare: number;
}

export function sessionSettings(task: Omit<SessionTask, 'sources'>): SessionSettings {
  if (!Array.isArray(task.events)) throw new EngineError('invalid_event_log', 'The task has no event list');
  return {
    multiFace: task.multiFace ?? false,
    fps: task.fps ?? DEFAULT_FPS,
    gazeFps: task.gazeFps ?? DEFAULT_GAZE_FPS,
    allowedBadFrameShare: task.allowedBadFrameShare ?? DEFAULT_ALLOWED_BAD_FRAME_SHARE,
  };
}

export const canceledError = () => new EngineError('canceled', 'The analysis was canceled');

/**
 * Reports at most one progress a `PROGRESS_INTERVAL_MS` within a stage; a new stage is always reported, so that the
 * last report (summarising, 100 %) is never dropped because the analysis ended soon after the one before.
 */
export function throttledProgress(report?: (p: SessionProgress) => void): (p: SessionProgress) => void {
  let last = Number.NEGATIVE_INFINITY;
  let stage: SessionProgress['stage'] | null = null;
  return (p) => {
    if (!report) return;
    const now = performance.now();
    if (p.stage === stage && now - last < PROGRESS_INTERVAL_MS) return;
    last = now;
    stage = p.stage;
    report(p);
  };
}

/**
 * Every analysed frame of a session as it arrives, on the session clock: the full frames as columns (the session's
 * memory grows ~150 bytes a frame, see FrameStore), and for one face the eyes (blinks), the light frames' gaze
 * readings and the iris sizes (distance) of full and light frames alike.
 */
export class SessionFrames {
  readonly store: FrameStore;
  /** One face: its eyes read at the recording's rate up to `gazeFps` too (light frames between the full ones). */
  readonly eyes: EyeSeries | null;
  /** …and its gaze: the light frames' eye features and head pose join the calibration and the gaze median. */
  readonly lightGaze: LightGaze | null;
  /** The main face's iris diameter in every good frame, full and light, for the distance (decision 043). */
  readonly irisSizes: (number | null)[] = [];
  private readonly quality: { multiFace: boolean };

  constructor(multiFace: boolean, calibration: MsWindow | null) {
    this.quality = { multiFace };
    this.store = new FrameStore({ multiFace });
    this.eyes = multiFace ? null : new EyeSeries();
    this.lightGaze = multiFace ? null : new LightGaze(calibration);
  }

  private iris(f: FrameData): number | null {
    return badFrameReason(f, this.quality) === null ? (f.face?.irisPx ?? null) : null;
  }

  /** A full frame at `ms` on the session clock. */
  full(frame: FrameData, ms: number): void {
    this.store.push(frame, ms);
    this.eyes?.push(frame, ms, this.quality);
    this.irisSizes.push(this.iris(frame));
  }

  /** A light frame at `ms` (one face only). */
  light(frame: FrameData, ms: number): void {
    this.eyes?.push(frame, ms, this.quality);
    this.lightGaze?.push(frame, ms);
    this.irisSizes.push(this.iris(frame));
  }
}

/** What the first half hands over. */
export interface CollectedSession {
  task: Omit<SessionTask, 'sources'>;
  settings: SessionSettings;
  windows: SessionWindows;
  frames: SessionFrames;
  /** The first source's sampling; null when none was analysed. */
  sampling: { fps: number; width: number; height: number } | null;
  /** The result's `recordingSeconds`. */
  recordingSeconds: number;
  warnings: string[];
}

export function finishSession(
  input: CollectedSession,
  options: { signal?: AbortSignal; blockFrames?: number; progress: (p: SessionProgress) => void },
): SessionResult {
  const { task, windows, warnings, sampling } = input;
  const { multiFace, fps, allowedBadFrameShare } = input.settings;
  const { store, eyes, lightGaze, irisSizes } = input.frames;
  const { signal, progress } = options;
  const quality = { multiFace };
  if (signal?.aborted) throw canceledError();
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
    if (signal?.aborted) throw canceledError();
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

  if (signal?.aborted) throw canceledError();
  const usedSampling = sampling ?? { fps, width: 0, height: 0 };
  return {
    engineVersion: ENGINE_VERSION,
    sampling: usedSampling,
    recordingSeconds: input.recordingSeconds,
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
