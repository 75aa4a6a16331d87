import { describe, expect, it } from 'vitest';
import {
  actionUnitBaseline,
  actionUnitSeries,
  actionUnits,
  applyActionUnitBaseline,
  FULL_SMILE_PULL,
  FULL_SMILE_WIDTH,
  JAW_CORNER_SHARE,
  MESH_Z_PER_IOD,
  OPEN_EYE_ASPECT_RATIO,
  restingFaceOf,
  smileIndex,
  smoothActionUnits,
} from './action-units.ts';
import { smoothSeries } from './metrics.ts';
import {
  ACTION_UNITS,
  type ActionUnits,
  type ExpressionScores,
  type FaceData,
  type FrameActionUnits,
  type FrameData,
  type HeadPose,
} from './types.ts';

// A frontal face drawn by hand: the mesh points the action units read, in inter-ocular distances (x to the
// subject's left, y down, z away from the camera), origin between the eyes. Every other point stays at 0.
const FRONTAL: Record<number, [number, number, number]> = {
  33: [-0.7, 0, 0.1],
  133: [-0.3, 0, 0],
  263: [0.7, 0, 0.1],
  362: [0.3, 0, 0],
  160: [-0.6, -0.07, 0],
  144: [-0.6, 0.07, 0],
  158: [-0.4, -0.07, 0],
  153: [-0.4, 0.07, 0],
  385: [0.4, -0.07, 0],
  380: [0.4, 0.07, 0],
  387: [0.6, -0.07, 0],
  373: [0.6, 0.07, 0],
  107: [-0.2, -0.35, -0.05],
  55: [-0.2, -0.25, -0.05],
  336: [0.2, -0.35, -0.05],
  285: [0.2, -0.25, -0.05],
  70: [-0.8, -0.3, 0.15],
  46: [-0.8, -0.2, 0.15],
  300: [0.8, -0.3, 0.15],
  276: [0.8, -0.2, 0.15],
  61: [-0.45, 1.0, 0.25],
  291: [0.45, 1.0, 0.25],
  13: [0, 1.02, -0.1],
  14: [0, 1.08, -0.1],
  0: [0, 0.95, -0.12],
  17: [0, 1.2, -0.1],
  2: [0, 0.7, -0.3],
  152: [0, 1.6, 0],
};

/** The hand-drawn values, computed from the formulas by hand. */
const EXPECTED: ActionUnits = {
  // The corners (y 1.0) against the lips' opening a fifth of the way from the upper lip (1.02) to the lower (1.08).
  lipCornerPull: 0.8 * 1.02 + 0.2 * 1.08 - 1.0,
  lipCornerDepression: 1.0 - 1.2,
  browRaiseInner: 0.3,
  browRaiseOuter: 0.25,
  browLowering: 1 - 0.4 - 0.3,
  eyeClosure: 1 - 0.35 / OPEN_EYE_ASPECT_RATIO,
  jawDrop: 0.9,
  lipPress: -(0.07 + 0.12),
};

interface View {
  /** Inter-ocular distance in pixels. */
  size?: number;
  /** In-plane turn, degrees clockwise. */
  roll?: number;
  yaw?: number;
  pitch?: number;
  at?: [number, number];
}

/**
 * The hand-drawn face as a camera sees it: turned by pitch then yaw (the inverse of `faceFrame`'s correction),
 * projected orthographically, rolled in the image, scaled and moved. z stays in mesh units, as Human's does.
 */
function face(view: View = {}, overrides: Record<number, [number, number, number]> = {}): FaceData {
  const { size = 100, roll = 0, yaw = 0, pitch = 0, at = [320, 240] } = view;
  const rad = Math.PI / 180;
  const [cy, sy, cp, sp, cr, sr] = [
    Math.cos(yaw * rad),
    Math.sin(yaw * rad),
    Math.cos(pitch * rad),
    Math.sin(pitch * rad),
    Math.cos(roll * rad),
    Math.sin(roll * rad),
  ];
  const landmarks: [number, number, number][] = Array.from({ length: 478 }, () => [0, 0, 0]);
  for (const [index, [x0, y0, z0]] of Object.entries({ ...FRONTAL, ...overrides })) {
    // Pitch about the horizontal axis, then yaw about the vertical one.
    const y1 = y0 * cp - z0 * sp;
    const z1 = y0 * sp + z0 * cp;
    const x2 = x0 * cy + z1 * sy;
    const z2 = z1 * cy - x0 * sy;
    landmarks[Number(index)] = [
      at[0] + size * (x2 * cr - y1 * sr),
      at[1] + size * (x2 * sr + y1 * cr),
      z2 * MESH_Z_PER_IOD,
    ];
  }
  const pose: HeadPose = { yaw, pitch, roll };
  return {
    box: { x: at[0] - size, y: at[1] - size, width: 2 * size, height: 2.5 * size },
    score: 0.9,
    landmarks,
    pose,
    expressions: { neutral: 1, happy: 0, surprise: 0, sad: 0, angry: 0, disgust: 0, fear: 0 },
    eyes: null,
  };
}

