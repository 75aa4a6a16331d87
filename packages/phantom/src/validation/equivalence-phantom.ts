/**
 * The phantom of privacy mode's equivalence test (issue 32, item 4; decision 070): one short respondent session with
 * something happening in every series the report reads — the page's calibration (a 7 s moving dot: shorter, its steps would count as jumps) and two
 * validation dots, then a 4 s research in which the eyes jump between three screen points, the face smiles, blinks
 * twice and the head turns 10° aside and back — at 30 fps, 640 × 480, as the respondent page asks of a webcam.
 *
 * Every picture carries its frame's number (frame-codes.ts). The server analyses the numbered webm; Chromium's fake
 * camera plays a y4m of the same decoded pictures after `MARKER_FRAMES` numbered black ones, from which the page
 * tells where the recording starts in the camera's loop (the fake camera loops the file from when it opens, at a
 * moment the page does not choose), and both sides tell which picture each analysed frame showed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { ffmpegPaths } from '@emolens/engine';
import { type Generated, generate } from '../generate.ts';
import { parseScript, type Script } from '../script.ts';
import { CODE_BITS, CODE_PX, MARKER_FRAMES } from './frame-codes.ts';
import { LAPTOP_SCREEN, type PlannedSession, planSession } from './session-plan.ts';
import { sessionScript } from './to-script.ts';

const FPS = 30;

/** ffmpeg's filter drawing the code of frame n as n + `first`. */
function codeFilter(first: number): string {
  const boxes = [`drawbox=x=0:y=0:w=${CODE_BITS * CODE_PX}:h=${CODE_PX}:color=black:t=fill`];
  for (let b = 0; b < CODE_BITS; b++) {
    const on = `gte(mod(n+${first},${2 ** (b + 1)}),${2 ** b})`;
    boxes.push(`drawbox=x=${b * CODE_PX}:y=0:w=${CODE_PX}:h=${CODE_PX}:color=white:t=fill:enable='${on}'`);
  }
  return boxes.join(',');
}

export interface EquivalencePhantom extends NumberedRecording {
  script: Script;
  plan: PlannedSession;
}

export function equivalencePlan(): PlannedSession {
  const { width: w, height: h } = LAPTOP_SCREEN;
  const saccade = 50;
  // Away from the screen's edges: a gaze estimate off by its ~100 px error must not leave the screen (attention).
  const points = [
    { t: 0, x: 0.3 * w, y: 0.35 * h },
    { t: 1300, x: 0.7 * w, y: 0.35 * h },
    { t: 2500, x: 0.5 * w, y: 0.65 * h },
  ];
  const content = points.flatMap((p, i) => {
    const end = points[i + 1]?.t ?? 4000;
    return [
      { t: p.t + (i ? saccade : 0), x: Math.round(p.x), y: Math.round(p.y) },
      { t: end, x: Math.round(p.x), y: Math.round(p.y) },
    ];
  });
  return planSession({
    leadInMs: 300,
    calibrationSeconds: 7,
    validationDots: 2,
    content,
    researchMs: 4000,
    tailMs: 300,
  });
}

export function equivalenceScript(plan: PlannedSession, source = 'astronaut'): Script {
  const at = plan.research.start;
  return parseScript({
    name: 'browser-equivalence',
    description:
      'a 7 s calibration and 2 validation dots, then 4 s of research: gaze on 3 points, a smile, 2 blinks, a 10° head turn',
    source,
    seed: 1,
    fps: FPS,
    ...sessionScript(plan),
    expressions: [
      { kind: 'smile', intensity: 0.8, onsetMs: at + 400, apexMs: at + 1000, offsetMs: at + 2600, endMs: at + 3300 },
    ],
    blinks: [
      { startMs: at + 900, durationMs: 150 },
      { startMs: at + 2100, durationMs: 200 },
    ],
    // 10°: the gaze fit's head-pose terms are learned from a calibration in which the head stays still (its pose moves
    // by the mesh's noise alone), so a turn is an extrapolation each side's noise decides; at 18° the two sides' gaze
    // differed by up to 364 px in the turn's second, and attention flipped with it (decision 070).
    pose: [
      { t: 0, yaw: 0 },
      { t: at + 2700, yaw: 0 },
      { t: at + 3100, yaw: 10 },
      { t: at + 3300, yaw: 10 },
      { t: at + 3700, yaw: 0 },
    ],
  });
}

function ffmpeg(args: string[]): void {
  execFileSync(ffmpegPaths().ffmpeg, ['-v', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A recording numbered (frame-codes.ts), and the fake camera's file of it. */
export interface NumberedRecording {
  /** The recording, each frame carrying its number (VP8 again): what the server analyses. */
  video: string;
  /** `MARKER_FRAMES` numbered black frames, then the video's frames decoded (yuv420p): what the fake camera plays. */
  camera: string;
  fps: number;
  frames: number;
}

/**
 * The phantom recording `made` numbered beside it (`<name>.coded.webm`, `<name>.camera.y4m`), kept while the
 * recording's inputs are the same.
 */
export function numberRecording(made: Generated, script: Script): NumberedRecording {
  if (made.frames >= 2 ** CODE_BITS - MARKER_FRAMES) throw new Error('the recording is too long for its frame codes');
  const base = made.video.replace(/\.webm$/, '');
  const video = `${base}.coded.webm`;
  const camera = `${base}.camera.y4m`;
  const stamp = `${readFileSync(`${base}.inputs`, 'utf8')} ${codeFilter(1)} marker ${MARKER_FRAMES}`;
  const stampPath = `${base}.coded.inputs`;
  if (![video, camera, stampPath].every(existsSync) || readFileSync(stampPath, 'utf8') !== stamp) {
    rmSync(stampPath, { force: true });
    const { width, height } = script.frame;
    const { fps } = script;
    // VP8 on one thread at a fixed speed, as the phantom's own encoding: the same file on every machine.
    const vp8 = ['-c:v', 'libvpx', '-b:v', '2M', '-deadline', 'realtime', '-cpu-used', '-8', '-threads', '1'];
    ffmpeg(['-i', made.video, '-vf', codeFilter(1), ...vp8, '-pix_fmt', 'yuv420p', video]);
    const marker = `color=c=black:s=${width}x${height}:r=${fps}:d=${MARKER_FRAMES / fps},${codeFilter(2 ** CODE_BITS - MARKER_FRAMES)}`;
    ffmpeg([
      ...['-f', 'lavfi', '-i', marker, '-i', video],
      ...['-filter_complex', '[0]format=yuv420p,setsar=1[m];[1]setsar=1[r];[m][r]concat=n=2:v=1[v]', '-map', '[v]'],
      ...['-pix_fmt', 'yuv420p', '-f', 'yuv4mpegpipe', camera],
    ]);
    writeFileSync(stampPath, stamp);
  }
  return { video, camera, fps: script.fps, frames: made.frames };
}

/** The phantom drawn into `dir` (kept and reused there while its inputs are the same, as the validation's). */
export async function equivalencePhantom(dir: string, source = 'astronaut'): Promise<EquivalencePhantom> {
  const plan = equivalencePlan();
  const script = equivalenceScript(plan, source);
  const numbered = numberRecording(await generate(script, dir, { reuse: true }), script);
  return { script, plan, ...numbered };
}
