// npm run bench:engine — frames per second per core of each engine stage and of the whole pipeline at
// 640x480, on the engine's runtime (onnxruntime-node) and on Human's tfjs-wasm side by side, and the
// real-time factor of a 10 fps sampled recording. Prints figures; asserts nothing.
// BENCH_SECONDS (default 20) sets the test recording's length; BENCH_OLD=0 skips the tfjs-wasm runs.

import type { FaceEngine, HumanOptions } from '../packages/engine/src/face-engine.ts';
import { analyzeFrames } from '../packages/engine/src/node/analyze.ts';
import { decodeFrames, ffmpegPaths, probeVideo } from '../packages/engine/src/node/ffmpeg.ts';
import { createHuman, createTfjsHuman } from '../packages/engine/src/node/human.ts';
import { analyzeRecording } from '../packages/engine/src/node/recording.ts';
import { webcamLikeVideo } from './webcam-video.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);

function cpuSeconds(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

interface Figure {
  label: string;
  frames: number;
  wall: number;
  cpu: number;
}

function print(f: Figure): void {
  const perCore = f.frames / f.cpu;
  console.log(
    `${f.label.padEnd(44)} ${(f.frames / f.wall).toFixed(1).padStart(7)} frames/s wall  ${perCore.toFixed(1).padStart(7)} frames/s per core  ${((1000 * f.cpu) / f.frames).toFixed(1).padStart(6)} ms CPU/frame`,
  );
}

async function measure(label: string, run: () => Promise<number>): Promise<Figure> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const frames = await run();
  const figure = { label, frames, wall: (performance.now() - start) / 1000, cpu: cpuSeconds(cpu) };
  print(figure);
  return figure;
}

const file = webcamLikeVideo('webcam', SECONDS, '0');
const info = await probeVideo(file);
console.log(
  `Input: ${info.width}x${info.height} ${info.codec}, ${info.durationSeconds?.toFixed(0)} s at ${info.fps} fps; ffmpeg ${ffmpegPaths().ffmpeg}`,
);
console.log(
  '(per core = frames / CPU seconds of this process; ffmpeg runs in its own process, counted separately below)\n',
);

await measure('decode only (ffmpeg → RGB, 30 fps)', async () => {
  let n = 0;
  for await (const _ of decodeFrames(file, { fps: 30, width: 640, height: 480 })) n++;
  return n;
});

const stages: [string, Partial<HumanOptions>][] = [
  ['detector only', { skipFrames: 0, stages: { mesh: false, iris: false, emotion: false } }],
  ['detector + mesh', { skipFrames: 0, stages: { mesh: true, iris: false, emotion: false } }],
  ['detector + mesh + iris', { skipFrames: 0, stages: { mesh: true, iris: true, emotion: false } }],
  ['detector + mesh + expressions', { skipFrames: 0, stages: { mesh: true, iris: false, emotion: true } }],
  ['full pipeline, detector on every frame', { skipFrames: 0 }],
  ['full pipeline, tracking (detector every 6th)', { skipFrames: 5 }],
  ['full pipeline, tracking (detector every 16th)', { skipFrames: 15 }],
];
const runtimes: [string, (o: Partial<HumanOptions>) => Promise<FaceEngine>][] = [
  ['onnx', createHuman],
  ...(process.env.BENCH_OLD === '0' ? [] : [['tfjs', createTfjsHuman] as [string, typeof createTfjsHuman]]),
];
// One process, one core: the engine's sessions are single-threaded; tfjs-wasm has no threads in Node.
const perCore: Record<string, Record<string, number>> = {};
for (const [label, options] of stages) {
  for (const [runtime, create] of runtimes) {
    const engine = await create(options);
    const f = await measure(`${runtime}: ${label}, 30 fps`, async () => {
      let n = 0;
      for await (const _ of analyzeFrames(file, { human: engine, fps: 30, info })) n++;
      return n;
    });
    perCore[label] = { ...perCore[label], [runtime]: f.frames / f.cpu };
  }
}
console.log('\nframes/s per core (this process), 640x480, one core:');
console.log(`${'stage'.padEnd(48)} ${runtimes.map(([r]) => r.padStart(8)).join(' ')}`);
for (const [label] of stages) {
  console.log(
    `${label.padEnd(48)} ${runtimes.map(([r]) => (perCore[label]?.[r] ?? 0).toFixed(1).padStart(8)).join(' ')}`,
  );
}

console.log('');
const human = await createHuman();
const rss: number[] = [];
const recording = await measure('recording at 10 fps sampling (all metrics)', async () => {
  const result = await analyzeRecording(file, {
    human,
    fps: 10,
    info,
    onProgress: ({ frames }) => {
      if (frames % 50 === 0) rss.push(process.memoryUsage().rss / 2 ** 20);
    },
  });
  return result.summary.frames;
});
// Streaming keeps memory flat: the resident size every 50 frames (5 s of recording) during the run.
console.log(`rss during the run, MiB every 50 frames: ${rss.map((m) => m.toFixed(0)).join(' ')}`);
console.log(
  `real-time factor at 10 fps: ${(SECONDS / recording.wall).toFixed(2)}x (a ${SECONDS} s recording in ${recording.wall.toFixed(1)} s)`,
);
const memory = process.memoryUsage();
console.log(
  `memory after the runs: rss ${(memory.rss / 2 ** 20).toFixed(0)} MiB, heap ${(memory.heapUsed / 2 ** 20).toFixed(0)} MiB`,
);
