/**
 * Gaze from every analysed frame (decision 040): the light frames between the full ones (decision 036) read the
 * eyes and the head pose too, so the calibration is fitted on them as well and each full frame's gaze point is the
 * median of every reading within ±200 ms, not of the full frames' alone. The frame table keeps the full frames only.
 */
import { GAZE_FEATURE_NAMES, type GazeReadings, gazeFeatures } from '../gaze.ts';
import type { MsWindow } from '../session-timeline.ts';
import type { FrameData } from '../types.ts';

const WIDTH = GAZE_FEATURE_NAMES.length;

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
