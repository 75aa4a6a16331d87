/** The eye and head features the gaze model regresses on (see `gaze.ts` for the model). */
import type { FaceData } from './types.ts';

/**
 * Names of the entries of `gazeFeatures`, in order. Because each eye's x runs from its outer to its inner corner,
 * a glance sideways moves the two x values in opposite directions, so
 *
 *   h = (right.x − left.x) / 2      conjugate horizontal iris offset (both eyes turn together)
 *   v = (left.y + right.y) / 2      conjugate vertical iris offset
 *   vergence = (left.x + right.x) / 2, tilt = (left.y − right.y) / 2   what the eyes do apart from that
 *
 * (h, v, vergence, tilt) is an invertible linear recoding of the four iris coordinates, so no information is lost.
 * The second-order terms let the fit bend with the eye's rotation (h², v², h·v) and with head turns
 * (h·yaw, v·pitch). Pose is in degrees.
 */
export const GAZE_FEATURE_NAMES = [
  'h',
  'v',
  'yaw',
  'pitch',
  'roll',
  'vergence',
  'tilt',
  'h^2',
  'v^2',
  'h*v',
  'h*yaw',
  'v*pitch',
] as const;

/**
 * Candidate feature sets per screen axis (indices into `GAZE_FEATURE_NAMES`), simplest first: the axis's own
 * iris offset and head turn, plus roll (a tilted head moves the eyes and turns the axis the irises are measured
 * along); that plus eye-rotation curvature and the axis's iris-head interaction; every first-order term;
 * everything. Cross-validation picks one per axis, so a calibration with few dots is not overfitted by
 * terms it cannot pin down (with 7 training dots, the y fit must not lean on yaw, say). A set of k features is
 * only tried when there are at least k + 3 training positions, so that every cross-validation fold still has
 * more positions than the set has parameters (k + intercept); the first set is always tried.
 */
export const GAZE_FEATURE_SETS: { x: readonly (readonly number[])[]; y: readonly (readonly number[])[] } = {
  x: [
    [0, 2, 4],
    [0, 2, 4, 7, 8, 9, 10],
    [0, 1, 2, 3, 4, 5, 6],
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  ],
  y: [
    [1, 3, 4],
    [1, 3, 4, 7, 8, 9, 11],
    [0, 1, 2, 3, 4, 5, 6],
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  ],
};

/**
 * The feature vector of one face (see `GAZE_FEATURE_NAMES`; pose in degrees), or null when its eyes were not found
 * or a value is not finite.
 */
export function gazeFeatures(face: FaceData): number[] | null {
  const eyes = face.eyes;
  if (!eyes) return null;
  const { left, right } = eyes;
  const { yaw, pitch, roll } = face.pose;
  const h = (right.x - left.x) / 2;
  const v = (left.y + right.y) / 2;
  const vergence = (left.x + right.x) / 2;
  const tilt = (left.y - right.y) / 2;
  const features = [h, v, yaw, pitch, roll, vergence, tilt, h * h, v * v, h * v, h * yaw, v * pitch];
  return features.every(Number.isFinite) ? features : null;
}
