import { describe, expect, it } from 'vitest';
import type { DetectedFace } from './face.ts';
import {
  faceAxes,
  headPose,
  MESH_INPUT_SIZE,
  POSE_LOWER,
  POSE_NOSE,
  POSE_PLANE,
  POSE_UPPER,
  type Vec3,
  withEnginePose,
} from './head-pose.ts';
import { prng } from './random.ts';

const rad = Math.PI / 180;

/**
 * A frontal face in its own axes (x to the subject's left, y down, z into the head; face widths): the face's plane
 * and the nose's wings mirrored exactly, the nose's tip in front on the midline, the forehead's and the nose base's
 * means on the midline at the same depth, so its axes are the identity. Every other point lies anywhere on the face.
 */
function frontal(seed = 7): Vec3[] {
  const rand = prng(seed);
  const points: Vec3[] = Array.from({ length: 478 }, () => [rand() - 0.5, rand() - 0.5, 0.3 * rand()]);
  const pairs: [number, number][] = [[98, 327]];
  for (let k = 0; k + 1 < POSE_PLANE.length - 2; k += 2)
    pairs.push([POSE_PLANE[k] as number, POSE_PLANE[k + 1] as number]);
  for (const [r, l] of pairs) {
    const p: Vec3 = [0.1 + 0.4 * rand(), rand() - 0.6, 0.2 * rand()];
    points[r] = [-p[0], p[1], p[2]];
    points[l] = p;
  }
  POSE_NOSE.forEach((i, k) => {
    points[i] = [0, 0.05 * k, -0.25 + 0.05 * k];
  });
  const paired = new Set(pairs.flat());
  // The midline points of the forehead and the nose's base moved so that their sets' means sit at x = 0, z = 0.
  for (const [set, y] of [
    [POSE_UPPER, -0.45],
    [POSE_LOWER, 0.2],
  ] as const) {
    const free = set.filter((i) => !paired.has(i));
    const c: Vec3 = [0, 0, 0];
    for (const i of set)
      for (let k = 0; k < 3; k++) c[k] = (c[k] as number) + ((points[i] as Vec3)[k] as number) / set.length;
    const n = set.length / free.length;
    for (const i of free) {
      const p = points[i] as Vec3;
      points[i] = [p[0] - n * c[0], p[1] + n * (y - c[1]), p[2] - n * c[2]];
    }
  }
  return points;
}

/** The convention's rotation, written out: R = Rz(roll) · Ry(yaw) · Rx(pitch), right-handed about x, y, z. */
function turn(p: Vec3, yaw: number, pitch: number, roll: number): Vec3 {
  const [cy, sy, cp, sp, cr, sr] = [yaw, pitch, roll].flatMap((a) => [
    Math.cos(a * rad),
    Math.sin(a * rad),
  ]) as number[];
  const x1 = p[0];
  const y1 = (cp as number) * p[1] - (sp as number) * p[2];
  const z1 = (sp as number) * p[1] + (cp as number) * p[2];
  const x2 = (cy as number) * x1 + (sy as number) * z1;
  const z2 = -(sy as number) * x1 + (cy as number) * z1;
  return [(cr as number) * x2 - (sr as number) * y1, (sr as number) * x2 + (cr as number) * y1, z2];
}

/**
 * The face as the mesh model reports it: turned, scaled to `widthPx` pixels a face width and moved (x, y in frame
 * pixels), z in the model's input units for a crop `cropSide` pixels wide.
 */
function seen(face: Vec3[], pose: { yaw?: number; pitch?: number; roll?: number }, widthPx = 150, cropSide = 300) {
  return face.map((p) => {
    const q = turn(p, pose.yaw ?? 0, pose.pitch ?? 0, pose.roll ?? 0);
    return [320 + widthPx * q[0], 240 + widthPx * q[1], (widthPx * q[2] * MESH_INPUT_SIZE) / cropSide] as Vec3;
  });
}

