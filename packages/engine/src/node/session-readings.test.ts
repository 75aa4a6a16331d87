import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calibratedPicturesTask, photosAndHuman, rollingHeadVideo } from '../../test/fixtures.ts';
import { captureReadings } from '../../test/readings-capture.ts';
import { EngineError } from '../errors.ts';
import { decodeReadings, encodeReadings, type FrameReadings } from '../readings.ts';
import type { SessionResult, SessionTask } from '../session-types.ts';
import { probeVideo } from './ffmpeg.ts';
import type { HumanLike } from './human.ts';
import { analyzeSession } from './session.ts';
import { analyzeReadings, type ReadingsTask } from './session-readings.ts';

/**
 * Decision 063's tolerance: the largest difference between a session analysed from its video and from the readings
 * of the same frames (encoded, decoded), per quantity. The per-second series and the summary's means in their units.
 */
const EQUIVALENCE_TOLERANCE = {
  /** Expression scores, engagement, valence, smile index, attention and shares: 0..1 (or −1..1). */
  score: 1e-3,
  /** Gaze and calibration, screen or content pixels. */
  px: 1,
  /** Calibration accuracy and drift as % of the screen's diagonal (1 px of a 1920×1080 screen is 0.045 %). */
  percent: 0.05,
  /** Action units and their changes, inter-ocular distances. */
  unit: 1e-3,
  /** Head motion, degrees (per second). */
  degrees: 0.05,
  /** Distance, cm; iris size, px. */
  cm: 0.05,
  /** Anything else (frame counts, seconds, blinks, windows): equal. */
  exact: 1e-9,
} as const;

/** Which tolerance a value's path takes. */
function toleranceOf(path: string): number {
  const T = EQUIVALENCE_TOLERANCE;
  if (/accuracyPercent|meanPercent/.test(path)) return T.percent;
  if (/gaze|accuracyPx|validation|offset|meanPx|maxPx|(^|\.)x$|(^|\.)y$|contentX|contentY/i.test(path)) return T.px;
  if (/distance\.(cm|irisPx)/.test(path)) return T.cm;
  if (/head|yaw|pitch|roll|degrees/i.test(path)) return T.degrees;
  if (/actionUnits|units|lipCorner|brow|eyeClosure|jawDrop|lipPress|eyeAspectRatio/.test(path)) return T.unit;
  if (
    /engagement|valence|attention|smile|expressions|neutral|happy|surprise|sad|angry|disgust|fear|Share|blinks/i.test(
      path,
    )
  )
    return T.score;
  return T.exact;
}

interface Difference {
  path: string;
  a: unknown;
  b: unknown;
  diff: number;
  tolerance: number;
}

/** Every number of `a` against `b` (same shape), the largest difference per path family; shape differences listed. */
function compare(a: unknown, b: unknown, path = ''): Difference[] {
  if (typeof a === 'number' && typeof b === 'number') {
    const diff = Number.isNaN(a) && Number.isNaN(b) ? 0 : Math.abs(a - b);
    return [{ path, a, b, diff, tolerance: toleranceOf(path) }];
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length)
      return [{ path: `${path}.length`, a: a.length, b: b.length, diff: Infinity, tolerance: 0 }];
    return a.flatMap((x, i) => compare(x, b[i], `${path}[${i}]`));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) =>
      compare((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k),
    );
  }
  return a === b ? [] : [{ path, a, b, diff: Infinity, tolerance: 0 }];
}

/** Per path family (indices dropped), the largest difference. */
function largest(diffs: Difference[]): Map<string, Difference> {
  const out = new Map<string, Difference>();
  for (const d of diffs) {
    const key = d.path.replace(/\[\d+\]/g, '[]');
    if (!(d.diff <= (out.get(key)?.diff ?? -1))) out.set(key, d);
  }
  return out;
}

