// npm run bench:browser-engine — the recording analysis's face engine in headless Chromium (issue 32, item 1):
// the server's pipeline (packages/engine/src/onnx) on onnxruntime-web's WebAssembly in a Web Worker, its models and
// wasm served by the server's own engine-assets routes. Real frames (the astronaut photo, moving and rolling, 640x480,
// decoded by ffmpeg) go through the worker and, for comparison, through the server's engine (onnxruntime-node).
// Prints: frames analysed per second on 1 thread (and 2 where the page is cross-origin isolated), the page's added
// memory, and the largest per-frame differences of the outputs against the Node engine. Asserts nothing.
// Sizes: BENCH_FRAMES (default 80), BENCH_THREADS (default "1,2").
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { engineAssetsRoutes } from '../apps/server/src/modules/engine-assets/engine-assets.routes.ts';
import { readFrame } from '../packages/engine/src/face-engine.ts';
import { ffmpegPaths } from '../packages/engine/src/node/ffmpeg.ts';
import { createOnnxEngine, nodeRuntime } from '../packages/engine/src/node/onnx/model.ts';
import { MODEL_NAMES, type ModelName, type OrtModule } from '../packages/engine/src/onnx/model.ts';
import type { FaceData, FrameData } from '../packages/engine/src/types.ts';
import { bundleForBrowser, ENGINE_WORKER_ENTRY, launchChromium } from '../packages/engine/test/chromium.ts';
import { type BrowserFigures, PER_FRAME, profileModels } from './browser-engine-models.ts';
import type { PageBench, PageRun } from './browser-engine-page.ts';

const FRAMES = Number(process.env.BENCH_FRAMES ?? 80);
const THREADS = (process.env.BENCH_THREADS ?? '1,2').split(',').map(Number);
const WIDTH = 640;
const HEIGHT = 480;
const FPS = 10;
/** Frames left out of the rate: the first ones compile and warm the wasm. */
const WARMUP = 5;
const MiB = 1024 * 1024;

// A face moving across the frame and rolling ±7°, as a webcam respondent does; the detector runs on scene changes
// and every 5 frames, tracking in between, as on the server.
function decodeFrames(): Uint8Array[] {
  const photo = '/usr/lib/python3/dist-packages/skimage/data/astronaut.png';
  const filter = [
    'scale=720:720',
    `crop=${WIDTH}:${HEIGHT}:'40+40*sin(2*PI*t/4)':'60+40*sin(2*PI*t/5)'`,
    "rotate='0.12*sin(2*PI*t/3)':fillcolor=black",
  ].join(',');
  const bytes = execFileSync(
    ffmpegPaths().ffmpeg,
    [
      '-v',
      'error',
      '-loop',
      '1',
      '-framerate',
      String(FPS),
      '-i',
      photo,
      '-vf',
      filter,
      '-frames:v',
      String(FRAMES),
    ].concat(['-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1']),
    { maxBuffer: 1 << 30 },
  );
  const size = WIDTH * HEIGHT * 3;
  return Array.from({ length: FRAMES }, (_, i) => new Uint8Array(bytes.buffer, bytes.byteOffset + i * size, size));
}

async function serve(frames: Uint8Array[]) {
  const [page, worker] = await Promise.all([
    bundleForBrowser(join(import.meta.dirname, 'browser-engine-page.ts')),
    bundleForBrowser(ENGINE_WORKER_ENTRY),
  ]);
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Cross-origin isolated, so onnxruntime may use threads (SharedArrayBuffer).
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cross-origin-opener-policy', 'same-origin').header('cross-origin-embedder-policy', 'require-corp');
  });
  await app.register(engineAssetsRoutes());
  const js = 'text/javascript; charset=utf-8';
  app.get('/', async (_r, reply) =>
    reply.type('text/html').send('<!doctype html><script type="module" src="/page.js"></script>'),
  );
  app.get('/page.js', async (_r, reply) => reply.type(js).send(page));
  app.get('/worker.js', async (_r, reply) => reply.type(js).send(worker));
  app.get<{ Params: { i: string } }>('/frame/:i', async (request, reply) =>
    reply.type('application/octet-stream').send(Buffer.from(frames[Number(request.params.i)] ?? new Uint8Array())),
  );
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, address, bytes: { page: page.length, worker: worker.length } };
}

/** The processes descending from this one: the browser and its children. */
function browserPids(): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  const mine = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  return [...parent.keys()].filter(mine);
}

/** Proportional set size of the browser's processes, bytes. */
function browserPss(): number {
  let total = 0;
  for (const pid of browserPids()) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      total += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) * 1024;
    } catch {}
  }
  return total;
}

/** CPU seconds (user + system) the browser's processes have used. */
function browserCpu(): number {
  let ticks = 0;
  for (const pid of browserPids()) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return ticks / 100;
}

interface Diff {
  faceCount: number;
  landmarks: number;
  iris: number;
  depth: number;
  pose: number;
  expressions: number;
  eyes: number;
  brightness: number;
}