/** Both eyes' lid points with a gap of `gap` IODs (0.14 in the drawing: aspect ratio 0.35). */
function lids(gap: number): Record<number, [number, number, number]> {
  const out: Record<number, [number, number, number]> = {};
  for (const [top, bottom, x] of [
    [160, 144, -0.6],
    [158, 153, -0.4],
    [385, 380, 0.4],
    [387, 373, 0.6],
  ] as const) {
    out[top] = [x, -gap / 2, 0];
    out[bottom] = [x, gap / 2, 0];
  }
  return out;
}

const measure = (f: FaceData): FrameActionUnits => {
  const value = actionUnits(f);
  if (!value) throw new Error('no action units');
  return value;
};

function expectUnits(actual: ActionUnits, expected: ActionUnits, digits = 9) {
  for (const k of ACTION_UNITS) expect(actual[k], k).toBeCloseTo(expected[k], digits);
}

describe('actionUnits', () => {
  it('computes each formula on a hand-drawn frontal face', () => {
    const value = measure(face());
    expectUnits(value.units, EXPECTED);
    expect(value.eyeAspectRatio).toBeCloseTo(0.35, 9);
    expect(value.mouthWidth).toBeCloseTo(0.9, 9);
    expect(JAW_CORNER_SHARE).toBe(0.2);
  });

  it('does not change with the face size, its position or an in-plane turn', () => {
    for (const view of [{ size: 30 }, { size: 400, at: [900, 100] as [number, number] }, { roll: 35 }, { roll: -60 }]) {
      expectUnits(measure(face(view)).units, EXPECTED);
    }
  });

  it('undoes yaw and pitch with the depth of each point', () => {
    for (const view of [{ yaw: 25 }, { yaw: -30, pitch: 15 }, { pitch: -20, roll: 10, size: 60 }]) {
      const value = measure(face(view));
      expectUnits(value.units, EXPECTED);
      expect(value.mouthWidth).toBeCloseTo(0.9, 9);
    }
    // Without the depth correction the tilted lips would read as a smile: the lip middle lies in front of the
    // corners, so tipping the head down lifts it in the image less than the corners.
    const tilted = face({ pitch: 20 });
    const flat = { ...tilted, landmarks: tilted.landmarks.map(([x, y]) => [x, y, 0] as [number, number, number]) };
    expect(Math.abs(measure(flat).units.lipCornerPull - EXPECTED.lipCornerPull)).toBeGreaterThan(0.05);
  });

  it('moves each action unit the right way', () => {
    const smiling = measure(face({}, { 61: [-0.5, 0.95, 0.25], 291: [0.5, 0.95, 0.25] }));
    const smile = smiling.units;
    expect(smile.lipCornerPull).toBeCloseTo(EXPECTED.lipCornerPull + 0.05, 9);
    expect(smiling.mouthWidth).toBeCloseTo(1.0, 9);
    expect(smile.lipCornerDepression).toBeLessThan(EXPECTED.lipCornerDepression);
    const frown = measure(face({}, { 61: [-0.45, 1.05, 0.25], 291: [0.45, 1.05, 0.25] })).units;
    expect(frown.lipCornerDepression).toBeCloseTo(EXPECTED.lipCornerDepression + 0.05, 9);
    const raised = measure(face({}, { 107: [-0.2, -0.45, -0.05], 336: [0.2, -0.45, -0.05] })).units;
    expect(raised.browRaiseInner).toBeCloseTo(0.35, 9);
    expect(raised.browLowering).toBeCloseTo(EXPECTED.browLowering - 0.05, 9);
    const knit = measure(
      face(
        {},
        {
          107: [-0.15, -0.3, -0.05],
          55: [-0.15, -0.2, -0.05],
          336: [0.15, -0.3, -0.05],
          285: [0.15, -0.2, -0.05],
        },
      ),
    ).units;
    expect(knit.browLowering).toBeCloseTo(1 - 0.3 - 0.25, 9);
    const jaw = measure(face({}, { 152: [0, 1.9, 0], 14: [0, 1.3, -0.1], 17: [0, 1.42, -0.1] })).units;
    expect(jaw.jawDrop).toBeCloseTo(1.2, 9);
    // An open mouth is not pressed lips: the gap between the lips does not count.
    expect(jaw.lipPress).toBeCloseTo(EXPECTED.lipPress, 9);
    // Nor a pulled corner: the jaw drops the lower lip by 0.22 and the corners, which follow a fifth of the opening,
    // by 0.044; against the lips' midpoint they would have read 0.066 higher, a full smile and more.
    const open = measure(
      face({}, { 14: [0, 1.3, -0.1], 61: [-0.45, 1.044, 0.25], 291: [0.45, 1.044, 0.25], 152: [0, 1.9, 0] }),
    ).units;
    expect(open.lipCornerPull).toBeCloseTo(EXPECTED.lipCornerPull, 9);
    const shut = measure(face({}, lids(0.02)));
    expect(shut.eyeAspectRatio).toBeCloseTo(0.05, 9);
    expect(shut.units.eyeClosure).toBeGreaterThan(0.8);
  });

  it('gives null without a mesh or with the eyes on one point', () => {
    expect(actionUnits({ ...face(), landmarks: [] })).toBeNull();
    expect(actionUnits(face({ size: 0.5 }))).toBeNull();
  });
});

