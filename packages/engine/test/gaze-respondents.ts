/**
 * Synthetic respondents for the gaze calibration's tests: a screen, a known mapping from where a respondent looks
 * (and how the head is turned) to iris positions, its exact inverse (the oracle) and sessions of calibration dots at
 * 10 fps, with noise, head turns and late saccades as asked.
 */
import { calibrationSamples, splitCalibration } from '../src/gaze.ts';
import { gaussian, prng } from '../src/random.ts';
import type { EventLog, EyeFeatures, FaceData, FrameData, HeadPose, ScreenPoint, StimulusEvent } from '../src/types.ts';

export const SCREEN = { width: 1920, height: 1080 };
export const DIAGONAL = Math.hypot(SCREEN.width, SCREEN.height); // 2203 px

/**
 * The KNOWN mapping from where the respondent looks (and how the head is turned) to iris positions. The eye turns
 * by what the head does not: a = u − yaw/20, b = w − pitch/15 for normalised screen offsets u, w ∈ [−1, 1]; the
 * conjugate iris offsets are h = 0.09·a + q·a² and v = 0.06·b + r·a·b (q = r = 0: affine). Each eye's x runs from
 * its outer to its inner corner, so h moves the eyes' x in opposite directions.
 */
export interface Mapping {
  q: number;
  r: number;
}
export const AFFINE: Mapping = { q: 0, r: 0 };
export const CURVED: Mapping = { q: 0.005, r: 0.004 };

export function eyesFor(target: ScreenPoint, pose: HeadPose, mapping: Mapping): EyeFeatures {
  const a = (target.x - 960) / 960 - pose.yaw / 20;
  const b = (target.y - 540) / 540 - pose.pitch / 15;
  const h = 0.09 * a + mapping.q * a * a;
  const v = 0.06 * b + mapping.r * a * b;
  return {
    left: { x: 0.48 - h, y: -0.05 + v + 0.001 * pose.roll },
    right: { x: 0.52 + h, y: -0.05 + v - 0.001 * pose.roll },
  };
}

/** The exact inverse of `eyesFor`: the best any decoder can do, knowing the mapping. */
function oracle(eyes: EyeFeatures, pose: HeadPose, mapping: Mapping): ScreenPoint {
  const h = (eyes.right.x - eyes.left.x) / 2 - 0.02;
  const v = (eyes.left.y + eyes.right.y) / 2 + 0.05;
  const a = mapping.q === 0 ? h / 0.09 : (-0.09 + Math.sqrt(0.09 ** 2 + 4 * mapping.q * h)) / (2 * mapping.q);
  const b = v / (0.06 + mapping.r * a);
  return { x: 960 + 960 * (a + pose.yaw / 20), y: 540 + 540 * (b + pose.pitch / 15) };
}

export function grid(cols: number, rows: number): ScreenPoint[] {
  const points: ScreenPoint[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      points.push({
        x: Math.round(SCREEN.width * (0.1 + (0.8 * c) / (cols - 1))),
        y: Math.round(SCREEN.height * (0.1 + (0.8 * r) / (rows - 1))),
      });
    }
  }
  return points;
}

const NEUTRAL = { neutral: 1, happy: 0, surprise: 0, sad: 0, angry: 0, disgust: 0, fear: 0 };

export function face(eyes: EyeFeatures | null, pose: HeadPose = { yaw: 0, pitch: 0, roll: 0 }): FaceData {
  return { box: { x: 0, y: 0, width: 100, height: 100 }, score: 0.9, landmarks: [], pose, expressions: NEUTRAL, eyes };
}

export function frame(index: number, time: number, f: FaceData | null, flags: FrameData['flags'] = []): FrameData {
  return { index, time, faceCount: f ? 1 : 0, face: f, brightness: 0.5, flags };
}

export interface SessionOptions {
  seed: number;
  dots: ScreenPoint[];
  mapping?: Mapping;
  /** SD of each iris coordinate per frame, eye widths. */
  irisNoise?: number;
  /** SD of the measured yaw/pitch/roll per frame, degrees. */
  poseNoise?: number;
  dotMs?: number;
  /** Indices of dots the log marks as validation. */
  validation?: number[];
  /** Frames during the first `lagMs` after a jump still look at the previous dot (a saccade not yet done). */
  lagMs?: number;
}

