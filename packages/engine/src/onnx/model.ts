/**
 * One ONNX model of the face pipeline on an injected onnxruntime: onnxruntime-node on the server
 * (node/onnx/model.ts reads the files from disk), onnxruntime-web in the respondent's browser
 * (browser/onnx-engine.ts fetches them from the server). Both implement onnxruntime-common's
 * `InferenceSession` and `Tensor`, which is all the pipeline uses; nothing here depends on where it runs.
 */
import type * as Ort from 'onnxruntime-common';
import { EngineError } from '../errors.ts';
import { DETECTOR_SIZE, EMOTION_SIZE, IRIS_SIZE, MESH_SIZE } from './constants.ts';

/** What the pipeline needs of an onnxruntime module (`import * as ort from 'onnxruntime-node' | 'onnxruntime-web'`). */
export type OrtModule = Pick<typeof Ort, 'InferenceSession' | 'Tensor'>;

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
export const MODEL_NAMES = Object.keys(MODEL_INPUTS) as ModelName[];

/**
 * The models written a second time for onnxruntime-web (scripts/convert-models.py, decision 071): the mesh and the
 * iris model with each PReLU as one PRelu operation, which the WebAssembly build runs in one pass where the server's
 * files take five (made so for onnxruntime-node's NCHWc layout, decision 058); the same outputs, bit for bit.
 */
const WEB_VARIANTS: ReadonlySet<ModelName> = new Set(['facemesh', 'iris']);

/** The file of model `name` that `runtime` loads. */
export function modelFile(name: ModelName, runtime: OnnxRuntime['name']): string {
  return runtime === 'onnxruntime-web' && WEB_VARIANTS.has(name) ? `${name}.web.onnx` : `${name}.onnx`;
}

/** Every model file, either runtime's. */
export const MODEL_FILES: readonly string[] = [
  ...new Set(MODEL_NAMES.flatMap((m) => [modelFile(m, 'onnxruntime-node'), modelFile(m, 'onnxruntime-web')])),
];

/** Where the engine runs: the onnxruntime module and where the models' bytes come from. */
export interface OnnxRuntime {
  /** Stamped on the engine (`FaceEngine.runtime`): 'onnxruntime-node' or 'onnxruntime-web'. */
  name: 'onnxruntime-node' | 'onnxruntime-web';
  ort: OrtModule;
  /** The bytes of its file of the model (`modelFile`); throws EngineError('model_unavailable') when it cannot be had. */
  modelBytes(name: ModelName): Promise<Uint8Array>;
  /** Where that file comes from (a path, an address), for messages. */
  source(name: ModelName): string;
  /** Added to SESSION_OPTIONS (the browser's execution providers). */
  sessionOptions?: Ort.InferenceSession.SessionOptions;
}

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

export async function loadModel(runtime: OnnxRuntime, name: ModelName): Promise<Model> {
  const bytes = await runtime.modelBytes(name);
  const source = runtime.source(name);
  let session: Ort.InferenceSession;
  try {
    session = await runtime.ort.InferenceSession.create(bytes, { ...SESSION_OPTIONS, ...runtime.sessionOptions });
  } catch (error) {
    throw new EngineError(
      'model_unavailable',
      `The face model ${source} cannot be loaded (corrupt or not an ONNX model): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const [size, channels] = MODEL_INPUTS[name];
  const meta = session.inputMetadata[0];
  const shape = meta && 'shape' in meta ? meta.shape : [];
  if (session.inputNames.length !== 1 || shape[1] !== size || shape[2] !== size || shape[3] !== channels) {
    throw new EngineError(
      'model_unavailable',
      `The face model ${source} does not take ${size}x${size}x${channels} images: a different model?`,
    );
  }
  return new Model(runtime.ort, session, size, channels);
}
