import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DetectedFace } from '../face.ts';
import { type FaceEngine, type HumanOptions, humanOptions, type RgbFrame } from '../face-engine.ts';
import { withEnginePose } from '../head-pose.ts';
import { faceConfig } from '../human-config.ts';

const require = createRequire(import.meta.url);

/** The subset of Human's API used here. */
interface HumanApi {
  load(): Promise<void>;
  detect(input: unknown): Promise<{ face: DetectedFace[] }>;
  tf: {
    tensor3d(values: Uint8Array, shape: [number, number, number], dtype: 'int32'): { dispose(): void };
  };
}

const HUMAN_DIR = join(dirname(require.resolve('@vladmandic/human')), '..');
const WASM_DIR = `${dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`;
export const HUMAN_MODELS_DIR = join(HUMAN_DIR, 'models');

let fetchPatched = false;
/** Node's fetch cannot read file:// URLs; Human loads its models with fetch. */
function allowFileFetch(): void {
  if (fetchPatched) return;
  fetchPatched = true;
  const networkFetch = globalThis.fetch;
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('file://')) return networkFetch(input, init);
    const body = await readFile(fileURLToPath(url));
    const type = url.endsWith('.json') ? 'application/json' : 'application/octet-stream';
    return new Response(body, { status: 200, headers: { 'content-type': type } });
  }) as typeof fetch;
}

/**
 * Human itself on TensorFlow's WebAssembly backend, with the models shipped inside its npm package:
 * the engine's runtime before onnxruntime (3x slower), kept to compare against (bench:engine, the
 * equivalence tests). Loaded by path because the package does not export its node-wasm build.
 * Expressions always use Human's own input (`expressionInput` does not apply).
 */
export async function createTfjsHuman(options: Partial<HumanOptions> = {}): Promise<FaceEngine> {
  const o = humanOptions(options);
  allowFileFetch();
  const { Human } = require(join(HUMAN_DIR, 'dist/human.node-wasm.js')) as {
    Human: new (config: object) => HumanApi;
  };
  // Only the detector may be skipped; mesh, iris and expressions run on every frame. Human allows
  // skipping when a frame differs little from the previous one (cacheSensitivity).
  const tracking = o.skipFrames > 0;
  const everyFrame = { skipFrames: 0, skipTime: 0 };
  const human = new Human({
    backend: 'wasm',
    wasmPath: WASM_DIR,
    modelBasePath: `${pathToFileURL(HUMAN_MODELS_DIR).href}/`,
    ...faceConfig({
      maxFaces: o.maxFaces,
      detectorSkip: { skipFrames: o.skipFrames, skipTime: tracking ? 60_000 : 0 },
      // Without tracking every frame is analysed afresh, however similar to the previous one.
      cacheSensitivity: tracking ? 0.7 : 0,
      mesh: { enabled: o.stages.mesh },
      iris: { enabled: o.stages.iris, ...everyFrame },
      emotion: { enabled: o.stages.emotion, minConfidence: 0, ...everyFrame },
    }),
  });
  await human.load();
  return {
    runtime: 'tfjs-wasm',
    // Human keeps its tracking state across calls and drops it when the picture changes.
    reset() {},
    async detect(frame: RgbFrame) {
      const tensor = human.tf.tensor3d(frame.data, [frame.height, frame.width, 3], 'int32');
      try {
        return (await human.detect(tensor)).face.map(withEnginePose);
      } finally {
        tensor.dispose();
      }
    },
  };
}
