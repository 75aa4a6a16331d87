import { beforeAll, describe, expect, it } from 'vitest';
import {
  analyzeAll,
  faceApiSample,
  PHOTOS,
  photosAndHuman,
  rotatedPhotoVideo,
  stillVideo,
  turningHeadVideo,
} from '../../test/fixtures.ts';
import {
  actionUnits,
  NEUTRAL_LIP_CORNER_PULL,
  NEUTRAL_MOUTH_WIDTH,
  OPEN_EYE_ASPECT_RATIO,
  SMILE_THRESHOLD,
  smileIndex,
} from '../action-units.ts';
import { headSpeed, headSteps, motionSeries } from '../motion.ts';
import { ACTION_UNITS, type ActionUnit, type FaceData, type FrameActionUnits } from '../types.ts';
import type { FrameOptions } from './analyze.ts';
import type { HumanLike } from './human.ts';

// Action units and head motion measured on real faces (issue 11, items 5 and 6).

let human: HumanLike;
beforeAll(async () => {
  human = await photosAndHuman();
}, 120_000);

const collect = (file: string, options: FrameOptions = {}) => analyzeAll(file, { human, ...options });

/** Every face of a face-api sample photo at 1280 px wide (one frame). */
async function sampleFaces(n: number): Promise<FaceData[]> {
  const file = stillVideo(faceApiSample(n), `sample${n}-1280.webm`, { seconds: 1, width: 1280 });
  const [frame] = await collect(file, { maxWidth: 1280, multiFace: true, fps: 1 });
  return frame?.faces ?? [];
}

/**
 * Which faces smile, judged by looking at the photos (faces named by sample and the x of their box centre in the
 * 1280 px frame). Smiling: open smiles showing the teeth. Neutral: lips closed and relaxed (two of them look down
 * steeply, one pouts). Left out as ambiguous: slight closed-lip smiles (sample 1 at x 342 and 624, sample 6 at 238
 * and 1060), a smirk (sample 4 at 218), a profile biting a finger (sample 2 at 290) and sample 5, where everyone
 * is talking.
 */
const SMILING = [
  [1, 1048],
  [3, 788],
  [3, 1041],
  [4, 720],
  [4, 913],
  [6, 515],
] as const;
const NEUTRAL = [
  [2, 1036],
  [2, 658],
  [3, 464],
  [4, 502],
  [6, 843],
] as const;

function pick(faces: Map<number, FaceData[]>, [sample, x]: readonly [number, number]): FaceData {
  const found = (faces.get(sample) ?? []).find((f) => Math.abs(f.box.x + f.box.width / 2 - x) < 60);
  if (!found) throw new Error(`no face near x ${x} in sample ${sample}`);
  return found;
}

const units = (face: FaceData): FrameActionUnits => {
  const value = actionUnits(face);
  if (!value) throw new Error('no action units');
  return value;
};

