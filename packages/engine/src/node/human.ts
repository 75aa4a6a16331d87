/**
 * The engine's face runtime: Human's models on onnxruntime-node (node/onnx/engine.ts). The name and
 * `createHuman` are kept so callers need not change; Human itself (tfjs-wasm) is `createTfjsHuman`.
 */
import type { FaceEngine, HumanOptions } from '../face-engine.ts';
import { createOnnxEngine } from './onnx/model.ts';

export type { ExpressionInput, FaceEngine, HumanOptions, RgbFrame } from '../face-engine.ts';
export { DEFAULT_HUMAN_OPTIONS } from '../face-engine.ts';
export { createTfjsHuman, HUMAN_MODELS_DIR } from './human-tfjs.ts';
export { createOnnxEngine, ONNX_MODELS_DIR } from './onnx/model.ts';

/** The runtime every analysis gets: one per worker process. */
export type HumanLike = FaceEngine;

export function createHuman(options: Partial<HumanOptions> = {}): Promise<FaceEngine> {
  return createOnnxEngine(options);
}