describe('head pose', () => {
  it('reads 0 on the frontal face and its axes as the identity', () => {
    const axes = faceAxes(frontal());
    expect(axes?.x.map((v) => Math.round(v * 1e9) / 1e9 + 0)).toEqual([1, 0, 0]);
    expect(axes?.y.map((v) => Math.round(v * 1e9) / 1e9 + 0)).toEqual([0, 1, 0]);
    const pose = headPose(seen(frontal(), {}), 300);
    for (const v of Object.values(pose ?? { yaw: 99 })) expect(Math.abs(v)).toBeLessThan(1e-9);
  });

  it('recovers every turn put in, at any face size and crop, the whole angle', () => {
    const face = frontal(11);
    for (const pose of [
      { yaw: 25 },
      { yaw: -25 },
      { pitch: 20 },
      { pitch: -20 },
      { roll: 20 },
      { yaw: 18, pitch: -12, roll: 7 },
      { yaw: -30, pitch: 25, roll: -15 },
    ]) {
      for (const [width, crop] of [
        [120, 250],
        [400, 820],
      ] as const) {
        const got = headPose(seen(face, pose, width, crop), crop);
        expect(got?.yaw).toBeCloseTo(pose.yaw ?? 0, 9);
        expect(got?.pitch).toBeCloseTo(pose.pitch ?? 0, 9);
        expect(got?.roll).toBeCloseTo(pose.roll ?? 0, 9);
      }
    }
  });

  it('signs: the nose moving left is yaw +, moving down is pitch +, the top of the head moving right is roll +', () => {
    const face = frontal(3);
    // The nose's tip is in front; point 8 (in no list) stands for the top of the head, above the middle.
    const nose = face[1] as Vec3;
    face[8] = [0, -0.6, 0.1];
    // Written without `turn`: each a plain turn of the frontal face about one of the image's axes by 20°.
    const c = Math.cos(20 * rad);
    const s = Math.sin(20 * rad);
    const aboutVertical = face.map(([x, y, z]): Vec3 => [c * x + s * z, y, -s * x + c * z]);
    const aboutHorizontal = face.map(([x, y, z]): Vec3 => [x, c * y - s * z, s * y + c * z]);
    const inPlane = face.map(([x, y, z]): Vec3 => [c * x - s * y, s * x + c * y, z]);
    expect((aboutVertical[1] as Vec3)[0]).toBeLessThan(0);
    expect((aboutHorizontal[1] as Vec3)[1]).toBeGreaterThan(nose[1]);
    expect((inPlane[8] as Vec3)[0]).toBeGreaterThan(0);
    const read = (f: Vec3[]) => headPose(seen(f, {}), 300);
    expect(read(aboutVertical)?.yaw).toBeCloseTo(20, 9);
    expect(read(aboutHorizontal)?.pitch).toBeCloseTo(20, 9);
    expect(read(inPlane)?.roll).toBeCloseTo(20, 9);
  });

  it('ignores the mouth, the brows, the chin and the lids (expressions and blinks are not turns)', () => {
    const face = seen(frontal(5), { yaw: 12, pitch: -8, roll: 3 });
    const moved = face.map((p, i) =>
      [61, 291, 13, 14, 17, 152, 105, 334, 70, 300, 159, 145, 386, 374].includes(i)
        ? ([p[0] + 9, p[1] - 14, p[2] + 5] as Vec3)
        : p,
    );
    const a = headPose(face, 300);
    const b = headPose(moved, 300);
    expect(b?.yaw).toBeCloseTo(a?.yaw ?? 99, 12);
    expect(b?.pitch).toBeCloseTo(a?.pitch ?? 99, 12);
  });

  it('is null without a mesh, and replaces Human’s angles on a Human face', () => {
    expect(headPose([], 300)).toBeNull();
    const mesh = seen(frontal(9), { yaw: -14, pitch: 6, roll: 2 }, 150, 240);
    const human: DetectedFace = {
      score: 0.9,
      box: [200, 120, 240, 240],
      mesh,
      rotation: { angle: { yaw: 0.5, pitch: 0.5, roll: 0.5 } },
    };
    const angle = withEnginePose(human).rotation?.angle;
    expect((angle?.yaw ?? 0) / rad).toBeCloseTo(-14, 9);
    expect((angle?.pitch ?? 0) / rad).toBeCloseTo(6, 9);
    expect((angle?.roll ?? 0) / rad).toBeCloseTo(2, 9);
  });
});
