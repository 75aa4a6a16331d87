/**
 * A face source made ready to move: its landmarks in head coordinates (origin at the mesh's centre; the axes are the
 * engine's face axes, `faceAxes`: x along the face's mirror pairs to the image's right, y from the forehead to the
 * base of the nose, z away from the camera), extra control points around the face (a ring that turns with the head:
 * hair, ears; an outer ring and the crop's border that stay with the background) and the Delaunay triangulation of
 * them all on the photo.
 */
import { anglesOfAxes, faceAxes } from '@emolens/engine';
import { add, apply, DEG, inside, type Mat3, type P2, type P3, rotation, scale, sub } from './geometry.ts';
import { AXIS, delaunay, MESH_POINTS } from './mesh.ts';
import type { FaceSource } from './source.ts';

/**
 * Control points beyond the mesh. A ring point lies outward of a face-outline landmark in the picture itself (at
 * `reach` times its distance from the outline's centre), in the photo and in the frame alike, so it can never fold
 * over the face (hair, ears, the neck's top). A background point keeps its place relative to the face's centre,
 * turning only with the head's roll.
 */
export type Extra = { kind: 'ring'; oval: number; reach: number } | { kind: 'background'; offset: P2 };

/** The rings' reach beyond the face's outline, as shares of its distance from the centre. */
const HEAD_RING = 0.3;
const BACKGROUND_RING = 1.1;
/** The head turns about a point this far (face widths) behind the mesh's centre: about the neck's axis, 8 cm back. */
const PIVOT = 0.55;
/** How far the outline's landmarks are pulled in (share of their distance from its centre) where the photo is sampled. */
const OUTLINE_INSET = 0.05;

export interface Rig {
  source: FaceSource;
  /** The face's width in source pixels: the cheeks' outer edges (landmarks 234 and 454) in head coordinates. */
  width: number;
  centre: P3;
  /** Source pixels → head coordinates: head = axes · (p − centre). */
  axes: Mat3;
  /** All 478 landmarks in head coordinates (the irises included, for the eyes). */
  landmarks: P3[];
  /** Control points in source pixels: the 468 mesh points, then the extras. */
  from: P2[];
  /** The mesh's 468 points in head coordinates. */
  head: P3[];
  extras: Extra[];
  /** The face's outline: the mesh points on its frontal layout's hull, in order. */
  outline: number[];
  triangles: [number, number, number][];
  /** The first `faceTriangles` triangles are the face's (three mesh corners); the rest reach beyond it. */
  faceTriangles: number;
}

