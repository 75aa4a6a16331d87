/**
 * Gaze from every analysed frame (decision 040): the light frames between the full ones (decision 036) read the
 * eyes and the head pose too, so the calibration is fitted on them as well and each frame's gaze point, full or
 * light, is the median of every reading within ±200 ms. The frame table keeps the full frames; the gaze track every
 * frame, at the recording's rate up to `DEFAULT_GAZE_FPS` (decision 049).
 */
import type { GazeRow } from '../frames-codec.ts';
import { GAZE_FEATURE_NAMES, type GazeReadings, gazeFeatures } from '../gaze.ts';
import { checkpointDots, correctDrift, measureCheckpoints } from '../gaze-drift.ts';
import type { MsWindow } from '../session-timeline.ts';
import type { SessionDrift, SessionTask } from '../session-types.ts';
import type { FrameData, FrameGaze, ScreenPoint } from '../types.ts';

const WIDTH = GAZE_FEATURE_NAMES.length;

// The gaze's rate is one of the sampling rules the respondent page's live reader shares (sampling.ts).
export { DEFAULT_GAZE_FPS } from '../sampling.ts';

/** The gaze readings of a session's light frames (one face): ~100 B each, any order. */
export class LightGaze {
  private ms: number[] = [];
  /** `WIDTH` values a reading, NaN where the eyes were not read. */
  private values: number[] = [];
  /** The calibration window's light frames, whole (the fit checks each frame's flags): a few hundred. */
  readonly calibrationFrames: FrameData[] = [];

  constructor(private readonly calibration: MsWindow | null) {}

  /** A light frame at `ms` on the session clock. */
  push(frame: FrameData, ms: number): void {
    if (this.calibration && ms >= this.calibration.start && ms <= this.calibration.end) {
      this.calibrationFrames.push({ ...frame, time: ms / 1000 });
    }
    const features = frame.face ? gazeFeatures(frame.face) : null;
    this.ms.push(ms);
    for (let j = 0; j < WIDTH; j++) this.values.push(features?.[j] ?? Number.NaN);
  }

  get length(): number {
    return this.ms.length;
  }

  /** Times (seconds on the session clock) and feature vectors, null where the eyes were not read. */
  readings(): GazeReadings {
    return {
      times: this.ms.map((t) => t / 1000),
      features: this.ms.map((_, i) => {
        const f = this.values.slice(i * WIDTH, (i + 1) * WIDTH);
        return f.every(Number.isFinite) ? f : null;
      }),
    };
  }
}

/** The calibration's frames, full and light together, in time order (the full ones alone without light frames). */
export function calibrationFrames(full: FrameData[], light: LightGaze | null): FrameData[] {
  if (!light || light.calibrationFrames.length === 0) return full;
  return [...full, ...light.calibrationFrames].sort((a, b) => a.time - b.time);
}

/** Where a moment's gaze falls on the content (`ContentTimeline`). */
export interface ContentPlacement {
  item(ms: number): number;
  contentPoint(ms: number, point: ScreenPoint): { item: number; x: number; y: number } | null;
}

/**
 * The gaze track (decision 049): every analysed frame's gaze point (`gazeTracks`: the full frames' and the light
 * readings', each already the median of its window), in time order, placed on the content inside the research
 * window [research.start, research.end) as the full frames are.
 */
export function gazeTrackRows(
  full: readonly FrameGaze[],
  light: readonly FrameGaze[],
  research: MsWindow,
  placement: ContentPlacement,
): GazeRow[] {
  return [...full, ...light]
    .sort((a, b) => a.time - b.time)
    .map(({ time, point }) => {
      const ms = time * 1000;
      const inWindow = ms >= research.start && ms < research.end;
      const content = inWindow && point ? placement.contentPoint(ms, point) : null;
      return {
        time,
        gaze: point,
        item: inWindow ? placement.item(ms) : -1,
        content: content ? { x: content.x, y: content.y } : null,
      };
    });
}

/** Rows a second within the window [start, end) (ms), to two decimals; null for an empty or open window. */
export function samplesPerSecond(rows: readonly { time: number }[], window: MsWindow): number | null {
  const seconds = (window.end - window.start) / 1000;
  if (!(seconds > 0) || !Number.isFinite(seconds)) return null;
  const inside = rows.filter((r) => r.time * 1000 >= window.start && r.time * 1000 < window.end).length;
  return Math.round((100 * inside) / seconds) / 100;
}

/**
 * The research window's drift checkpoints (`gaze-drift.ts`, decision 053) measured on the gaze tracks, and the tracks
 * with the drift taken off after the calibration's end (`fromMs`) unless `correct` is false, the checkpoints' offsets
 * smoothed with `noise` (the calibration's validation-dot accuracy, px; `smoothedOffsets`); the summary's `drift` (null
 * without a checkpoint).
 */
export function withDrift(
  tracks: { frames: FrameGaze[]; between: FrameGaze[] },
  events: SessionTask['events'],
  fromMs: number,
  research: MsWindow,
  screen: { width: number; height: number },
  correct: boolean,
  noise: number | null,
): { frames: FrameGaze[]; between: FrameGaze[]; drift: SessionDrift | null } {
  const dots = checkpointDots(events, Math.max(fromMs, research.start), research.end);
  if (dots.length === 0) return { ...tracks, drift: null };
  const all = [...tracks.frames, ...tracks.between].sort((a, b) => a.time - b.time);
  const checkpoints = measureCheckpoints(dots, all, screen, { noise: noise ?? 0, fromMs });
  const used = checkpoints.filter((c) => c.used && c.offset);
  const sizes = used.map((c) => Math.hypot(c.offset?.x ?? 0, c.offset?.y ?? 0));
  const diagonal = Math.hypot(screen.width, screen.height);
  const meanPx = sizes.length ? sizes.reduce((a, b) => a + b, 0) / sizes.length : null;
  const drift: SessionDrift = {
    checkpoints,
    meanPx,
    maxPx: sizes.length ? Math.max(...sizes) : null,
    meanPercent: meanPx === null ? null : (100 * meanPx) / diagonal,
    corrected: correct && used.length > 0,
  };
  if (!drift.corrected) return { ...tracks, drift };
  return {
    frames: correctDrift(tracks.frames, checkpoints, fromMs, screen),
    between: correctDrift(tracks.between, checkpoints, fromMs, screen),
    drift,
  };
}
