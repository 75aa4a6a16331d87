/**
 * The engine's session analysis, as the worker asks for it and gets it back (design section 7):
 * one task names the recording's files on the session clock, the respondent's event log and the
 * research to analyse; one result carries everything the server stores. The task and the result
 * cross a process boundary (the engine pool), so both are plain data: no functions, no classes.
 */
import type { ActionUnitBaseline } from './action-units.ts';
import type { FaceSignalColumns } from './face-signals.ts';
import type { DriftCheckpoint } from './gaze-drift.ts';
import type { DistanceEstimate } from './iris-distance.ts';
import type { Expression } from './types.ts';

/** One respondent event (the `/r` event log, `respondentEventSchema` of the contracts): ms on the session clock. */
export interface SessionEvent {
  type: string;
  t: number;
  [key: string]: unknown;
}

/** A video file of the recording; its first frame is `offsetMs` into the session clock (a segment). */
export interface SessionSource {
  file: string;
  offsetMs: number;
}

export const CONTENT_KINDS = ['video', 'pictures', 'shelf', 'site', 'contentless'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

/** A content item's natural size: the video frame, picture i, shelf image i, task i's screenshot. */
export interface ContentItemSize {
  width: number;
  height: number;
}

export interface ResearchTarget {
  /** The `campaign_id` of the research's `research_start` / `research_end` events. */
  researchId: string;
  kind: ContentKind;
  /** Natural sizes by item index (video: one item). Gaze is mapped into these coordinates. */
  items: ContentItemSize[];
  /** The content's own length (video, contentless recording length); null when open-ended. */
  durationSeconds: number | null;
}

export interface SessionTask {
  sources: SessionSource[];
  events: SessionEvent[];
  /** The research whose window is analysed (plus the calibration before it); null: the whole recording. */
  research: ResearchTarget | null;
  /** Sampling rate of the full frames (face, expressions, quality), default 10. */
  fps?: number;
  /**
   * One face: the rate its eyes and gaze are read at, up to the recording's own (light frames between the full ones,
   * decision 049), default `DEFAULT_GAZE_FPS` (30). At or below `fps`: the full frames' alone.
   */
  gazeFps?: number;
  /** Every face tracked with a stable track id; several faces are not bad frames. */
  multiFace?: boolean;
  /** Default 0.25 (the research's badFramesPercent / 100). */
  allowedBadFrameShare?: number;
  /** Calibration failing excludes the session (gaze researches: pictures, shelf, site). */
  gazeRequired?: boolean;
  /** Drift checkpoints in the research window correct its gaze (default true; decision 053). */
  correctDrift?: boolean;
}

/** What a session's drift checkpoints measured (`gaze-drift.ts`). */
export interface SessionDrift {
  checkpoints: DriftCheckpoint[];
  /** Mean and largest offset of the checkpoints used, screen CSS px, and the mean as % of the screen's diagonal. */
  meanPx: number | null;
  maxPx: number | null;
  meanPercent: number | null;
  /** Whether the research window's gaze was corrected by them. */
  corrected: boolean;
}

/** Why a usable recording was still left out of reports and quotas. */
export const EXCLUSION_REASONS = ['no_face', 'bad_frames', 'calibration_failed', 'several_faces'] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

export interface CalibrationOutcome {
  status: 'calibrated' | 'calibration_failed' | 'not_run';
  accuracyPx: number | null;
  /** Of the screen diagonal. */
  accuracyPercent: number | null;
  reason: string | null;
  /** Validation dots (screen CSS px) with the mean gaze measured on each: what /dot-test draws. */
  validation: { x: number; y: number; gazeX: number | null; gazeY: number | null }[];
}

export interface SessionSummaryOut {
  frames: number;
  badFrames: number;
  badFrameShare: number;
  /** A face was seen in at least one analysed frame. */
  faceFound: boolean;
  usable: boolean;
  excludedReason: ExclusionReason | null;
  calibration: CalibrationOutcome;
  /**
   * The respondent's distance to the camera from the iris's size over the good frames of the calibration and research
   * windows (`distanceFromIris`, decision 043); null with too few measured frames. An estimate, under stated assumptions.
   */
  distance?: DistanceEstimate | null;
  /**
   * Gaze samples a second over the research window (the gaze track's rows in it, decision 049): the recording's rate
   * up to the task's `gazeFps`, less the frames a slower camera repeated; null without gaze.
   */
  gazeSamplesPerSecond?: number | null;
  /** The drift checkpoints in the research window and what they measured (decision 053); null without one. */
  drift?: SessionDrift | null;
  /** From the event log's `screen` event. */
  screen: { width: number; height: number; devicePixelRatio: number } | null;
  /** The analysed window on the session clock (research_start … research_end), ms. */
  windowMs: { start: number; end: number };
  meanEngagement: number | null;
  meanValence: number | null;
  attentionShare: number | null;
  /** Distinct tracked people (multi-face), else 1 when a face was found. */
  people: number;
  /**
   * The respondent's means over the good frames of the calibration window, for "calibration-subtraction"
   * reports (a series value minus this); null without a calibration window or without good frames in it.
   */
  baseline?: {
    frames: number;
    engagement: number | null;
    valence: number | null;
    /**
     * The respondent's resting action units and "happy" (medians over the good frames, `restingFaceOf`), from which
     * changes and the smile index are measured.
     */
    actionUnits: ActionUnitBaseline | null;
  } | null;
  /** Over the research window: blinks per minute (null under 10 s observed), head movement (degrees per second), share of frames distracted. */
  motion?: { blinksPerMinute: number | null; headDegreesPerSecond: number | null; distractedShare: number | null };
}

export const SERIES_TIMELINES = ['video', 'pictures', 'shelf', 'site', 'contentless', 'recording'] as const;
export type SeriesTimeline = (typeof SERIES_TIMELINES)[number];

/**
 * Per-second series on the content's own timeline, columnar (one entry per bucket, in order).
 * A bucket is (item, step, second): video time second (item 0); picture / shelf image `item` and the
 * second since it was shown; site task `item`, `step`, second since the task was shown; contentless
 * and whole recordings: the second since the start. Means over the good frames in the bucket; null
 * where the bucket has none. The face's geometry (action units, smile, head motion, blinks, distraction) is in the
 * `FaceSignalColumns` (face-signals.ts).
 */
export interface PerSecondSeries extends FaceSignalColumns {
  timeline: SeriesTimeline;
  item: number[];
  step: number[];
  second: number[];
  /** Frames in the bucket, and good ones behind the means. */
  frames: number[];
  goodFrames: number[];
  engagement: (number | null)[];
  valence: (number | null)[];
  attention: (number | null)[];
  expressions: Record<Expression, (number | null)[]>;
  /** Mean gaze in the item's natural pixel coordinates; null without gaze in the bucket. */
  gazeX: (number | null)[];
  gazeY: (number | null)[];
}

/** Multi-face: one tracked person's per-second curves and strongest moments. */
export interface PersonTrack {
  track: number;
  firstSeconds: number;
  lastSeconds: number;
  frames: number;
  series: PerSecondSeries;
  /** Seconds (recording clock) of the strongest engagement peaks, strongest first. */
  moments: { second: number; engagement: number; expression: Expression }[];
}

export interface SessionResult {
  engineVersion: string;
  sampling: { fps: number; width: number; height: number };
  /** Seconds of video decoded across all sources. */
  recordingSeconds: number;
  /** `encodeFrames` of every analysed frame (gzip, binary columns). */
  frames: Uint8Array;
  frameCount: number;
  summary: SessionSummaryOut;
  series: PerSecondSeries;
  /** Multi-face only; else empty. */
  people: PersonTrack[];
  warnings: string[];
}

/** Progress of a running task, for the process's 0–100%. */
export interface SessionProgress {
  stage: 'decoding' | 'analysing' | 'summarising';
  /** 0..1 */
  fraction: number;
  frames: number;
}