describe('action units on the face-api samples', () => {
  let faces: Map<number, FaceData[]>;
  beforeAll(async () => {
    faces = new Map();
    for (const n of [1, 2, 3, 4, 6]) faces.set(n, await sampleFaces(n));
  }, 120_000);

  it('scores the smiling faces higher lip-corner pull and a wider mouth than the neutral ones', () => {
    const smiling = SMILING.map((id) => units(pick(faces, id)));
    const neutral = NEUTRAL.map((id) => units(pick(faces, id)));
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    // Share of (smiling, neutral) pairs ordered right (the area under the ROC curve).
    const ordered = (s: number[], n: number[]) =>
      s.flatMap((a) => n.map((b) => (a > b ? 1 : 0))).reduce<number>((a, b) => a + b, 0) / (s.length * n.length);
    // Measured (engine 0.10.1): pull, smiling 0.057–0.136 (mean 0.084), neutral 0.022–0.088 (mean 0.054), 22 of 30
    // pairs ordered right. The pull is taken against the point of the lips' opening the corners follow (decision 081):
    // the open smiles here lose the part of it the lips' midpoint gave them (0.042 apart and 26 of 30 before), which
    // is the part that read a talking mouth as a smile. These are different people, each with their own lips at rest;
    // the smile index reads each person's change from their own rest.
    const pulls = [smiling.map((u) => u.units.lipCornerPull), neutral.map((u) => u.units.lipCornerPull)] as const;
    expect(mean(pulls[0]) - mean(pulls[1])).toBeGreaterThan(0.02);
    expect(ordered(...pulls)).toBeGreaterThanOrEqual(0.7);
    // Mouth width: smiling 0.83–0.96 (median 0.91), neutral 0.72–1.02 (median 0.80), 23 of 30 pairs ordered right;
    // the medians' difference is FULL_SMILE_WIDTH (0.11).
    const widths = [smiling.map((u) => u.mouthWidth ?? 0), neutral.map((u) => u.mouthWidth ?? 0)] as const;
    expect(mean(widths[0]) - mean(widths[1])).toBeGreaterThan(0.05);
    expect(ordered(...widths)).toBeGreaterThanOrEqual(0.7);
  });

  it('reads every smiling face as a smile without a calibration, and four of the five neutral ones as none', () => {
    // The smile index as a frame without a resting face reads it (frameSmile): pull and width against the neutral
    // faces' medians, the classifier's "happy" from 0.
    const index = (face: FaceData) => {
      const u = units(face);
      return smileIndex(
        face.expressions,
        u.units.lipCornerPull - NEUTRAL_LIP_CORNER_PULL,
        0,
        (u.mouthWidth ?? 0) - NEUTRAL_MOUTH_WIDTH,
      );
    };
    const smiling = SMILING.map((id) => index(pick(faces, id)));
    const neutral = NEUTRAL.map((id) => index(pick(faces, id)));
    // Measured (engine 0.10.1): smiling 0.31–0.98, neutral 0.003, 0.004, 0.005, 0.085 and 0.35, a face whose mouth is
    // broad at rest (pull 0.088, width 1.02 IOD; with the neutral pull at 0.02, before 0.10.1, a second neutral face
    // read 0.50). Without a resting face, people's own lips decide as much as a smile: one pair of 30 is not
    // separated, and only a change from the respondent's own rest measures the smile.
    for (const v of smiling) expect(v).toBeGreaterThanOrEqual(SMILE_THRESHOLD);
    expect(neutral.filter((v) => v >= SMILE_THRESHOLD).length).toBeLessThanOrEqual(1);
  });

  it('reads open eyes near the open-eye aspect ratio', () => {
    const ears = [...faces.values()].flat().map((f) => units(f).eyeAspectRatio);
    expect(ears).toHaveLength(17);
    const sorted = [...ears].sort((a, b) => a - b);
    const median = sorted[8] as number;
    expect(Math.abs(median - OPEN_EYE_ASPECT_RATIO)).toBeLessThan(0.03);
  });
});

/** Largest difference per action unit between two measurements of the same face. */
function differences(a: FrameActionUnits, b: FrameActionUnits): Record<ActionUnit, number> {
  return Object.fromEntries(ACTION_UNITS.map((k) => [k, Math.abs(a.units[k] - b.units[k])])) as Record<
    ActionUnit,
    number
  >;
}

/**
 * Tolerance of the normalised values on the same face (inter-ocular distances; eye closure is a share of the
 * open eye). The geometry itself is exactly invariant (action-units.test.ts); what remains is the mesh model's own
 * change with the face's size and angle, and Human's whole-pixel landmarks.
 */
