// npm run bench:privacy-mode — issue 32's privacy mode (item 5), on a real analysed recording: a calibrated respondent
// phantom (the moving dot, validation dots, a 3 × 3 grid of fixations) at 30 fps.
// Prints, beside the goals: the readings uploaded per minute (full frames at 10 fps + light at 30, and 30 + 30), as
// the page would send them (10 s chunks) and as one chunk; the server's CPU per respondent-minute analysing the
// readings (decode, merge, analyzeReadings) and the video (analyzeSession: ffmpeg decoding and the face models), and
// their ratio; how far the two sessions' figures lie apart (decision 063); and, from bench:browser-engine run on one
// thread, the frames the page's engine analyses a second in headless Chromium and the page's added memory. Ends with
// the four figures of the item beside their goals. Asserts nothing.
// BENCH_REPEAT (default 5): readings analyses averaged.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeFramesTable } from '../packages/engine/src/frames-codec.ts';
import { probeVideo } from '../packages/engine/src/node/ffmpeg.ts';
import { createHuman } from '../packages/engine/src/node/human.ts';
import { analyzeSession } from '../packages/engine/src/node/session.ts';
import { analyzeReadings } from '../packages/engine/src/node/session-readings.ts';
import { decodeReadings, encodeReadings, type FrameReadings, mergeReadings } from '../packages/engine/src/readings.ts';
import type { SessionResult, SessionTask } from '../packages/engine/src/session-types.ts';
import { captureReadings } from '../packages/engine/test/readings-capture.ts';
import { generate } from '../packages/phantom/src/generate.ts';
import { gazeCase } from '../packages/phantom/src/validation/cases.ts';
import { phantomTask } from '../packages/phantom/src/validation/run-engine.ts';
import type { BrowserFigures } from './browser-engine-models.ts';

const DIR = resolve(import.meta.dirname, '../.tmp/bench');
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const CHUNK_SECONDS = 10;
const GOAL_BYTES_PER_MINUTE = 50_000;
const GOAL_RATIO = 20;
const GOAL_FPS = 10;
const GOAL_ADDED_MIB = 300;

const clockTicks = 100;
/** CPU seconds of this process (process.cpuUsage) and of its reaped children (ffmpeg: /proc/self/stat, Linux). */
function cpu(): { own: number; children: number } {
  const { user, system } = process.cpuUsage();
  let children = Number.NaN;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    children = (Number(fields[13]) + Number(fields[14])) / clockTicks;
  } catch {
    // Not Linux: ffmpeg's share is not counted.
  }
  return { own: (user + system) / 1e6, children };
}

/** The readings cut into the page's chunks of `seconds` (by time), each encoded on its own. */
async function chunks(r: FrameReadings, seconds: number): Promise<Uint8Array[]> {
  const end = Math.max(r.full.at(-1)?.time ?? 0, r.light.at(-1)?.time ?? 0);
  const out: Uint8Array[] = [];
  for (let t = 0; t <= end; t += seconds) {
    const inside = (f: { time: number }) => f.time >= t && f.time < t + seconds;
    out.push(
      await encodeReadings({ sampling: r.sampling, full: r.full.filter(inside), light: r.light.filter(inside) }),
    );
  }
  return out;
}

const total = (parts: Uint8Array[]) => parts.reduce((s, p) => s + p.length, 0);
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

const phantom = gazeCase('astronaut', 30);
const generated = await generate(phantom.script, resolve(DIR, 'phantom'), { reuse: true });
const info = await probeVideo(generated.video);
const human = await createHuman();
const taskAt = (fps: number): SessionTask => ({ ...phantomTask(generated.video, phantom.plan, fps), gazeFps: 30 });
console.log(
  `Recording: the ${phantom.script.name} phantom, ${info.width}x${info.height} at ${info.fps} fps, ${info.durationSeconds?.toFixed(1)} s`,
);

