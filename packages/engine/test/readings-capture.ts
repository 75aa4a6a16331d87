/**
 * The frames a session analysis reads from its video, captured as privacy mode's readings (issue 32): a face engine
 * wrapped so that every frame it is asked about, full or light, is also read by `readFrame` (keepLandmarks false, one
 * face) as the respondent's browser reads it. For the equivalence test and `npm run bench:privacy-mode`.
 */
import { type FaceEngine, type RgbFrame, readFrame } from '../src/face-engine.ts';
import type { FrameReadings } from '../src/readings.ts';
import type { FrameData } from '../src/types.ts';

export interface ReadingsCapture {
  /** Pass as the session's `human`. */
  engine: FaceEngine;
  full: FrameData[];
  light: FrameData[];
  /** The captured frames as one segment's readings, times moved to the file's own clock (less its `startTime`). */
  readings(sampling: { fps: number; width: number; height: number }, gazeFps: number, startTime: number): FrameReadings;
}

export function captureReadings(inner: FaceEngine): ReadingsCapture {
  const full: FrameData[] = [];
  const light: FrameData[] = [];
  const engine: FaceEngine = {
    runtime: inner.runtime,
    reset: () => inner.reset(),
    async detect(raw, options) {
      const faces = await inner.detect(raw, options);
      const time = (raw as RgbFrame & { time: number }).time;
      const { frame } = await readFrame(
        { detect: async () => faces },
        raw,
        { index: full.length, time, light: options?.light === true },
        { multiFace: false, keepLandmarks: false },
      );
      (options?.light ? light : full).push(frame);
      return faces;
    },
  };
  return {
    engine,
    full,
    light,
    readings(sampling, gazeFps, startTime) {
      const shift = (f: FrameData) => ({ ...f, time: f.time - startTime });
      return {
        sampling: { fps: sampling.fps, gazeFps, width: sampling.width, height: sampling.height },
        full: full.map(shift),
        light: light.map(shift),
      };
    },
  };
}