export function buildRig(source: FaceSource): Rig {
  const pts = source.points;
  const mesh = pts.slice(0, MESH_POINTS);
  const centre = scale(
    mesh.reduce((s, p) => add(s, p), [0, 0, 0] as P3),
    1 / mesh.length,
  );
  // The engine's face axes, so that a phantom's pose is the one the engine is asked to read.
  const frame = faceAxes(mesh);
  if (!frame) throw new Error(`${source.id}: the face's axes cannot be found`);
  const { x } = frame;
  const axes: Mat3 = [...frame.x, ...frame.y, ...frame.z];
  const toHead = (p: P3) => apply(axes, sub(p, centre));
  const landmarks = pts.map(toHead);
  const width = (landmarks[AXIS.left] as P3)[0] - (landmarks[AXIS.right] as P3)[0];

  const from: P2[] = mesh.map((p) => [p[0], p[1]]);
  const head: P3[] = landmarks.slice(0, MESH_POINTS);
  const extras: Extra[] = [];
  // The triangulation is made on the face seen frontally (head coordinates), which follows the face's surface even
  // where the photo shows it turned; the points around it are laid out the same way.
  const layout: P2[] = head.map((p) => [p[0], p[1]]);
  // The face's outline is the hull of its frontal layout (the strips around it then share its every edge with the
  // face's triangles; the mesh's own outline landmarks leave a few cheek points outside them).
  const outline = hull(layout.map(jitter));
  const hx = outline.reduce((s, i) => s + (head[i] as P3)[0], 0) / outline.length;
  const hy = outline.reduce((s, i) => s + (head[i] as P3)[1], 0) / outline.length;
  const oval = outline.map((i) => from[i] as P2);
  const cx = oval.reduce((s, p) => s + p[0], 0) / oval.length;
  const cy = oval.reduce((s, p) => s + p[1], 0) / oval.length;
  // The photo's own roll (its eye line's tilt): background offsets are kept upright.
  const roll = Math.atan2(x[1], x[0]);
  const upright = (p: P2): P2 => {
    const dx = p[0] - centre[0];
    const dy = p[1] - centre[1];
    return [Math.cos(roll) * dx + Math.sin(roll) * dy, -Math.sin(roll) * dx + Math.cos(roll) * dy];
  };
  for (const i of outline) {
    const [ox, oy] = from[i] as P2;
    // Above the eyes the ring reaches further (hair).
    const above = (landmarks[i] as P3)[1] < -0.25 * width;
    const reach = HEAD_RING * (above ? 1.4 : 1);
    from.push([ox + reach * (ox - cx), oy + reach * (oy - cy)]);
    extras.push({ kind: 'ring', oval: i, reach });
    const [fx, fy] = head[i] as P3;
    layout.push([fx + reach * (fx - hx), fy + reach * (fy - hy)]);
    const far: P2 = [ox + BACKGROUND_RING * (ox - cx), oy + BACKGROUND_RING * (oy - cy)];
    from.push(far);
    extras.push({ kind: 'background', offset: upright(far) });
    layout.push([fx + BACKGROUND_RING * (fx - hx), fy + BACKGROUND_RING * (fy - hy)]);
  }
  // The outline's landmarks sit on the skin's very edge, often a pixel or two onto the background: the face's
  // triangles sample the photo from a little inside it, so a stretched cheek never shows the wall behind.
  for (const i of outline) {
    const p = from[i] as P2;
    from[i] = [p[0] + OUTLINE_INSET * (cx - p[0]), p[1] + OUTLINE_INSET * (cy - p[1])];
  }
  const { width: w, height: h } = source.image;
  for (let k = 0; k < 8; k++) {
    const f = k / 8;
    for (const p of [
      [f * w, 0],
      [w, f * h],
      [w - f * w, h],
      [0, h - f * h],
    ] as P2[]) {
      from.push(p);
      extras.push({ kind: 'background', offset: upright(p) });
      layout.push(upright(p));
    }
  }
  const triangles = triangulate(layout, outline);
  return {
    source,
    width,
    centre,
    axes,
    landmarks,
    from,
    head,
    extras,
    triangles,
    outline,
    faceTriangles: triangles.filter((t) => t.every((i) => i < MESH_POINTS)).length,
  };
}

/** Landmarks are whole pixels: a tiny fixed offset keeps coincident ones from making degenerate triangles. */
const jitter = (p: P2, i: number): P2 => [p[0] + 1e-3 * Math.sin(i * 12.9898), p[1] + 1e-3 * Math.cos(i * 78.233)];

/** The convex hull's vertices (indices, in order; monotone chain). */
function hull(points: readonly P2[]): number[] {
  const idx = points
    .map((_, i) => i)
    .sort((a, b) => {
      const [pa, pb] = [points[a] as P2, points[b] as P2];
      return pa[0] - pb[0] || pa[1] - pb[1];
    });
  const turn = (o: number, a: number, b: number) => {
    const [po, pa, pb] = [points[o] as P2, points[a] as P2, points[b] as P2];
    return (pa[0] - po[0]) * (pb[1] - po[1]) - (pa[1] - po[1]) * (pb[0] - po[0]);
  };
  const half = (order: number[]) => {
    const chain: number[] = [];
    for (const i of order) {
      while (chain.length >= 2 && turn(chain.at(-2) as number, chain.at(-1) as number, i) <= 0) chain.pop();
      chain.push(i);
    }
    chain.pop();
    return chain;
  };
  return [...half(idx), ...half([...idx].reverse())];
}

/**
 * The rig's triangles on its frontal layout (mesh points, then each outline point's ring and far-ring point in
 * turn, then the border): the face by Delaunay over the mesh, the two rings as strips that follow the outline
 * (so no triangle reaching beyond the face can cut across it), the rest by Delaunay outside the far ring. The face's
 * triangles come first.
 */
