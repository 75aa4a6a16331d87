import { readFrame } from '../face-engine.ts';
import { lightFactor, type Sampling, samplingFor } from '../sampling.ts';
import { FaceTracker, type TrackerOptions } from '../tracks.ts';
import type { FrameData } from '../types.ts';
import { decodeFrames, probeVideo, type VideoInfo } from './ffmpeg.ts';
import { createHuman, type HumanLike } from './human.ts';

// The sampling rules are shared with the respondent page's live reader (browser/live-reader.ts).
export { DEFAULT_FPS, DEFAULT_MAX_WIDTH, lightFactor, type Sampling, samplingFor } from '../sampling.ts';

/** Detector every 5th frame at most: ~25% faster, measured in bench/engine.ts. */
export const DEFAULT_SKIP_FRAMES = 5;

export interface FrameOptions {
  /** Sampling rate; at most the source's rate. Default 10. */
  fps?: number;
  /** Frames are scaled down to this width for analysis (aspect kept). Default 640. */
  maxWidth?: number;
  /** Keep every face in `faces`, each with a stable `track` id, and do not count several faces as bad. */
  multiFace?: boolean;
  /** Multi-face tracking: how faces are matched to the people of earlier frames. */
  tracker?: TrackerOptions;
  /** Keep the 478 landmarks of each face (default true). */
  keepLandmarks?: boolean;
  /** Frames between full detector runs (faces are tracked from the mesh in between). Default 5. */
  skipFrames?: number;
  /** The source's facts when the caller has probed it already. */
  info?: VideoInfo;
  /** A loaded face runtime to reuse across recordings (one per process). */
  human?: HumanLike;
  /**
   * Only these stretches, seconds from the file's start (each decoded on its own after a seek), in order. Frame
   * times stay on the file's own clock and frame indices run on across the ranges.
   */
  ranges?: { start: number; end: number }[];
  /** A decoder error after some frames throws `decode_failed` instead of a warning (no half results). */
  strict?: boolean;
  /**
   * Light frames between the full ones (decision 036): the video is decoded at `fps` × k, k = ⌈min(lightFps, the
   * source's rate) / fps⌉ (the source's rate unknown: lightFps), every k-th frame is a full one (yielded, the same
   * times as without light frames) and the others get the tracked faces' mesh and iris only (`DetectOptions.light`)
   * and go to `onFrame`, not to the stream. A light frame that repeats the previous decoded picture byte for byte
   * (the rate filter duplicating a slower source's frames) is skipped. Their `expressions` are all 0: not measured.
   */
  lightFrames?: { fps: number; onFrame: (frame: FrameData) => void };
  signal?: AbortSignal;
  onWarning?: (message: string) => void;
}

/**
 * Per-frame face, expression and quality data of a recording, as a stream: frames are decoded,
 * analysed and handed over one at a time, so memory does not grow with the recording's length.
 */
export async function* analyzeFrames(
  file: string,
  options: FrameOptions = {},
): AsyncGenerator<FrameData, { info: VideoInfo; sampling: Sampling }> {
  const info = options.info ?? (await probeVideo(file));
  const sampling = samplingFor(info, options);
  const human = options.human ?? (await createHuman({ skipFrames: options.skipFrames ?? DEFAULT_SKIP_FRAMES }));
  const frameOptions = { multiFace: options.multiFace ?? false, keepLandmarks: options.keepLandmarks ?? true };
  const ranges = options.ranges
    ? options.ranges
        .filter((r) => r.end > r.start)
        .map((r) => ({ start: Math.max(0, r.start), duration: r.end - r.start }))
    : [undefined];
  let index = 0;
  // One tracker across the ranges too: a skipped stretch longer than the tracker's gap starts new tracks.
  const tracker = frameOptions.multiFace ? new FaceTracker(options.tracker) : null;
  const light = options.lightFrames;
  const k = lightFactor(sampling, info, light?.fps);
  let previous: Buffer | null = null;
  for (const range of ranges) {
    // A new recording or a jump in it: no face boxes carried over, the detector runs first.
    human.reset();
    let decoded = 0;
    const decode = decodeFrames(
      file,
      {
        ...sampling,
        fps: sampling.fps * k,
        startTime: info.startTime,
        ...(range ? { range } : {}),
        ...(options.strict ? { strict: true } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
      options.onWarning,
    );
    for await (const raw of decode) {
      const full = decoded++ % k === 0;
      if (light && k > 1) {
        const bytes = Buffer.from(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength);
        const repeat = previous?.equals(bytes) ?? false;
        if (previous === null || previous.length !== bytes.length) previous = Buffer.alloc(bytes.length);
        if (!repeat) bytes.copy(previous);
        if (!full) {
          if (repeat) continue;
          light.onFrame((await readFrame(human, raw, { index, time: raw.time, light: true }, frameOptions)).frame);
          continue;
        }
      }
      const { frame } = await readFrame(human, raw, { index: index++, time: raw.time }, frameOptions);
      // `face` is one of `faces`, so the main face gets its id too.
      if (tracker && frame.faces) tracker.assign(frame.time, frame.faces);
      yield frame;
    }
  }
  return { info, sampling };
}
