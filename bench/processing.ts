// npm run bench:processing — the engine pool on real recordings at 10 fps sampling (gaze at the recording's 30):
// (a) throughput in recording seconds per CPU second of the pool's child (and of its ffmpeg),
// (b) wall time of a 60 s recording, (c) resident memory of one child over a long recording
// (default 30 min, BENCH_LONG_MINUTES), sampled every second, (d) a calibrated respondent (a gaze phantom: the
// moving dot, validation dots, fixations) as the worker analyses it: CPU per recording second against issue 31's goal
// (≤ 0.5 per core, decoding included), gaze samples a second, stored bytes per analysed frame (goal ≤ 100).
// Prints figures; asserts nothing.
// BENCH_PATH=recording runs analyzeRecording in the child instead of the session analysis; BENCH_LONG_ONLY=1 runs
// (c) alone.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ffmpegPaths, probeVideo } from '../packages/engine/src/node/ffmpeg.ts';
import { EnginePool } from '../packages/engine/src/node/pool.ts';
import type { SessionTask } from '../packages/engine/src/session-types.ts';
import { generate } from '../packages/phantom/src/generate.ts';
import { gazeCase } from '../packages/phantom/src/validation/cases.ts';
import { phantomTask } from '../packages/phantom/src/validation/run-engine.ts';

const DIR = resolve(import.meta.dirname, '../.tmp/bench');
const PHOTO = '/usr/lib/python3/dist-packages/skimage/data/astronaut.png';
const LONG_MINUTES = Number(process.env.BENCH_LONG_MINUTES ?? 30);
const PATH = process.env.BENCH_PATH === 'recording' ? 'recording' : 'session';
const LONG_ONLY = process.env.BENCH_LONG_ONLY === '1';

function ffmpeg(args: string[]): void {
  execFileSync(ffmpegPaths().ffmpeg, ['-v', 'error', '-y', ...args]);
}

/** 60 s, 640x480, 30 fps VP8: the astronaut's head drifting, zooming and rolling a little, like a respondent. */
function minuteVideo(): string {
  mkdirSync(DIR, { recursive: true });
  const file = resolve(DIR, 'processing-640x480-60s.webm');
  if (existsSync(file)) return file;
  ffmpeg([
    '-loop',
    '1',
    '-i',
    PHOTO,
    '-t',
    '60',
    '-r',
    '30',
    '-vf',
    [
      "scale='trunc(720*(1+0.06*sin(t*0.7))/2)*2':-2:eval=frame",
      "crop=640:480:'(iw-640)/2+25*sin(t*0.9)':'(ih-480)/2+20*sin(t*1.1)'",
      "rotate='0.1*sin(t*1.3)'",
    ].join(','),
    '-c:v',
    'libvpx',
    '-b:v',
    '800k',
    '-deadline',
    'realtime',
    '-cpu-used',
    '8',
    file,
  ]);
  return file;
}

/** The minute repeated into a long recording, stream-copied (no re-encoding). */
function longVideo(minute: string, minutes: number): string {
  const file = resolve(DIR, `processing-640x480-${minutes}min.webm`);
  if (!existsSync(file)) ffmpeg(['-stream_loop', String(minutes - 1), '-i', minute, '-c', 'copy', file]);
  return file;
}

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU seconds of a process and of its reaped children (ffmpeg), from /proc (Linux). */
function procCpu(pid: number): { own: number; children: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14–17 of proc(5): utime, stime, cutime, cstime; `fields` starts at field 3.
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number) as [number, number, number, number];
    return { own: (utime + stime) / clockTicks, children: (cutime + cstime) / clockTicks };
  } catch {
    return null;
  }
}

function task(file: string): SessionTask {
  return { sources: [{ file, offsetMs: 0 }], events: [], research: null, fps: 10 };
}

async function analyse(
  pool: EnginePool,
  file: string,
  onFrames?: (frames: number) => void,
): Promise<{ frames: number; seconds: number }> {
  if (PATH === 'recording') {
    const result = await pool.analyzeRecording(file, { fps: 10 }, { onProgress: (p) => onFrames?.(p.frames) });
    return { frames: result.summary.frames, seconds: result.source.durationSeconds ?? result.summary.durationSeconds };
  }
  const result = await pool.run(task(file), { onProgress: (p) => onFrames?.(p.frames) });
  return { frames: result.frameCount, seconds: result.recordingSeconds };
}

const minute = minuteVideo();
const info = await probeVideo(minute);
console.log(
  `Input: ${info.width}x${info.height} ${info.codec}, ${info.durationSeconds?.toFixed(0)} s at ${info.fps} fps; sampled at 10 fps; path: ${PATH === 'session' ? 'analyzeSession' : 'analyzeRecording'} in a pool child`,
);

