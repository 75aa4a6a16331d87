/** The messages between the page (onnx-client.ts) and the engine's Web Worker (onnx-worker.ts). */
import type { HumanOptions } from '../face-engine.ts';
import type { FrameData } from '../types.ts';

export interface WorkerInit {
  type: 'init';
  assetsBase?: string;
  threads?: number;
  engine?: Partial<HumanOptions>;
  /** As the server's analysis: every face (multi-face mode), the 478 landmarks kept. */
  multiFace?: boolean;
  keepLandmarks?: boolean;
}

export interface WorkerFrame {
  type: 'frame';
  id: number;
  /** RGB24 (3 bytes a pixel) or RGBA (4, as a canvas or a VideoFrame gives it); transferred, and sent back. */
  data: Uint8Array;
  width: number;
  height: number;
  index: number;
  /** Seconds on the recording's clock. */
  time: number;
  /** A frame between full ones: mesh and iris only (`DetectOptions.light`). */
  light?: boolean;
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
