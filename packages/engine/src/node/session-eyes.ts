/**
 * Blinks at the recording's own frame rate (decision 036): the eye aspect ratio of the main face in every analysed
 * frame, full and light (`FrameOptions.lightFrames`, at the gaze's rate, decision 049: 20 fps was found enough for
 * every phantom blink, as 15 and 30), kept as two plain columns beside the frame store, and the research window's
 * blinks and eyes-closed distraction found in it and placed on the full frames.
 */
import { faceActionUnits } from '../action-units.ts';
import type { FaceSignals } from '../face-signals.ts';
import { badFrameReason } from '../metrics.ts';
import { blinksPerMinute, distraction, type EyeClosure, eyeClosureSeries, eyeClosures } from '../motion.ts';
import type { FrameData, HeadPose } from '../types.ts';

/** The eye aspect ratio of every analysed frame of the session, in any order until `sorted`. */
export class EyeSeries {
  private ms: number[] = [];
  private ear: number[] = [];

  /** A frame at `ms` on the session clock: its main face's eye aspect ratio, NaN in a bad frame or without a mesh. */
  push(frame: FrameData, ms: number, quality: { multiFace: boolean }): void {
    const face = frame.face;
    const units = face && badFrameReason(frame, quality) === null ? faceActionUnits(face) : null;
    this.ms.push(ms);
    this.ear.push(units ? units.eyeAspectRatio : Number.NaN);
  }

  get length(): number {
    return this.ms.length;
  }

  /** Times (ms) and ratios in time order. */
  sorted(): { ms: number[]; ear: number[] } {
    const order = this.ms.map((_, i) => i).sort((a, b) => (this.ms[a] as number) - (this.ms[b] as number));
    return { ms: order.map((i) => this.ms[i] as number), ear: order.map((i) => this.ear[i] as number) };
  }
}

/** What `researchEyes` puts in place of the full frames' blink signals. */
export type EyeSignals = Pick<FaceSignals, 'blinkStarts' | 'distraction' | 'blinksPerMinute'> & {
  closures: EyeClosure[];
};

/**
 * Blinks and eyes-closed distraction of the research window [startMs, endMs) from the eye series (`eyeClosureSeries`:
 * against the respondent's open eye around each moment), placed on the window's full frames
 * (`frameMs`, `poses`): a blink counts at the last full frame at or before its start (the first frame when it starts
 * before every frame); two blinks starting between the same two full frames count once.
 */
export function researchEyes(
  eyes: { ms: number[]; ear: number[] },
  startMs: number,
  endMs: number,
  frameMs: number[],
  poses: (HeadPose | null)[],
): EyeSignals {
  const times: number[] = [];
  const ear: (number | null)[] = [];
  for (let i = 0; i < eyes.ms.length; i++) {
    const t = eyes.ms[i] as number;
    if (t < startMs || t >= endMs) continue;
    times.push(t / 1000);
    const r = eyes.ear[i] as number;
    ear.push(Number.isFinite(r) ? r : null);
  }
  const closure = eyeClosureSeries(times, ear);
  const closures = eyeClosures(times, closure);
  const frameSeconds = frameMs.map((t) => t / 1000);
  const blinkStarts = frameSeconds.map(() => false);
  let k = 0;
  for (const c of closures.filter((x) => x.blink)) {
    while (k + 1 < frameSeconds.length && (frameSeconds[k + 1] as number) <= c.start) k++;
    if (frameSeconds.length) blinkStarts[k] = true;
  }
  return {
    blinkStarts,
    distraction: distraction(frameSeconds, poses, closures),
    blinksPerMinute: blinksPerMinute(times, closure, closures),
    closures,
  };
}