function compare(web: FrameData[], node: FrameData[]): Diff {
  const d: Diff = { faceCount: 0, landmarks: 0, iris: 0, depth: 0, pose: 0, expressions: 0, eyes: 0, brightness: 0 };
  const max = (k: keyof Diff, v: number) => {
    d[k] = Math.max(d[k], Number.isNaN(v) ? Number.POSITIVE_INFINITY : v);
  };
  for (const [i, n] of node.entries()) {
    const w = web[i] as FrameData;
    if (w.faceCount !== n.faceCount || !w.face !== !n.face) d.faceCount++;
    max('brightness', Math.abs(w.brightness - n.brightness));
    if (!w.face || !n.face) continue;
    const a: FaceData = w.face;
    const b: FaceData = n.face;
    for (const [j, p] of b.landmarks.entries()) {
      const q = a.landmarks[j] ?? [Number.NaN, Number.NaN, Number.NaN];
      max(j < 468 ? 'landmarks' : 'iris', Math.hypot(q[0] - p[0], q[1] - p[1]));
      max('depth', Math.abs(q[2] - p[2]));
    }
    for (const k of ['yaw', 'pitch', 'roll'] as const) max('pose', Math.abs(a.pose[k] - b.pose[k]));
    for (const [k, v] of Object.entries(b.expressions)) {
      max('expressions', Math.abs((a.expressions[k as keyof typeof a.expressions] ?? Number.NaN) - v));
    }
    if (a.eyes && b.eyes) {
      for (const side of ['left', 'right'] as const) {
        max('eyes', Math.abs(a.eyes[side].x - b.eyes[side].x));
        max('eyes', Math.abs(a.eyes[side].y - b.eyes[side].y));
      }
    } else if (!a.eyes !== !b.eyes) d.faceCount++;
  }
  return d;
}

const rate = (ms: number[]) => {
  const steady = ms.slice(WARMUP);
  return (1000 * steady.length) / steady.reduce((s, v) => s + v, 0);
};
const median = (v: number[]) => [...v].sort((x, y) => x - y)[Math.floor(v.length / 2)] ?? Number.NaN;

const frames = decodeFrames();
console.log(`${FRAMES} frames of ${WIDTH}x${HEIGHT} (astronaut, moving and rolling), ${FPS} fps clock`);

// The server's engine on the same frames: the reference, and its rate on this machine.
const nodeEngine = await createOnnxEngine();
const nodeFrames: FrameData[] = [];
const nodeMs: number[] = [];
let nodeCpu = 0;
for (const [index, data] of frames.entries()) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const { frame } = await readFrame(
    nodeEngine,
    { data, width: WIDTH, height: HEIGHT },
    { index, time: index / FPS },
    { multiFace: false, keepLandmarks: true },
  );
  nodeMs.push(performance.now() - started);
  const used = process.cpuUsage(cpu);
  if (index >= WARMUP) nodeCpu += (used.user + used.system) / 1e6;
  nodeFrames.push(frame);
}

const server = await serve(frames);
console.log(
  `worker bundle ${(server.bytes.worker / 1024).toFixed(0)} KiB, page bundle ${(server.bytes.page / 1024).toFixed(0)} KiB`,
);
const launch = () =>
  launchChromium({
    args: [
      '--js-flags=--expose-gc',
      // measureUserAgentSpecificMemory answers at once rather than at the next garbage collection.
      '--enable-blink-features=ForceEagerMeasureMemory',
    ],
  });
const rows: string[] = [];
let firstRun: { run: PageRun; added: number; peak: number; js: number | null; perCpuSecond: number } | null = null;
let webModels: Record<ModelName, number> | null = null;
const nodeModels = await profileModels(nodeRuntime((await import('onnxruntime-node')) as OrtModule));
try {
  for (const threads of THREADS) {
    // A browser of its own each, so one run's memory is not another's.
    const browser = await launch();
    const page = await browser.newPage();
    await page.goto(server.address);
    await page.waitForFunction(() => 'bench' in globalThis);
    await page.waitForTimeout(500);
    const memory = () => page.evaluate(() => (globalThis as unknown as { bench: PageBench }).bench.memory());
    const jsBefore = await memory();
    const before = browserPss();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, browserPss());
    }, 250);
    const started = await page.evaluate((t) => (globalThis as unknown as { bench: PageBench }).bench.start(t), threads);
    const part = (from: number, to: number) =>
      page.evaluate(([a, b, w, h, f]) => (globalThis as unknown as { bench: PageBench }).bench.run(a, b, w, h, f), [
        from,
        to,
        WIDTH,
        HEIGHT,
        FPS,
      ] as const);
    const warm = await part(0, WARMUP);
    const cpuBefore = browserCpu();
    const rest = await part(WARMUP, FRAMES);
    const cpu = browserCpu() - cpuBefore;
    clearInterval(sampler);
    const jsAfter = await memory();
    await page.waitForTimeout(1000);
    const run: PageRun = {
      frames: [...warm.frames, ...rest.frames],
      roundTripMs: [...warm.roundTripMs, ...rest.roundTripMs],
      workerMs: [...warm.workerMs, ...rest.workerMs],
    };
    const after = browserPss();
    peak = Math.max(peak, after);
    if (!started.isolated && threads > 1) console.log(`(page not cross-origin isolated: ${threads} threads ran as 1)`);
    rows.push(
      `${String(started.threads).padStart(7)} ${rate(run.roundTripMs).toFixed(1).padStart(10)} ${rate(run.workerMs).toFixed(1).padStart(10)} ` +
        `${median(run.roundTripMs).toFixed(1).padStart(10)} ${(started.loadMs / 1000).toFixed(2).padStart(8)} ` +
        `${((after - before) / MiB).toFixed(0).padStart(9)} ${((peak - before) / MiB).toFixed(0).padStart(9)} ` +
        `${((FRAMES - WARMUP) / cpu).toFixed(1).padStart(10)} ` +
        `${jsAfter === null || jsBefore === null ? '        -' : ((jsAfter - jsBefore) / MiB).toFixed(0).padStart(9)}`,
    );
    if (!firstRun) {
      firstRun = {
        run,
        added: after - before,
        peak: peak - before,
        js: jsAfter === null || jsBefore === null ? null : jsAfter - jsBefore,
        perCpuSecond: (FRAMES - WARMUP) / cpu,
      };
      webModels = await page.evaluate(() => (globalThis as unknown as { bench: PageBench }).bench.profile());
    }
    await page.evaluate(() => (globalThis as unknown as { bench: PageBench }).bench.stop());
    await browser.close();
  }
} finally {
  await server.app.close();
}

