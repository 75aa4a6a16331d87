// Each model of the face engine timed alone, at the batch the engine runs it per frame, on a given runtime: where
// the browser's time goes against the server's (bench:browser-engine).
import {
  MODEL_INPUTS,
  MODEL_NAMES,
  type ModelName,
  type OnnxRuntime,
  SESSION_OPTIONS,
} from '../packages/engine/src/onnx/model.ts';

/** Per analysed frame: the detector on one frame in 5 (`skipFrames`), both eyes at one shift, 2 shifts × mirror. */
export const PER_FRAME: Record<ModelName, { batch: number; share: number }> = {
  blazeface: { batch: 1, share: 0.2 },
  facemesh: { batch: 1, share: 1 },
  iris: { batch: 2, share: 1 },
  emotion: { batch: 4, share: 1 },
};

/** The fastest of `runs` runs of each model (after 3 warm-up runs), ms: the least disturbed by other work on the machine. */
export async function profileModels(runtime: OnnxRuntime, runs = 15): Promise<Record<ModelName, number>> {
  const out = {} as Record<ModelName, number>;
  for (const name of MODEL_NAMES) {
    const session = await runtime.ort.InferenceSession.create(await runtime.modelBytes(name), {
      ...SESSION_OPTIONS,
      ...runtime.sessionOptions,
    });
    const [size, channels] = MODEL_INPUTS[name];
    const { batch } = PER_FRAME[name];
    const data = new Float32Array(batch * size * size * channels).map((_, i) => Math.sin(i) * 0.5);
    const times: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      const input = new runtime.ort.Tensor('float32', data, [batch, size, size, channels]);
      const started = performance.now();
      await session.run({ [session.inputNames[0] as string]: input });
      if (i >= 3) times.push(performance.now() - started);
    }
    await session.release();
    out[name] = Math.min(...times);
  }
  return out;
}

/** What bench:browser-engine hands bench:privacy-mode (`BENCH_FIGURES`): its first run's goal figures. */
export interface BrowserFigures {
  /** Frames analysed a second, wall clock, on this machine as loaded as it was. */
  fps: number;
  /** Frames per CPU-second of the browser's processes: the rate on one idle core. */
  perCpuSecond: number;
  addedMiB: number;
  peakMiB: number;
  /** The load average when it ended. */
  load: string;
}
