/**
 * Head pose from the face mesh: the face's own axes, from landmarks that barely move, and their rotation against the
 * camera, in one convention shared by the engine and the phantom respondents (docs/engine.md, "Head pose").
 *
 * Convention: right-handed turns about the camera's axes (x to the image's right, y down, z away from the camera
 * into the scene; OpenCV's camera frame), in an unmirrored camera image:
 * - yaw + (about y): the face turns towards the image's left, the nose moves left: the respondent turns to their
 *   own right;
 * - pitch + (about x): the face tips down, the nose moves down: the respondent looks down;
 * - roll + (about z): the face turns clockwise in the image, the top of the head moves right: the head tilts towards
 *   the respondent's left shoulder.
 * The rotation taking the face's axes to the camera's is R = Rz(roll) · Ry(yaw) · Rx(pitch) (pitch first), with
 * Rx(a) = [1, 0, 0; 0, cos a, −sin a; 0, sin a, cos a], Ry(a) = [cos a, 0, sin a; 0, 1, 0; −sin a, 0, cos a] and
 * Rz(a) = [cos a, −sin a, 0; sin a, cos a, 0; 0, 0, 1]. All angles here are degrees.
 *
 * 0 is the face's own frame (`faceAxes`): y from the forehead and eye corners to the base of the nose, z from the
 * nose's tip back to the face's plane (eye corners, forehead), x = y × z towards the subject's left. Only points that
 * expressions and blinks barely move are used, so a smile or a raised brow does not read as a turn.
 */
import type { DetectedFace } from './face.ts';

export type Vec3 = [number, number, number];

/** Yaw, pitch and roll in degrees, in the convention above. */
export interface HeadAngles {
  yaw: number;
  pitch: number;
  roll: number;
}

/**
 * The face's plane: eye corners and the skin around the eyes, the forehead (mirror pairs of the mesh's frontal layout,
 * the subject's right first, then the forehead's middle).
 */
export const POSE_PLANE: readonly number[] = [
  33, 263, 133, 362, 226, 446, 143, 372, 54, 284, 103, 332, 67, 297, 109, 338, 10, 151,
];
/** The nose's tip and the ridge just above it: the face's furthest point forward. */
export const POSE_NOSE: readonly number[] = [1, 4, 5];
/** The forehead (its middle and both sides) and the eye corners: the upper end of the face's vertical. */
export const POSE_UPPER: readonly number[] = [10, 151, 67, 297, 109, 338, 33, 133, 362, 263];
/** The base of the nose (subnasale, the wings, the point above the subnasale): the lower end. */
export const POSE_LOWER: readonly number[] = [2, 94, 98, 327];

/** The face mesh model's input side: its z is in these units across the face's crop, x and y are in frame pixels. */
export const MESH_INPUT_SIZE = 192;

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const unit = (a: Vec3): Vec3 | null => {
  const l = Math.hypot(a[0], a[1], a[2]);
  return l > 0 && Number.isFinite(l) ? [a[0] / l, a[1] / l, a[2] / l] : null;
};

/**
 * The face's axes as unit vectors in the points' coordinates (which must share one scale on all three axes):
 * y = from the forehead and eye corners to the base of the nose; z = from the nose's tip back to the face's plane
 * (the mean of `POSE_PLANE`), made perpendicular to y; x = y × z. Null without the points.
 *
 * z comes from the nose because it stands 0.5 of the eyes' distance in front of them: its sideways shift when the
 * head turns, against its depth, gives the yaw on a long lever, where the small depth differences across the face's
 * width (eye to eye, cheek to cheek) come out of the mesh model compressed on a turned face (decision 037).
 */
export function faceAxes(points: readonly (readonly number[])[]): { x: Vec3; y: Vec3; z: Vec3 } | null {
  const mean = (idx: readonly number[]): Vec3 | null => {
    const s: Vec3 = [0, 0, 0];
    for (const i of idx) {
      const p = points[i];
      if (!p || p.length < 3) return null;
      for (let k = 0; k < 3; k++) s[k] = (s[k] as number) + (p[k] as number) / idx.length;
    }
    return s;
  };
  const upper = mean(POSE_UPPER);
  const lower = mean(POSE_LOWER);
  const plane = mean(POSE_PLANE);
  const nose = mean(POSE_NOSE);
  if (!upper || !lower || !plane || !nose) return null;
  const y = unit(sub(lower, upper));
  if (!y) return null;
  const back = sub(plane, nose);
  const along = back[0] * y[0] + back[1] * y[1] + back[2] * y[2];
  const z = unit([back[0] - along * y[0], back[1] - along * y[1], back[2] - along * y[2]]);
  if (!z) return null;
  return { x: cross(y, z), y, z };
}

/** The angles of the rotation whose columns are the face's axes (R = Rz(roll) · Ry(yaw) · Rx(pitch)). */
export function anglesOfAxes(axes: { x: Vec3; y: Vec3; z: Vec3 }): HeadAngles {
  const DEG = 180 / Math.PI;
  // R's bottom row is (x_z, y_z, z_z) = (−sin yaw, cos yaw · sin pitch, cos yaw · cos pitch); its first column
  // starts (x_x, x_y) = cos yaw · (cos roll, sin roll).
  const yaw = Math.asin(Math.max(-1, Math.min(1, -axes.x[2])));
  const pitch = Math.atan2(axes.y[2], axes.z[2]);
  const roll = Math.atan2(axes.x[1], axes.x[0]);
  return { yaw: yaw * DEG, pitch: pitch * DEG, roll: roll * DEG };
}

/**
 * Head pose (degrees) of a face mesh whose x and y are frame pixels and whose z is in the mesh model's input units
 * (`MESH_INPUT_SIZE` of them across a crop `cropSide` pixels wide), as Human and the engine give it. Null without
 * the landmarks.
 */
export function headPose(mesh: readonly (readonly (number | undefined)[])[], cropSide: number): HeadAngles | null {
  if (mesh.length < 468 || !(cropSide > 0)) return null;
  const zScale = cropSide / MESH_INPUT_SIZE;
  const axes = faceAxes(mesh.map((p) => [p[0] as number, p[1] as number, (p[2] ?? 0) * zScale]));
  return axes ? anglesOfAxes(axes) : null;
}

/**
 * A face from Human (the browser's check, `createTfjsHuman`) with its pose measured as the engine's: Human's own
 * angles (four landmarks, its depth scaled to two thirds of its width and height) read about two thirds of the turn.
 * Human's box is its mesh crop (clamped to the frame), so its larger side gives the z scale.
 */
export function withEnginePose(face: DetectedFace): DetectedFace {
  const pose = headPose(face.mesh, Math.max(face.box[2], face.box[3]));
  const RAD = Math.PI / 180;
  return {
    ...face,
    rotation: pose ? { angle: { yaw: pose.yaw * RAD, pitch: pose.pitch * RAD, roll: pose.roll * RAD } } : null,
  };
}