function triangulate(layout: readonly P2[], outline: readonly number[]): [number, number, number][] {
  const centroidIn = (poly: readonly P2[], t: readonly number[], at: (i: number) => P2) => {
    const [a, b, c] = t.map(at) as [P2, P2, P2];
    return inside(poly, (a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3);
  };
  const mesh = layout.slice(0, MESH_POINTS).map(jitter);
  // All of the mesh's hull: where the outline bends in, a triangle just outside it still belongs to the face.
  const face = delaunay(mesh);
  const n = outline.length;
  const ring = (j: number) => MESH_POINTS + 2 * (j % n);
  const far = (j: number) => ring(j) + 1;
  const strips: [number, number, number][] = [];
  for (let j = 0; j < n; j++) {
    const [o0, o1] = [outline[j] as number, outline[(j + 1) % n] as number];
    strips.push([o0, o1, ring(j + 1)], [o0, ring(j + 1), ring(j)]);
    strips.push([ring(j), ring(j + 1), far(j + 1)], [ring(j), far(j + 1), far(j)]);
  }
  const outer = Array.from({ length: n }, (_, j) => far(j));
  const farRing = outer.map((i) => layout[i] as P2);
  const rest = [
    ...outer,
    ...Array.from({ length: layout.length - MESH_POINTS - 2 * n }, (_, k) => MESH_POINTS + 2 * n + k),
  ];
  const restPoints = rest.map((i) => jitter(layout[i] as P2, i));
  const outside = delaunay(restPoints)
    .filter((t) => !centroidIn(farRing, t, (i) => restPoints[i] as P2))
    .map((t) => t.map((i) => rest[i] as number) as [number, number, number]);
  return [...face, ...strips, ...outside];
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
export function projector(rig: Rig, place: Placement): { rotation: Mat3; project: (h: P3) => P3 } {
  const r = rotation(place.yaw, place.pitch, place.roll);
  const s = place.faceWidth / rig.width;
  const pivot = PIVOT * rig.width;
  return {
    rotation: r,
    project: (h) => {
      // Turned about the neck's axis, behind the face (a face turned right moves right as a whole, its far side least).
      const q = apply(r, [h[0], h[1], h[2] - pivot]);
      return [place.x + s * q[0], place.y + s * q[1], s * (q[2] + pivot)];
    },
  };
}

/** Where each control point lands in the frame (x, y and depth: larger is further), for a mesh already moved by its expressions. */
export function controlPoints(rig: Rig, place: Placement, mesh: readonly P3[]): P3[] {
  const { project } = projector(rig, place);
  const s = place.faceWidth / rig.width;
  const out = mesh.slice(0, MESH_POINTS).map(project);
  let cx = 0;
  let cy = 0;
  for (const i of rig.outline) {
    cx += (out[i] as P3)[0];
    cy += (out[i] as P3)[1];
  }
  cx /= rig.outline.length;
  cy /= rig.outline.length;
  const cos = Math.cos(place.roll * DEG);
  const sin = Math.sin(place.roll * DEG);
  const behind = s * rig.width;
  for (const e of rig.extras) {
    if (e.kind === 'ring') {
      const [ox, oy, oz] = out[e.oval] as P3;
      out.push([ox + e.reach * (ox - cx), oy + e.reach * (oy - cy), oz + 0.3 * behind]);
    } else {
      const [dx, dy] = e.offset;
      out.push([place.x + s * (cos * dx - sin * dy), place.y + s * (sin * dx + cos * dy), 2 * behind]);
    }
  }
  return out;
}

/** The photo's own pose on the head axes (degrees, the engine's convention): what a phantom at 0 undoes. */
export function photoPose(rig: Rig): { yaw: number; pitch: number; roll: number } {
  const [x0, x1, x2, y0, y1, y2, z0, z1, z2] = rig.axes;
  return anglesOfAxes({ x: [x0, x1, x2], y: [y0, y1, y2], z: [z0, z1, z2] });
}
