/** Loading and running one ONNX model of the face pipeline. */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Ort from 'onnxruntime-node';
import { EngineError } from '../../errors.ts';
import { DETECTOR_SIZE, EMOTION_SIZE, IRIS_SIZE, MESH_SIZE } from './constants.ts';

export const ONNX_MODELS_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../models');

export const SESSION_OPTIONS: Ort.InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
};

/** The expected input of each model (NHWC, as in tfjs); checked at load so a wrong file fails at start. */
export const MODEL_INPUTS = {
  blazeface: [DETECTOR_SIZE, 3],
  facemesh: [MESH_SIZE, 3],
  iris: [IRIS_SIZE, 3],
  emotion: [EMOTION_SIZE, 1],
} as const;
export type ModelName = keyof typeof MODEL_INPUTS;

/** onnxruntime is loaded with the first engine, not on import: the API server imports this package too. */
export type OrtModule = typeof Ort;

export class Model {
  constructor(
    private readonly ort: OrtModule,
    readonly session: Ort.InferenceSession,
    readonly size: number,
    readonly channels: number,
  ) {}

  async run(data: Float32Array, batch = 1): Promise<Ort.InferenceSession.OnnxValueMapType> {
    const input = new this.ort.Tensor('float32', data, [batch, this.size, this.size, this.channels]);
    return this.session.run({ [this.session.inputNames[0] as string]: input });
  }
}

export async function loadModel(ort: OrtModule, name: ModelName, dir: string): Promise<Model> {
  const file = join(dir, `${name}.onnx`);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new EngineError(
      'model_unavailable',
      `The face model ${file} is missing. It ships with @emolens/engine (made by packages/engine/scripts/convert-models.py).`,
      { cause: error },
    );
  }
  let session: Ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(bytes, SESSION_OPTIONS);
  } catch (error) {
    throw new EngineError(
      'model_unavailable',
      `The face model ${file} cannot be loaded (corrupt or not an ONNX model): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const [size, channels] = MODEL_INPUTS[name];
  const meta = session.inputMetadata[0];
  const shape = meta && 'shape' in meta ? meta.shape : [];
  if (session.inputNames.length !== 1 || shape[1] !== size || shape[2] !== size || shape[3] !== channels) {
    throw new EngineError(
      'model_unavailable',
      `The face model ${file} does not take ${size}x${size}x${channels} images: a different model?`,
    );
  }
  return new Model(ort, session, size, channels);
}