// Largest differences measured against the upright face at 512 px (145 px wide), over 384, 640, 768 and 1024 px
// and turns of ±10° and ±20°: lip-corner pull 0.017, depression 0.045, brow raise inner 0.035, outer 0.037, brow
// lowering 0.019, eye closure 0.10, jaw drop 0.077, lip press 0.069. The chin and the lower lip's foot (points 152
// and 17) are the least stable points of the mesh. Tolerances: those figures with a margin of ~1/3.
// Since the iris model reads each eye as it was trained (decision 032), the eye's contour moves more when the image
// is rolled by 10°: eye closure 0.18 (at −10°; 0.14 at +10°) and brow lowering 0.045 (at −10°), measured
// 2026-11-28; their tolerances are those figures with the same margin. Blinks are read against the respondent's
// own open eye (decision 036), which a constant offset from the head's roll does not move.
const TOLERANCE: Record<ActionUnit, number> = {
  lipCornerPull: 0.025,
  lipCornerDepression: 0.06,
  browRaiseInner: 0.05,
  browRaiseOuter: 0.05,
  browLowering: 0.06,
  eyeClosure: 0.24,
  jawDrop: 0.1,
  lipPress: 0.09,
};

describe('action units do not depend on the face size or the head roll', () => {
  let reference: FrameActionUnits;
  const astronaut = async (file: string, maxWidth = 512) => {
    const [frame] = await collect(file, { maxWidth, fps: 1 });
    if (!frame?.face) throw new Error('no face');
    return units(frame.face);
  };
  beforeAll(async () => {
    reference = await astronaut(stillVideo(PHOTOS.astronaut, 'astronaut-512.webm', { seconds: 1, width: 512 }));
  }, 60_000);

  it('gives the same values for the face at 110, 145 and 290 px wide', async () => {
    for (const width of [384, 1024]) {
      const other = await astronaut(
        stillVideo(PHOTOS.astronaut, `astronaut-${width}.webm`, { seconds: 1, width }),
        width,
      );
      const diff = differences(reference, other);
      for (const k of ACTION_UNITS) expect(diff[k], `${k} at ${width} px`).toBeLessThan(TOLERANCE[k]);
    }
  });

  it('gives the same values for the face turned 10° and 20° either way in the image', async () => {
    for (const degrees of [-20, -10, 10, 20]) {
      const other = await astronaut(rotatedPhotoVideo(PHOTOS.astronaut, `astronaut-rot${degrees}.webm`, degrees));
      const diff = differences(reference, other);
      for (const k of ACTION_UNITS) expect(diff[k], `${k} at ${degrees}°`).toBeLessThan(TOLERANCE[k]);
    }
  });
});

describe('head motion on a real video', () => {
  it('measures the head turning at 15°/s and keeping still', async () => {
    const video = turningHeadVideo();
    const frames = await collect(video.file);
    expect(frames).toHaveLength(40);
    const times = frames.map((f) => f.time);
    const poses = frames.map((f) => f.face?.pose ?? null);
    const closure = frames.map((f) => (f.face ? units(f.face).units.eyeClosure : null));
    const result = motionSeries({ times, poses, eyeClosure: closure });
    const speed = result.seconds.map((s) => s.headDegreesPerSecond ?? Number.NaN);
    // Human's roll moves 26–27° over the 30° turn: 13.3°/s. Smoothing (σ 0.3 s) spreads a little of each turning
    // second into its neighbours. Measured: 1.0, 11.4, 12.6, 3.1 °/s.
    expect(speed[0]).toBeLessThan(2);
    expect(speed[1]).toBeGreaterThan(9);
    expect(speed[2]).toBeGreaterThan(9);
    expect(speed[1]).toBeLessThan(17);
    expect(speed[2]).toBeLessThan(17);
    const turned = (poses.at(-1)?.roll ?? 0) - (poses[0]?.roll ?? 0);
    const total = speed.reduce((a, b) => a + b, 0);
    expect(Math.abs(total - turned)).toBeLessThan(4);
    // Unsmoothed, the still first second reads the pose's jitter (the pose moves by up to 1° when the detector
    // runs again, every 5th frame): 3.8°/s measured. Smoothing is what brings a still head near 0.
    const still = headSpeed(headSteps(times, poses, 0).filter((_, i) => (times[i] as number) < 1));
    expect(still).toBeGreaterThan(speed[0] as number);
    expect(still).toBeLessThan(6);
    // Eyes open throughout, head within limits: no blink, never distracted.
    expect(result.closures).toEqual([]);
    expect(result.seconds.every((s) => !s.distracted)).toBe(true);
  });
});