// (a), (b): one child, warmed up (Human loaded) on the first seconds, then the whole minute.
if (!LONG_ONLY) {
  const pool = new EnginePool({ size: 1 });
  const warm = resolve(DIR, 'processing-warmup-3s.webm');
  if (!existsSync(warm)) ffmpeg(['-i', minute, '-t', '3', '-c', 'copy', warm]);
  await analyse(pool, warm);
  const pid = pool.stats().processes[0]?.pid ?? 0;
  const before = procCpu(pid);
  const start = performance.now();
  const done = await analyse(pool, minute);
  const wall = (performance.now() - start) / 1000;
  const after = procCpu(pid);
  if (before && after) {
    const own = after.own - before.own;
    const ffmpegCpu = after.children - before.children;
    console.log(
      `(a) throughput: ${(done.seconds / own).toFixed(2)} recording s per CPU s of the child (${own.toFixed(1)} CPU s for ${done.seconds.toFixed(1)} s, ${done.frames} frames, ${((1000 * own) / done.frames).toFixed(1)} ms CPU/frame); ` +
        `${(done.seconds / (own + ffmpegCpu)).toFixed(2)} with its ffmpeg decoder (${ffmpegCpu.toFixed(1)} CPU s): ` +
        `${((own + ffmpegCpu) / done.seconds).toFixed(2)} CPU s per recording s (goal ≤ 0.5)`,
    );
  } else {
    console.log('(a) throughput: /proc not readable on this system');
  }
  console.log(
    `(b) wall time of the 60 s recording: ${wall.toFixed(1)} s (${(done.seconds / wall).toFixed(2)}x real time, one child)`,
  );
  await pool.close();
}

// (d) a calibrated respondent at 30 fps: the whole analysis against the goal.
if (!LONG_ONLY) {
  const phantom = gazeCase('astronaut', 30);
  const generated = await generate(phantom.script, resolve(DIR, 'phantom'), { reuse: true });
  const pool = new EnginePool({ size: 1 });
  await analyse(pool, resolve(DIR, 'processing-warmup-3s.webm'));
  const pid = pool.stats().processes[0]?.pid ?? 0;
  const before = procCpu(pid);
  const result = await pool.run(phantomTask(generated.video, phantom.plan));
  const after = procCpu(pid);
  await pool.close();
  const { decodeFramesTable } = await import('../packages/engine/src/frames-codec.ts');
  const table = decodeFramesTable(result.frames);
  const analysed = table.gaze?.rows ?? table.rows;
  if (before && after) {
    const cpu = after.own - before.own + (after.children - before.children);
    const perSecond = cpu / result.recordingSeconds;
    console.log(
      `(d) calibrated respondent (${result.recordingSeconds.toFixed(1)} s at 30 fps, calibration ${result.summary.calibration.status}): ` +
        `${perSecond.toFixed(2)} CPU s per recording s with decoding (goal ≤ 0.5: ${perSecond <= 0.5 ? 'met' : 'NOT met'}); ` +
        `${result.frameCount} full frames, ${analysed} analysed in all, gaze ${result.summary.gazeSamplesPerSecond ?? '–'} samples/s; ` +
        `stored ${(result.frames.length / analysed).toFixed(1)} B per analysed frame (goal ≤ 100)`,
    );
  } else {
    console.log('(d) calibrated respondent: /proc not readable on this system');
  }
}

// (c) one fresh child over the long recording: RSS every second.
{
  const long = longVideo(minute, LONG_MINUTES);
  const pool = new EnginePool({ size: 1 });
  const samples: { t: number; rss: number }[] = [];
  const start = performance.now();
  let frames = 0;
  const timer = setInterval(() => {
    const rss = pool.stats().processes[0]?.rssMb;
    if (rss) samples.push({ t: (performance.now() - start) / 1000, rss });
    // A line a minute: a long run on a shared machine shows its trend before it ends.
    if (rss && samples.length % 60 === 0) {
      console.log(
        `    ${samples.length} s: ${frames} frames (${(frames / 600).toFixed(1)} min of recording), child RSS ${rss.toFixed(0)} MB`,
      );
    }
  }, 1000);
  const done = await analyse(pool, long, (n) => {
    frames = n;
  });
  const wall = (performance.now() - start) / 1000;
  clearInterval(timer);
  const cpu = pool.stats().cpuSeconds;
  await pool.close();
  const peak = samples.reduce((m, s) => (s.rss > m.rss ? s : m), samples[0] ?? { t: 0, rss: 0 });
  const at = (share: number) => samples[Math.min(samples.length - 1, Math.floor(share * samples.length))]?.rss ?? 0;
  console.log(
    `(c) ${LONG_MINUTES} min recording (${done.frames} frames) in ${wall.toFixed(0)} s wall, ${cpu.toFixed(0)} CPU s of the child: ${(done.seconds / cpu).toFixed(2)} recording s per CPU s`,
  );
  console.log(
    `    child RSS, MB: start ${samples[0]?.rss.toFixed(0)}, peak ${peak.rss.toFixed(0)} at ${peak.t.toFixed(0)} s, end ${samples.at(-1)?.rss.toFixed(0)}; ` +
      `at 10/25/50/75/90%: ${[0.1, 0.25, 0.5, 0.75, 0.9].map((s) => at(s).toFixed(0)).join(' / ')} (${samples.length} samples)`,
  );
}
