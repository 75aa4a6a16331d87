/**
 * How a recording is sampled for analysis: the size and rate of the full frames and how many frames are decoded per
 * full one (light frames between them, decision 036). Browser-safe: the server's analysis (node/analyze.ts) and the
 * respondent page's live reader (browser/live-reader.ts) take their frames by these same rules, so the readings the
 * page sends match what the server would have read from the video.
 */
import { EngineError } from './errors.ts';

export const DEFAULT_FPS = 10;
export const DEFAULT_MAX_WIDTH = 640;
/**
 * Gaze is read at the recording's rate up to this (issue 31: a 200 ms fixation is six samples, not two). A light
 * frame costs ~10 ms of CPU against ~21 ms for a full one (its eyes read at one iris shift, decision 049), so 30 fps
 * with full frames at 10 stays within half the recording's length per core (`npm run bench:processing`).
 */
export const DEFAULT_GAZE_FPS = 30;

export interface Sampling {
  fps: number;
  width: number;
  height: number;
}

/** What sampling needs to know of a source: its size and, when known, its frame rate. */
export interface SourceShape {
  width: number;
  height: number;
  fps: number | null;
}

/** Analysis size and rate for a source: even dimensions, no upscaling, rate capped at the source's. */
export function samplingFor(info: SourceShape, options: { fps?: number; maxWidth?: number } = {}): Sampling {
  const requested = options.fps ?? DEFAULT_FPS;
  if (!(requested > 0 && requested <= 120)) throw new EngineError('invalid_options', 'fps must be between 0 and 120');
  const fps = info.fps ? Math.min(requested, info.fps) : requested;
  const maxWidth = options.maxWidth ?? DEFAULT_MAX_WIDTH;
  const scale = Math.min(1, maxWidth / info.width);
  const even = (n: number) => Math.max(2, 2 * Math.round(n / 2));
  return { fps, width: even(info.width * scale), height: even(info.height * scale) };
}

/**
 * Frames decoded per full frame for light frames (1: no light frames): k = ⌈min(lightFps, the source's rate) / fps⌉
 * (the source's rate unknown: lightFps). Frames are taken at fps × k, every k-th a full one.
 */
export function lightFactor(sampling: Sampling, info: Pick<SourceShape, 'fps'>, lightFps: number | undefined): number {
  if (!lightFps || !(lightFps > sampling.fps)) return 1;
  const rate = Math.min(lightFps, info.fps ?? lightFps);
  return Math.max(1, Math.ceil(rate / sampling.fps - 1e-6));
}