// The readings the page would upload: the frames the session reads, captured (this run also warms the models up).
async function captured(fps: number): Promise<{ readings: FrameReadings; result: SessionResult }> {
  const capture = captureReadings(human);
  const result = await analyzeSession(taskAt(fps), { human: capture.engine });
  return { readings: capture.readings(result.sampling, 30, info.startTime), result };
}

const at10 = await captured(10);
const at30 = await captured(30);
/** The default rates' readings a minute, as the page sends them: the item's upload figure. */
let uploadedPerMinute = Number.NaN;
for (const [label, { readings, result }] of [
  ['fps 10 + gazeFps 30', at10],
  ['fps 30 + gazeFps 30', at30],
] as const) {
  const minutes = result.recordingSeconds / 60;
  const chunked = total(await chunks(readings, CHUNK_SECONDS));
  const whole = (await encodeReadings(readings)).length;
  const perMinute = chunked / minutes;
  if (readings === at10.readings) uploadedPerMinute = perMinute;
  console.log(
    `Uploaded readings, ${label} (${readings.full.length} full + ${readings.light.length} light frames over ${result.recordingSeconds.toFixed(1)} s): ` +
      `${kb(perMinute)} per minute in ${CHUNK_SECONDS} s chunks, ${kb(whole / minutes)} as one chunk ` +
      `(goal ≤ ${kb(GOAL_BYTES_PER_MINUTE)}: ${perMinute <= GOAL_BYTES_PER_MINUTE ? 'met' : 'NOT met'}; ` +
      `${(((readings.full.length + readings.light.length) * 1000) / chunked).toFixed(1)} frames per KB)`,
  );
}
console.log(
  `  the video itself: ${kb(statSync(generated.video).size / ((info.durationSeconds ?? Number.NaN) / 60))} per minute (the phantom's encoder, not a browser's)`,
);

// Server CPU per respondent-minute: the video analysed as today, then the readings (as uploaded in chunks).
const task10 = taskAt(10);
const before = cpu();
const video = await analyzeSession(task10, { human });
const after = cpu();
const videoCpu = after.own - before.own + (after.children - before.children);
const uploaded = await chunks(at10.readings, CHUNK_SECONDS);
let readingsCpu = 0;
let fromReadings: SessionResult | null = null;
for (let k = 0; k < REPEAT; k++) {
  const start = cpu();
  const segment = mergeReadings(await Promise.all(uploaded.map((c) => decodeReadings(c))));
  fromReadings = await analyzeReadings({ ...task10, sources: [{ offsetMs: 0, readings: segment }] });
  readingsCpu += cpu().own - start.own;
}
readingsCpu /= REPEAT;
const minutes = video.recordingSeconds / 60;
const ratio = videoCpu / readingsCpu;
console.log(
  `Server CPU per respondent-minute: ${(videoCpu / minutes).toFixed(2)} s analysing the video (${(after.own - before.own).toFixed(1)} s engine + ${(after.children - before.children).toFixed(1)} s ffmpeg for ${video.recordingSeconds.toFixed(1)} s), ` +
    `${(readingsCpu / minutes).toFixed(3)} s from the readings (decode + merge + analyzeReadings, mean of ${REPEAT}): ` +
    `${ratio.toFixed(0)}× less (goal ≥ ${GOAL_RATIO}×: ${ratio >= GOAL_RATIO ? 'met' : 'NOT met'})`,
);

/** The largest distance between the two sessions' gaze track points (screen px); NaN where one has a point and not the other. */
function gazeApart(a: SessionResult, b: SessionResult): number {
  const [ga, gb] = [decodeFramesTable(a.frames).gaze, decodeFramesTable(b.frames).gaze];
  if (!ga || !gb || ga.rows !== gb.rows) return Number.NaN;
  let worst = 0;
  for (let i = 0; i < ga.rows; i++) {
    const dx = (ga.columns.gaze_x[i] as number) - (gb.columns.gaze_x[i] as number);
    const dy = (ga.columns.gaze_y[i] as number) - (gb.columns.gaze_y[i] as number);
    const both = Number.isNaN(ga.columns.gaze_x[i] as number) && Number.isNaN(gb.columns.gaze_x[i] as number);
    worst = Math.max(worst, both ? 0 : Math.hypot(dx, dy));
  }
  return worst;
}

