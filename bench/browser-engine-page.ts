// The page of `npm run bench:browser-engine` (bundled by it with esbuild): starts the engine's Web Worker and
// feeds it the bench's frames, one at a time, as the respondent page would feed camera frames.
import { startEngineWorker } from '../packages/engine/src/browser/onnx-client.ts';
import { webRuntime } from '../packages/engine/src/browser/onnx-engine.ts';
import type { FrameData } from '../packages/engine/src/types.ts';
import { profileModels } from './browser-engine-models.ts';

export interface PageRun {
  frames: FrameData[];
  /** Per frame: the page's round trip (post to answer) and the worker's own time on the engine, ms. */
  roundTripMs: number[];
  workerMs: number[];
}

let engine: Awaited<ReturnType<typeof startEngineWorker>> | null = null;

const bench = {
  async start(threads: number) {
    engine = await startEngineWorker(new Worker('/worker.js', { type: 'module' }), { threads, keepLandmarks: true });
    return { loadMs: engine.loadMs, threads: engine.threads, isolated: crossOriginIsolated };
  },
  /** Frames `from` to `to` (exclusive) of the bench's. */
  async run(from: number, to: number, width: number, height: number, fps: number): Promise<PageRun> {
    if (!engine) throw new Error('start first');
    const out: PageRun = { frames: [], roundTripMs: [], workerMs: [] };
    for (let i = from; i < to; i++) {
      // Fetched outside the timing: the camera hands a frame over in well under a millisecond.
      const data = new Uint8Array(await (await fetch(`/frame/${i}`)).arrayBuffer());
      const started = performance.now();
      const result = await engine.analyse({ data, width, height, index: i, time: i / fps });
      out.roundTripMs.push(performance.now() - started);
      out.workerMs.push(result.ms);
      out.frames.push(result.frame);
    }
    return out;
  },
  /** Each model alone on this page's thread (not the worker's): where the time goes. */
  profile: () => profileModels(webRuntime({ threads: 1 })),
  /**
   * The page's and its worker's JavaScript and WebAssembly memory, bytes (`measureUserAgentSpecificMemory`: a
   * cross-origin isolated page only; null elsewhere), after a collection of the page's garbage.
   */
  async memory(): Promise<number | null> {
    (globalThis as { gc?: () => void }).gc?.();
    const measure = (performance as { measureUserAgentSpecificMemory?: () => Promise<{ bytes: number }> })
      .measureUserAgentSpecificMemory;
    return measure ? (await measure.call(performance)).bytes : null;
  },
  stop() {
    engine?.terminate();
    engine = null;
  },
};

(globalThis as unknown as { bench: typeof bench }).bench = bench;
export type PageBench = typeof bench;