function frame(index: number, f: FaceData | null, flags: FrameData['flags'] = []): FrameData {
  return { index, time: index / 10, faceCount: f ? 1 : 0, face: f, brightness: 0.5, flags };
}

describe('series, baseline and smoothing', () => {
  it('leaves bad frames and frames without a face null', () => {
    const series = actionUnitSeries([
      frame(0, face()),
      frame(1, null, ['no_face']),
      frame(2, face(), ['head_turned']),
      frame(3, { ...face(), landmarks: [] }),
    ]);
    expect(series.map((v) => v !== null)).toEqual([true, false, false, false]);
  });

  it('takes the median of the baseline frames, so a blink does not move it', () => {
    const rest = measure(face());
    const blink = measure(face({}, { 160: [-0.6, 0, 0], 144: [-0.6, 0, 0], 385: [0.4, 0, 0], 380: [0.4, 0, 0] }));
    const baseline = actionUnitBaseline([rest, rest, null, blink, rest]);
    expect(baseline?.frames).toBe(4);
    expect(baseline?.eyeAspectRatio).toBeCloseTo(0.35, 9);
    expect(baseline?.mouthWidth).toBeCloseTo(0.9, 9);
    expectUnits(baseline?.units as ActionUnits, EXPECTED);
    expect(actionUnitBaseline([null, null])).toBeNull();
  });

  it('gives changes from the baseline, eye closure as a share of the resting eye', () => {
    const rest = measure(face());
    const baseline = actionUnitBaseline([rest]);
    if (!baseline) throw new Error('no baseline');
    const smile = measure(face({}, { 61: [-0.5, 0.95, 0.25], 291: [0.5, 0.95, 0.25] }));
    const half = measure(face({}, lids(0.07)));
    const [r, s, h, n] = applyActionUnitBaseline([rest, smile, half, null], baseline);
    for (const k of ACTION_UNITS) expect(r?.[k], k).toBeCloseTo(0, 9);
    expect(s?.lipCornerPull).toBeCloseTo(0.05, 9);
    expect(s?.browRaiseInner).toBeCloseTo(0, 9);
    expect(h?.eyeClosure).toBeCloseTo(0.5, 9);
    expect(n).toBeNull();
  });

  it('smooths every action unit with smoothSeries, as the expressions', () => {
    const times = [0, 0.1, 0.2, 0.3, 0.4, 1.5];
    const pulls = [0.01, 0.05, null, 0.03, 0.02, 0.04];
    const values = pulls.map((p) => (p === null ? null : { ...EXPECTED, lipCornerPull: p }));
    const smoothed = smoothActionUnits(times, values, 0.3);
    const direct = smoothSeries(times, pulls, 0.3);
    expect(smoothed[2]).toBeNull();
    for (const i of [0, 1, 3, 4, 5]) {
      expect(smoothed[i]?.lipCornerPull).toBeCloseTo(direct[i] as number, 12);
      expect(smoothed[i]?.jawDrop).toBeCloseTo(EXPECTED.jawDrop, 12);
    }
  });
});