console.log(`\nframes analysed per second (after ${WARMUP} warm-up frames); memory = the browser's processes' PSS`);
console.log(
  "per CPU-s: frames over the browser processes' CPU time after the warm-up (the rate on an idle core, whatever the load)",
);
console.log(
  "added MB: the browser's processes' PSS after the frames less before the worker started (peak: sampled every 250 ms);",
);
console.log('JS+wasm MB: measureUserAgentSpecificMemory of the page and its worker, after less before');
console.log(' threads   page fps worker fps  median ms   load s  added MB   peak MB   per CPU-s JS+wasm MB');
for (const row of rows) console.log(row);
console.log(
  `onnxruntime-node (the server's engine, 1 thread, same frames): ${rate(nodeMs).toFixed(1)} fps, ` +
    `${((FRAMES - WARMUP) / nodeCpu).toFixed(1)} per CPU-second`,
);
console.log(`load average while measuring: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
if (webModels) {
  console.log('\neach model alone, fastest ms of 15 runs at its per-frame batch (browser: the page thread, 1 thread):');
  console.log('  model      batch   browser      node     ratio');
  let web = 0;
  let node = 0;
  for (const name of MODEL_NAMES) {
    const { batch, share } = PER_FRAME[name];
    web += share * webModels[name];
    node += share * nodeModels[name];
    console.log(
      `  ${name.padEnd(10)} ${String(batch).padStart(5)} ${webModels[name].toFixed(1).padStart(9)} ` +
        `${nodeModels[name].toFixed(1).padStart(9)} ${(webModels[name] / nodeModels[name]).toFixed(1).padStart(9)}`,
    );
  }
  console.log(`  per frame (detector 1 in 5): browser ${web.toFixed(1)} ms, node ${node.toFixed(1)} ms`);
}
if (firstRun) {
  const d = compare(firstRun.run.frames, nodeFrames);
  console.log('\nlargest difference, browser against Node engine, over all frames (main face):');
  console.log(`  frames with another face count or eyes:      ${d.faceCount} of ${FRAMES}`);
  console.log(`  mesh landmarks (468), px:                   ${d.landmarks.toExponential(2)}`);
  console.log(`  iris landmarks (10), px:                    ${d.iris.toExponential(2)}`);
  console.log(`  landmark depth (z):                         ${d.depth.toExponential(2)}`);
  console.log(`  head pose (yaw, pitch, roll), degrees:      ${d.pose.toExponential(2)}`);
  console.log(`  expression scores (0..1):                   ${d.expressions.toExponential(2)}`);
  console.log(`  iris in the eye (x, y), eye widths:         ${d.eyes.toExponential(2)}`);
  console.log(`  brightness:                                 ${d.brightness.toExponential(2)}`);
  console.log('\ngoals (issue 32, item 5):');
  console.log(
    `  ≥ 10 fps on 1 thread: ${rate(firstRun.run.roundTripMs).toFixed(1)} fps on this machine now, ` +
      `${firstRun.perCpuSecond.toFixed(1)} per CPU-second of the browser (the rate on an idle core)`,
  );
  console.log(
    `  ≤ 300 MB added to the page: ${(firstRun.added / MiB).toFixed(0)} MB (peak ${(firstRun.peak / MiB).toFixed(0)} MB)`,
  );
  // For bench:privacy-mode, which prints every figure of the item together.
  if (process.env.BENCH_FIGURES) {
    const figures: BrowserFigures = {
      fps: rate(firstRun.run.roundTripMs),
      perCpuSecond: firstRun.perCpuSecond,
      addedMiB: firstRun.added / MiB,
      peakMiB: firstRun.peak / MiB,
      load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    };
    writeFileSync(process.env.BENCH_FIGURES, JSON.stringify(figures));
  }
}
