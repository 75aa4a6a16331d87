/** The face engine on the server: onnxruntime-node, the models read from this package's disk. */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineError } from '../../errors.ts';
import type { HumanOptions } from '../../face-engine.ts';
import { loadOnnxEngine, type OnnxFaceEngine } from '../../onnx/engine.ts';
import { type ModelName, modelFile, type OnnxRuntime, type OrtModule } from '../../onnx/model.ts';

export const ONNX_MODELS_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../models');

/** onnxruntime-node, its models in `dir`. */
export function nodeRuntime(ort: OrtModule, dir: string = ONNX_MODELS_DIR): OnnxRuntime {
  const source = (name: ModelName) => join(dir, modelFile(name, 'onnxruntime-node'));
  return {
    name: 'onnxruntime-node',
    ort,
    source,
    async modelBytes(name) {
      try {
        return await readFile(source(name));
      } catch (error) {
        throw new EngineError(
          'model_unavailable',
          `The face model ${source(name)} is missing. It ships with @emolens/engine (made by packages/engine/scripts/convert-models.py).`,
          { cause: error },
        );
      }
    },
  };
}

/**
 * Loads the four models (single-threaded sessions: one engine per worker process). onnxruntime is loaded with the
 * first engine, not on import: the API server imports this package too.
 */
export async function createOnnxEngine(
  options: Partial<HumanOptions> = {},
  dir: string = ONNX_MODELS_DIR,
): Promise<OnnxFaceEngine> {
  const ort = (await import('onnxruntime-node')) as OrtModule;
  return loadOnnxEngine(nodeRuntime(ort, dir), options);
}
