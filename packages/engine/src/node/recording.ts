import { readFile } from 'node:fs/promises';
import { EngineError } from '../errors.ts';
import { applyGaze, DEFAULT_GAZE_WINDOW_MS, fitGaze } from '../gaze.ts';
import {
  attentionSeries,
  type BaselineCorrection,
  baselineCorrect,
  calibrationWindow,
  DEFAULT_SMOOTHING_SIGMA_SECONDS,
  engagementSeries,
  type SessionSummary,
  smoothExpressions,
  summarise,
  type TimeWindow,
  valenceSeries,
} from '../metrics.ts';
import {
  type EventLog,
  EXPRESSIONS,
  type Expression,
  type FrameData,
  type FrameGaze,
  type GazeResult,
} from '../types.ts';
import { ENGINE_VERSION } from '../version.ts';
import { analyzeFrames, type FrameOptions, type Sampling } from './analyze.ts';
import type { VideoInfo } from './ffmpeg.ts';

export interface RecordingOptions extends FrameOptions {
  /** The stimulus event log (calibration dots) for gaze and baseline correction. */
  events?: EventLog;
  /** Default 0.25 (spec: allowable bad frames). */
  allowedBadFrameShare?: number;
  smoothingSigmaSeconds?: number;
  /** Every analysed frame, landmarks included, as soon as it is ready (the CLI streams them to disk). */
  onFrame?: (frame: FrameData) => void | Promise<void>;
  onProgress?: (progress: { frames: number; time: number; durationSeconds: number | null }) => void;
}

export interface RecordingSeries {
  /** Seconds on the recording's clock, one entry per sampled frame. */
  time: number[];
  /** Smoothed expression scores; null on bad frames. */
  expressions: Record<Expression, (number | null)[]>;
  engagement: (number | null)[];
  valence: (number | null)[];
  attention: (0 | 1)[];
  /** Engagement and valence minus the respondent's calibration mean; null without a calibration window. */
  baselineCorrected: { window: TimeWindow; engagement: BaselineCorrection; valence: BaselineCorrection } | null;
  gaze: FrameGaze[] | null;
}

export interface RecordingAnalysis {
  engineVersion: string;
  source: VideoInfo & { file: string };
  sampling: Sampling;
  multiFace: boolean;
  gaze: GazeResult | { status: 'not_requested' };
  summary: SessionSummary;
  series: RecordingSeries;
  warnings: string[];
}

export async function readEventLog(file: string): Promise<EventLog> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new EngineError('invalid_event_log', `The event log is not readable JSON: ${file}`, { cause: error });
  }
  const log = parsed as Partial<EventLog>;
  if (!log || !Array.isArray(log.events) || !(Number(log.screen?.width) > 0 && Number(log.screen?.height) > 0)) {
    throw new EngineError('invalid_event_log', 'The event log needs { screen: { width, height }, events: [...] }');
  }
  return log as EventLog;
}

/**
 * A whole recording: frames (streamed to `onFrame`), then gaze calibration, smoothed series,
 * baseline correction and the session summary. Only a compact copy of each frame (no landmarks)
 * is kept for the metrics, so memory stays small for long recordings.
 */
export async function analyzeRecording(file: string, options: RecordingOptions = {}): Promise<RecordingAnalysis> {
  const warnings: string[] = [];
  const frames: FrameData[] = [];
  const stream = analyzeFrames(file, { ...options, onWarning: (w) => warnings.push(w) });
  let next = await stream.next();
  while (!next.done) {
    const frame = next.value;
    await options.onFrame?.(frame);
    frames.push(compact(frame));
    options.onProgress?.({ frames: frames.length, time: frame.time, durationSeconds: null });
    next = await stream.next();
  }
  const { info, sampling } = next.value;
  const multiFace = options.multiFace ?? false;

  const gaze: RecordingAnalysis['gaze'] = options.events
    ? fitGaze(frames, options.events)
    : { status: 'not_requested' };
  const gazePoints =
    gaze.status === 'calibrated' ? applyGaze(gaze.model, frames, { windowMs: DEFAULT_GAZE_WINDOW_MS }) : null;

  const time = frames.map((f) => f.time);
  const smoothed = smoothExpressions(frames, options.smoothingSigmaSeconds ?? DEFAULT_SMOOTHING_SIGMA_SECONDS, {
    multiFace,
  });
  const expressions = Object.fromEntries(EXPRESSIONS.map((e) => [e, smoothed.map((s) => s?.[e] ?? null)])) as Record<
    Expression,
    (number | null)[]
  >;
  const engagement = engagementSeries(smoothed);
  const valence = valenceSeries(smoothed);
  const window = options.events ? calibrationWindow(options.events) : null;
  return {
    engineVersion: ENGINE_VERSION,
    source: { ...info, file },
    sampling,
    multiFace,
    gaze,
    summary: summarise(frames, {
      multiFace,
      gaze: gazePoints,
      allowedBadFrameShare: options.allowedBadFrameShare,
    }),
    series: {
      time,
      expressions,
      engagement,
      valence,
      attention: attentionSeries(frames, gazePoints),
      baselineCorrected: window
        ? {
            window,
            engagement: baselineCorrect(engagement, time, window),
            valence: baselineCorrect(valence, time, window),
          }
        : null,
      gaze: gazePoints,
    },
    warnings,
  };
}

function compact(frame: FrameData): FrameData {
  const strip = <T extends { landmarks: unknown[] }>(face: T): T => ({ ...face, landmarks: [] });
  return {
    ...frame,
    face: frame.face ? strip(frame.face) : null,
    ...(frame.faces ? { faces: frame.faces.map(strip) } : {}),
  };
}