// How far the readings' session lies from the video's (quantisation only, decision 063).
if (fromReadings) {
  const r = fromReadings;
  const d = (a: number | null | undefined, b: number | null | undefined) =>
    a === null || a === undefined || b === null || b === undefined ? (a === b ? 0 : Number.NaN) : Math.abs(a - b);
  const maxOf = (a: (number | null)[], b: (number | null)[]) => Math.max(0, ...a.map((x, i) => d(x, b[i])));
  console.log(
    `Readings vs video (same frames): mean engagement ±${d(r.summary.meanEngagement, video.summary.meanEngagement).toExponential(1)}, ` +
      `valence ±${d(r.summary.meanValence, video.summary.meanValence).toExponential(1)}, ` +
      `attention share ±${d(r.summary.attentionShare, video.summary.attentionShare).toExponential(1)}, ` +
      `calibration accuracy ±${d(r.summary.calibration.accuracyPx, video.summary.calibration.accuracyPx).toFixed(3)} px, ` +
      `blinks/min ±${d(r.summary.motion?.blinksPerMinute, video.summary.motion?.blinksPerMinute).toFixed(3)}; ` +
      `per second: engagement ±${maxOf(r.series.engagement, video.series.engagement).toExponential(1)}, ` +
      `valence ±${maxOf(r.series.valence, video.series.valence).toExponential(1)} ` +
      `(${video.series.second.length} seconds; buckets ${r.series.second.length === video.series.second.length ? 'the same' : 'DIFFER'}); ` +
      `per frame, gaze on screen ±${gazeApart(r, video).toFixed(3)} px (the gaze track, ${decodeFramesTable(video.frames).gaze?.rows ?? 0} samples)`,
  );
}
// The page's side: bench:browser-engine on one thread (its full table: npm run bench:browser-engine).
const figuresFile = resolve(DIR, 'browser-figures.json');
execFileSync(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, 'browser-engine.ts')], {
  env: { ...process.env, BENCH_THREADS: '1', BENCH_FRAMES: '60', BENCH_FIGURES: figuresFile },
  stdio: 'ignore',
});
const browser = JSON.parse(readFileSync(figuresFile, 'utf8')) as BrowserFigures;
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
console.log('\nGoals (issue 32, item 5):');
console.log(
  `  frames analysed a second in headless Chromium, 1 thread: ${browser.perCpuSecond.toFixed(1)} per CPU-second of the ` +
    `browser (the rate on one idle core), ${browser.fps.toFixed(1)} wall clock at load ${browser.load} ` +
    `(goal ≥ ${GOAL_FPS}: ${met(browser.perCpuSecond >= GOAL_FPS)})`,
);
console.log(
  `  the page's added memory: ${browser.addedMiB.toFixed(0)} MB (peak ${browser.peakMiB.toFixed(0)} MB) ` +
    `(goal ≤ ${GOAL_ADDED_MIB} MB: ${met(browser.addedMiB <= GOAL_ADDED_MIB)})`,
);
console.log(
  `  bytes uploaded a minute (10 + 30 fps): ${kb(uploadedPerMinute)} (goal ≤ ${kb(GOAL_BYTES_PER_MINUTE)}: ` +
    `${met(uploadedPerMinute <= GOAL_BYTES_PER_MINUTE)})`,
);
console.log(
  `  the server's CPU per respondent-minute: ${ratio.toFixed(0)}× less (goal ≥ ${GOAL_RATIO}×: ${met(ratio >= GOAL_RATIO)})`,
);