describe('smileIndex', () => {
  const happy = (h: number): ExpressionScores => ({
    neutral: 1 - h,
    happy: h,
    surprise: 0,
    sad: 0,
    angry: 0,
    disgust: 0,
    fear: 0,
  });
  it('averages happy and the lip-corner pull as a share of a full smile, each clipped to 0..1', () => {
    expect(smileIndex(happy(0), 0)).toBe(0);
    expect(smileIndex(happy(1), FULL_SMILE_PULL)).toBe(1);
    expect(smileIndex(happy(0.4), FULL_SMILE_PULL / 2)).toBeCloseTo(0.45, 12);
    expect(smileIndex(happy(0.4), 3 * FULL_SMILE_PULL)).toBeCloseTo(0.7, 12);
    expect(smileIndex(happy(0.4), -FULL_SMILE_PULL)).toBeCloseTo(0.2, 12);
  });

  it('reads the geometry as the smaller of the corners drawn up and the mouth widened, each as a share of a full smile', () => {
    const W = FULL_SMILE_WIDTH;
    expect(smileIndex(happy(0), FULL_SMILE_PULL, 0, W)).toBe(0.5);
    // Corners that only seem higher (a turned head) or a mouth that only widens (a grimace) are not a smile.
    expect(smileIndex(happy(0), FULL_SMILE_PULL, 0, 0)).toBe(0);
    expect(smileIndex(happy(0), 0, 0, W)).toBe(0);
    expect(smileIndex(happy(0), FULL_SMILE_PULL / 2, 0, W / 4)).toBeCloseTo(0.125, 12);
    expect(smileIndex(happy(0), FULL_SMILE_PULL / 4, 0, 2 * W)).toBeCloseTo(0.125, 12);
    expect(smileIndex(happy(0.6), FULL_SMILE_PULL, 0, -W)).toBeCloseTo(0.3, 12);
    // Without a width (a result stored before it) the pull alone.
    expect(smileIndex(happy(0), FULL_SMILE_PULL / 2, 0, null)).toBeCloseTo(0.25, 12);
  });

  it("measures happy from the respondent's resting level: a face that reads happy at rest scores 0 until it smiles", () => {
    expect(smileIndex(happy(0.9), 0, 0.9)).toBe(0);
    expect(smileIndex(happy(0.85), 0, 0.9)).toBe(0);
    expect(smileIndex(happy(0.95), FULL_SMILE_PULL / 2, 0.9)).toBeCloseTo(0.275, 12);
    // Only the happy part moves with the rest; the geometry's part is its own change already.
    expect(smileIndex(happy(0.3), FULL_SMILE_PULL, 0.1)).toBeCloseTo(0.6, 12);
  });
});

describe('restingFaceOf', () => {
  const frame = (index: number, happy: number, pull: number, bad = false, yaw = 0): FrameData => ({
    index,
    time: index / 10,
    faceCount: 1,
    brightness: 0.5,
    flags: bad ? ['head_turned'] : [],
    face: {
      box: { x: 0, y: 0, width: 200, height: 200 },
      score: 0.9,
      landmarks: [],
      pose: { yaw, pitch: yaw / 2, roll: 0 },
      expressions: { neutral: 1 - happy, happy, surprise: 0, sad: 0, angry: 0, disgust: 0, fear: 0 },
      eyes: null,
      actionUnits: {
        units: { ...EXPECTED, lipCornerPull: pull },
        eyeAspectRatio: 0.3,
      },
    },
  });
  it("takes the medians of the good frames' action units, happy and pose, so a passing smile or a bad frame does not move it", () => {
    const frames = [
      frame(0, 0.8, 0.05, false, 4),
      frame(1, 0.9, 0.06, false, 6),
      frame(2, 1, 0.2, false, 30),
      frame(3, 0.85, 0.055, false, 5),
      frame(4, 0, 0, true, -40),
    ];
    const rest = restingFaceOf(frames);
    expect(rest?.frames).toBe(4);
    expect(rest?.happy).toBeCloseTo(0.875, 12);
    expect(rest?.units.lipCornerPull).toBeCloseTo(0.0575, 12);
    expect(rest?.pose?.yaw).toBeCloseTo(5.5, 12);
    expect(rest?.pose?.pitch).toBeCloseTo(2.75, 12);
    expect(restingFaceOf([frame(0, 0.5, 0.05, true)])).toBeNull();
  });
});