export interface Session {
  frames: FrameData[];
  log: EventLog;
  /** Measured pose per frame index, for the oracle. */
  poses: HeadPose[];
  mapping: Mapping;
}

export const CALIBRATION_START_MS = 1000;
export const FPS = 10;

/**
 * A respondent at 10 fps: calibration from 1 s, one dot every `dotMs`, content for 1 s after. The head sits at a
 * random pose per dot (SD 4° yaw, 3° pitch, 2° roll) and jitters 0.3° per frame; the eyes follow `mapping`;
 * iris and pose measurements get Gaussian noise. Frame times sit half a frame off the dot boundaries.
 */
export function session(options: SessionOptions): Session {
  const rand = prng(options.seed);
  const mapping = options.mapping ?? CURVED;
  const dotMs = options.dotMs ?? 1500;
  const irisNoise = options.irisNoise ?? 0;
  const poseNoise = options.poseNoise ?? 0;
  const events: StimulusEvent[] = [{ type: 'calibration_start', t: CALIBRATION_START_MS }];
  const dotPoses: HeadPose[] = [];
  options.dots.forEach((dot, k) => {
    events.push({
      type: 'calibration_dot',
      t: CALIBRATION_START_MS + k * dotMs,
      x: dot.x,
      y: dot.y,
      ...(options.validation?.includes(k) ? { validation: true } : {}),
    });
    dotPoses.push({ yaw: 4 * gaussian(rand), pitch: 3 * gaussian(rand), roll: 2 * gaussian(rand) });
  });
  const endMs = CALIBRATION_START_MS + options.dots.length * dotMs;
  events.push({ type: 'calibration_end', t: endMs });
  events.push({ type: 'video_play', t: endMs + 10 });

  const centre = { x: 960, y: 540 };
  const still = { yaw: 0, pitch: 0, roll: 0 };
  const frames: FrameData[] = [];
  const poses: HeadPose[] = [];
  for (let i = 0; ((i + 0.5) / FPS) * 1000 < endMs + 1000; i++) {
    const time = (i + 0.5) / FPS;
    const ms = time * 1000;
    const k = Math.floor((ms - CALIBRATION_START_MS) / dotMs);
    const inCalibration = k >= 0 && k < options.dots.length;
    const lagging = inCalibration && ms - (CALIBRATION_START_MS + k * dotMs) < (options.lagMs ?? 0);
    const looked = lagging
      ? (options.dots[k - 1] ?? centre)
      : inCalibration
        ? (options.dots[k] as ScreenPoint)
        : centre;
    const base = inCalibration ? (dotPoses[k] as HeadPose) : still;
    const pose = {
      yaw: base.yaw + 0.3 * gaussian(rand),
      pitch: base.pitch + 0.3 * gaussian(rand),
      roll: base.roll + 0.3 * gaussian(rand),
    };
    const eyes = eyesFor(looked, pose, mapping);
    const noise = () => irisNoise * gaussian(rand);
    const measuredEyes = {
      left: { x: eyes.left.x + noise(), y: eyes.left.y + noise() },
      right: { x: eyes.right.x + noise(), y: eyes.right.y + noise() },
    };
    const measuredPose = {
      yaw: pose.yaw + poseNoise * gaussian(rand),
      pitch: pose.pitch + poseNoise * gaussian(rand),
      roll: pose.roll + poseNoise * gaussian(rand),
    };
    poses.push(measuredPose);
    frames.push(frame(i, time, face(measuredEyes, measuredPose)));
  }
  return { frames, log: { screen: SCREEN, events }, poses, mapping };
}

/** Mean Euclidean error of the oracle on the validation frames the model is scored on. */
export function oracleError(s: Session): number {
  const split = splitCalibration(calibrationSamples(s.frames, s.log));
  if (!split.ok) throw new Error(split.reason);
  let sum = 0;
  for (const sample of split.validation) {
    const f = s.frames[sample.frameIndex] as FrameData;
    const p = oracle(f.face?.eyes as EyeFeatures, s.poses[sample.frameIndex] as HeadPose, s.mapping);
    sum += Math.hypot(p.x - sample.target.x, p.y - sample.target.y);
  }
  return sum / split.validation.length;
}
