import { brightness, type DetectedFace, frameData } from './face.ts';
import type { FrameData } from './types.ts';

/** One decoded frame, RGB24 row by row. */
export interface RgbFrame {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * What the analysis needs from a face runtime: the faces of a frame, in Human's result shape. One per
 * worker process; it keeps the faces of the previous frames for tracking, which `reset` forgets
 * (call it before a new recording).
 */
export interface FaceEngine {
  /** 'onnxruntime-node' (the engine) or 'tfjs-wasm' (Human itself, kept for comparison). */
  readonly runtime: string;
  detect(frame: RgbFrame, options?: DetectOptions): Promise<DetectedFace[]>;
  reset(): void;
}

/**
 * `light`: a frame between the full ones (mesh and iris at the recording's rate, decision 036): the faces tracked
 * from the previous frame get their mesh and iris, but no expressions; the detector does not run, and the frame
 * does not count towards `skipFrames` or the scene-change check, so the full frames see the detector as before.
 * A runtime without this (tfjs-wasm) may analyse the frame fully.
 */
export interface DetectOptions {
  light?: boolean;
}

/**
 * How the expression model is fed. 'aligned': a crop upright on the eye line, sized from the mesh (from
 * its rigid points where the frame cuts the face), sampled from the full frame with a box filter, averaged
 * with its mirror image and small shifts (scores that do not depend on the face's size or place).
 * 'human': Human's own (the 192-pixel face crop scaled to 64 pixels), for comparison with earlier results.
 */
export type ExpressionInput = 'aligned' | 'human';

export interface HumanOptions {
  /** Detect every face (up to 10) rather than only the main one's detail. */
  maxFaces: number;
  stages: { mesh: boolean; iris: boolean; emotion: boolean };
  /**
   * Frames between full detector runs; in between, faces are tracked from the previous mesh,
   * which is how video rates are reached. 0 runs the detector on every frame.
   */
  skipFrames: number;
  expressionInput: ExpressionInput;
  /**
   * Landmarks truncated to whole frame pixels, as Human returns them, for comparison with Human itself. The engine
   * keeps the fraction (decision 046).
   */
  wholePixels: boolean;
  /**
   * How each eye's iris reading is dithered over `IRIS_SHIFTS` (decision 041): 'frame' reads it at every shift in
   * every frame and averages; 'time' (the engine's, decision 049) reads each eye at one shift a frame, the two eyes at
   * opposite ones, swapped every frame, and averages a frame's reads with the previous frame's (the other shifts) in
   * the eye's own box: the same average for half the iris model's work, half of it a frame old.
   */
  irisDither: 'frame' | 'time';
  /**
   * 'keep' (the default, decision 080): a detector run that finds a face already tracked keeps the tracked box
   * (centred on the last mesh) unless the face's size or turn changed beyond the detector's own jitter
   * (`confirmTracked`, decision 078). 'replace': every detector run replaces the boxes, as Human does, for comparison
   * with Human itself.
   */
  tracking: 'keep' | 'replace';
}

export const DEFAULT_HUMAN_OPTIONS: HumanOptions = {
  maxFaces: 10,
  stages: { mesh: true, iris: true, emotion: true },
  skipFrames: 5,
  expressionInput: 'aligned',
  wholePixels: false,
  irisDither: 'time',
  tracking: 'keep',
};

export function humanOptions(options: Partial<HumanOptions>): HumanOptions {
  return {
    ...DEFAULT_HUMAN_OPTIONS,
    ...options,
    stages: { ...DEFAULT_HUMAN_OPTIONS.stages, ...options.stages },
  };
}

/**
 * One frame as the analysis reads it, on the server (node/analyze.ts) and in the respondent's browser
 * (browser/onnx-worker.ts) alike: the engine's faces, the frame's luma, then its features (`frameData`).
 */
export async function readFrame(
  engine: Pick<FaceEngine, 'detect'>,
  raw: RgbFrame,
  at: { index: number; time: number; light?: boolean },
  options: { multiFace: boolean; keepLandmarks: boolean },
): Promise<{ frame: FrameData; faces: DetectedFace[] }> {
  const faces = await engine.detect(raw, at.light ? { light: true } : {});
  const luma = brightness(raw.data, raw.width, raw.height);
  return { frame: frameData(at.index, at.time, faces, luma, { ...options, frameSize: raw }), faces };
}
