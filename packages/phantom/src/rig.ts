/**
 * A face source made ready to move: its landmarks in head coordinates (origin at the mesh's centre, x along the
 * cheeks' edges to the image's right, y from the forehead to the chin, z away from the camera), extra control points
 * around the face (a ring that turns with the head: hair, ears; an outer ring and the crop's border that stay with the
 * background) and the Delaunay triangulation of them all on the photo.
 */
import {
  add,
  apply,
  cross,
  DEG,
  type Mat3,
  norm,
  type P2,
  type P3,
  rotation,
  scale,
  sub,
  transpose,
} from './geometry.ts';
import { AXIS, delaunay, FACE_OVAL, MESH_POINTS } from './mesh.ts';
import type { FaceSource } from './source.ts';

/** How a control point moves: with the face mesh (and its expressions), with the head, or with the background. */
export type ControlKind = 'mesh' | 'head' | 'neck' | 'background';

/** Control points beyond the mesh: rings around the face outline, at these multiples of its distance from the centre. */
const HEAD_RING = 1.3;
const BACKGROUND_RING = 2.1;

export interface Rig {
  source: FaceSource;
  /** The face's width in source pixels: the cheeks' outer edges (landmarks 234 and 454) in head coordinates. */
  width: number;
  centre: P3;
  /** Source pixels → head coordinates: head = axes · (p − centre). */
  axes: Mat3;
  /** All 478 landmarks in head coordinates (the irises included, for the eyes). */
  landmarks: P3[];
  /** Control points: source pixels, head coordinates and kind (the first 468 are the mesh). */
  from: P2[];
  head: P3[];
  kind: ControlKind[];
  triangles: [number, number, number][];
}

export function buildRig(source: FaceSource): Rig {
  const pts = source.points;
  const mesh = pts.slice(0, MESH_POINTS);
  const centre = scale(
    mesh.reduce((s, p) => add(s, p), [0, 0, 0] as P3),
    1 / mesh.length,
  );
  const x = norm(sub(pts[AXIS.left] as P3, pts[AXIS.right] as P3));
  const down = sub(pts[AXIS.chin] as P3, pts[AXIS.top] as P3);
  const z = norm(cross(x, down));
  const y = cross(z, x);
  const axes: Mat3 = [...x, ...y, ...z];
  const toHead = (p: P3) => apply(axes, sub(p, centre));
  const landmarks = pts.map(toHead);
  const width = (landmarks[AXIS.left] as P3)[0] - (landmarks[AXIS.right] as P3)[0];

  const from: P2[] = mesh.map((p) => [p[0], p[1]]);
  const head: P3[] = landmarks.slice(0, MESH_POINTS);
  const kind: ControlKind[] = head.map(() => 'mesh');
  const fromHead = transpose(axes);
  const push = (h: P3, k: ControlKind) => {
    const p = add(apply(fromHead, h), centre);
    from.push([p[0], p[1]]);
    head.push(h);
    kind.push(k);
  };
  for (const i of FACE_OVAL) {
    const o = landmarks[i] as P3;
    // The ring above the forehead reaches further (hair); behind the face's outline (it turns about the head's centre).
    const up = o[1] < 0 ? 1.15 : 1;
    // Below the ears the ring is the neck: half with the head, half with the shoulders.
    push([o[0] * HEAD_RING, o[1] * HEAD_RING * up, o[2]], 'head');
    push([o[0] * BACKGROUND_RING, o[1] * BACKGROUND_RING * up, o[2] + 0.6 * width], 'background');
  }
  const { width: w, height: h } = source.image;
  for (let k = 0; k < 8; k++) {
    const f = k / 8;
    for (const [sx, sy] of [
      [f * w, 0],
      [w, f * h],
      [w - f * w, h],
      [0, h - f * h],
    ] as P2[]) {
      push([...apply(axes, sub([sx, sy, 0], centre)).slice(0, 2), width] as P3, 'background');
    }
  }
  // Landmarks are whole pixels: a tiny fixed offset keeps coincident ones from making degenerate triangles.
  const jittered = from.map(([px, py], i): P2 => [px + 1e-3 * Math.sin(i * 12.9898), py + 1e-3 * Math.cos(i * 78.233)]);
  return { source, width, centre, axes, landmarks, from, head, kind, triangles: delaunay(jittered) };
}

/** Where the head is in the frame: its angles (degrees), face width (frame pixels) and centre (frame pixels). */
export interface Placement {
  yaw: number;
  pitch: number;
  roll: number;
  faceWidth: number;
  x: number;
  y: number;
}

/** A head-coordinate point seen in the frame: rotated, scaled and moved (weak perspective); z kept for depth. */
export function projector(
  rig: Rig,
  place: Placement,
): { rotation: Mat3; project: (h: P3) => P3; background: (h: P3) => P3 } {
  const r = rotation(place.yaw, place.pitch, place.roll);
  const s = place.faceWidth / rig.width;
  const cos = Math.cos(place.roll * DEG);
  const sin = Math.sin(place.roll * DEG);
  return {
    rotation: r,
    project: (h) => {
      const q = apply(r, h);
      return [place.x + s * q[0], place.y + s * q[1], s * q[2]];
    },
    // The background turns only in the image plane with the head's roll (the shoulders follow a little).
    background: (h) => [
      place.x + s * (cos * h[0] - sin * h[1]) * 0.5 + s * h[0] * 0.5,
      place.y + s * (sin * h[0] + cos * h[1]) * 0.5 + s * h[1] * 0.5,
      s * h[2],
    ],
  };
}

/** Where each control point lands in the frame (x, y and depth), for a mesh already moved by its expressions. */
export function controlPoints(rig: Rig, place: Placement, mesh: readonly P3[]): P3[] {
  const { project, background } = projector(rig, place);
  return rig.head.map((h, i) => {
    const kind = rig.kind[i];
    if (kind === 'mesh') return project(mesh[i] as P3);
    if (kind === 'head') return project(h);
    if (kind === 'background') return background(h);
    const a = project(h);
    const b = background(h);
    return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
  });
}