let human: HumanLike;
let task: SessionTask;
let video: SessionResult;
let readings: FrameReadings;
let bytes: Uint8Array;
let dir: string;
beforeAll(async () => {
  human = await photosAndHuman();
  // The calibrated pictures session (calibration, validation, two pictures) filmed at 30 fps: full frames at 10,
  // light ones between them at 30. Its windows cover the whole file, so the capture holds every frame the session read.
  const file = rollingHeadVideo({ fps: 30 }).file;
  task = { ...calibratedPicturesTask(), sources: [{ file, offsetMs: 0 }], fps: 10, gazeFps: 30 };
  const capture = captureReadings(human);
  video = await analyzeSession(task, { human: capture.engine });
  const info = await probeVideo(file);
  readings = capture.readings(video.sampling, 30, info.startTime);
  bytes = await encodeReadings(readings);
  dir = mkdtempSync(join(tmpdir(), 'readings-'));
}, 120_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const readingsTask = (r: FrameReadings): ReadingsTask => ({ ...task, sources: [{ offsetMs: 0, readings: r }] });

describe('a session from readings', () => {
  it('is the video’s session exactly when the readings are not quantised (one code path after the frames)', async () => {
    expect(readings.light.length).toBeGreaterThan(readings.full.length);
    const result = await analyzeReadings(readingsTask(readings));
    expect(result.summary).toEqual(video.summary);
    expect(result.series).toEqual(video.series);
    expect(result.frames).toEqual(video.frames);
    expect(result.recordingSeconds).toBeCloseTo(video.recordingSeconds, 9);
    expect(result.sampling).toEqual(video.sampling);
    expect(result.warnings).toEqual(video.warnings);
  });

  it('is the video’s session within decision 063’s tolerance after encoding and decoding', async () => {
    const decoded = await decodeReadings(bytes);
    const result = await analyzeReadings(readingsTask(decoded));
    expect(video.summary.calibration.status).toBe('calibrated');
    const diffs = [
      ...compare(result.summary, video.summary, 'summary'),
      ...compare(result.series, video.series, 'series'),
    ];
    // Quantisation moved the numbers (this is not the exact comparison again), within the tolerance.
    const worst = largest(diffs);
    expect([...worst.values()].filter((d) => d.diff > 0).length).toBeGreaterThan(20);
    const over = diffs.filter((d) => !(d.diff <= d.tolerance));
    expect(over.slice(0, 10)).toEqual([]);
  });

  it('runs in a process that loads no face model runtime and no decoder', async () => {
    const chunk = join(dir, 'chunk.bin');
    writeFileSync(chunk, bytes);
    writeFileSync(join(dir, 'task.json'), JSON.stringify({ ...task, sources: [] }));
    const script = join(dir, 'run.mts');
    writeFileSync(
      script,
      [
        `import { readFileSync } from 'node:fs';`,
        `import { analyzeReadings, decodeReadings } from ${JSON.stringify(join(import.meta.dirname, '../index.ts'))};`,
        `const task = JSON.parse(readFileSync(${JSON.stringify(join(dir, 'task.json'))}, 'utf8'));`,
        `const readings = await decodeReadings(new Uint8Array(readFileSync(${JSON.stringify(chunk)})));`,
        `const result = await analyzeReadings({ ...task, sources: [{ offsetMs: 0, readings }] });`,
        `const loaded = process.report.getReport().sharedObjects.filter((s) => /onnx|tensorflow|tfjs/i.test(s));`,
        `console.log(JSON.stringify({ loaded, meanEngagement: result.summary.meanEngagement, frames: result.frameCount }));`,
      ].join('\n'),
    );
    const out = execFileSync(process.execPath, ['--import', 'tsx', script], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
    });
    const child = JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
    const here = await analyzeReadings(readingsTask(await decodeReadings(bytes)));
    expect(child).toEqual({ loaded: [], meanEngagement: here.summary.meanEngagement, frames: here.frameCount });
  }, 60_000);

  it('refuses a multi-face task, a task without readings and readings out of order', async () => {
    const code = async (t: ReadingsTask) => {
      try {
        await analyzeReadings(t);
        return 'no error';
      } catch (error) {
        expect(error).toBeInstanceOf(EngineError);
        return (error as EngineError).code;
      }
    };
    expect(await code({ ...readingsTask(readings), multiFace: true })).toBe('invalid_options');
    expect(await code({ ...task, sources: [] })).toBe('invalid_options');
    const shuffled = { ...readings, full: [...readings.full].reverse() };
    expect(await code(readingsTask(shuffled))).toBe('invalid_readings');
  });
});
