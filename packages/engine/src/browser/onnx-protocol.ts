/** The messages between the page (onnx-client.ts) and the engine's Web Worker (onnx-worker.ts). */
import type { HumanOptions } from '../face-engine.ts';
import type { FrameData } from '../types.ts';
import type { Yuv420Frame } from './yuv.ts';

export interface WorkerInit {
  type: 'init';
  assetsBase?: string;
  threads?: number;
  engine?: Partial<HumanOptions>;
  /** As the server's analysis: every face (multi-face mode), the 478 landmarks kept. */
  multiFace?: boolean;
  keepLandmarks?: boolean;
}

/** A frame's pixels as the page hands them to the worker. */
export interface FramePixels {
  /**
   * RGB24 (3 bytes a pixel) or RGBA (4, as a canvas gives it), told apart by the length; or a camera frame's YUV 4:2:0
   * planes (`yuv`), converted in the worker as the server's decoder converts (yuv.ts). Transferred, and sent back.
   */
  data: Uint8Array;
  width: number;
  height: number;
  yuv?: Pick<Yuv420Frame, 'format' | 'layout'>;
}

/** Takes a camera frame's pixels: at once (drawn on a canvas) or copied out after (its planes). */
export type Grab = () => FramePixels | Promise<FramePixels>;

export interface WorkerFrame extends FramePixels {
  type: 'frame';
  id: number;
  index: number;
  /** Seconds on the recording's clock. */
  time: number;
  /** A frame between full ones: mesh and iris only (`DetectOptions.light`). */
  light?: boolean;
  /** The engine forgets the tracked faces first, as the server at a decode range's start (decode-ranges.ts). */
  fresh?: boolean;
}

export type ToWorker = WorkerInit | WorkerFrame | { type: 'reset' };

export type FromWorker =
  | { type: 'ready'; runtime: string; threads: number; ortVersion: string; loadMs: number }
  | {
      type: 'frame';
      id: number;
      frame: FrameData;
      /** Milliseconds the engine took on the frame, in the worker. */
      ms: number;
      /** The frame's buffer, back to the page for reuse. */
      data: Uint8Array;
    }
  | { type: 'error'; id?: number; message: string };
