/**
 * Eyes that look at known points of the screen. Each eye is a ball turning about its centre, which sits behind the
 * middle of the eye opening; the iris is a disc on it, so seen from the camera it is an ellipse that narrows as the eye
 * turns. The geometry: the camera centred above the screen's top edge, the eyes' midpoint in front of the camera at
 * the stated distance, millimetres from the photo's iris size (a human iris is 11.8 mm across).
 */
import {
  apply,
  crossedRightOf,
  crossingsAt,
  DEG,
  inside,
  type Mat3,
  norm,
  type P2,
  type P3,
  sub,
  transpose,
} from './geometry.ts';
import type { Colour, Rgb } from './image.ts';

import { EYES, eyeOutline } from './mesh.ts';
import { skinColour } from './occlusion.ts';
import type { Rig } from './rig.ts';
import type { Canvas } from './warp.ts';

export const EYE_MODEL = {
  irisRadiusMm: 5.9,
  /** From the eyeball's centre of rotation to the iris's plane. */
  irisDepthMm: 10.5,
} as const;

/** The screen the respondent looks at and where the camera and the eyes are. */
export interface Screen {
  widthPx: number;
  heightPx: number;
  widthCm: number;
  heightCm: number;
  /** From the camera (the screen's plane) to the eyes' midpoint. */
  distanceCm: number;
  /** The camera's height above the screen's top edge (it is centred on it). */
  cameraAboveCm: number;
}

export interface PreparedEye {
  side: 'right' | 'left';
  /** The eyeball's centre of rotation, head coordinates. */
  centre: P3;
  /** The photo's iris: centre and radius in source pixels. */
  iris: { x: number; y: number; r: number };
  sclera: Colour;
  /** The photo's own iris colour. */
  irisColour: Colour;
}

export interface EyeRig {
  eyes: [PreparedEye, PreparedEye];
  /** Head-coordinate units (source pixels) per millimetre. */
  perMm: number;
}

const mean = (pts: P3[]): P3 => {
  let x = 0;
  let y = 0;
  let z = 0;
  for (const p of pts) {
    x += p[0];
    y += p[1];
    z += p[2];
  }
  return [x / pts.length, y / pts.length, z / pts.length];
};

export function prepareEyes(rig: Rig): EyeRig {
  const src = rig.source.points;
  const irisOf = (idx: readonly number[]) => {
    const c = src[idx[0] as number] as P3;
    const r = idx.slice(1).reduce((s, i) => s + Math.hypot((src[i] as P3)[0] - c[0], (src[i] as P3)[1] - c[1]), 0) / 4;
    return { x: c[0], y: c[1], r };
  };
  // Each iris to the nearer eye, whatever order the engine gives them in (its first is the subject's left eye's).
  const found = EYES.map((e) => irisOf(e.iris));
  const middle = (e: (typeof EYES)[number]) => {
    const a = src[e.outer] as P3;
    const b = src[e.inner] as P3;
    return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] as const;
  };
  const m0 = middle(EYES[0]);
  const near = (i: { x: number; y: number }) => (i.x - m0[0]) ** 2 + (i.y - m0[1]) ** 2;
  const [f0, f1] = found as [{ x: number; y: number; r: number }, { x: number; y: number; r: number }];
  const irises = near(f0) <= near(f1) ? [f0, f1] : [f1, f0];
  // The larger of the iris model's two radii (a lid often hides part of the other), kept within the usual share of
  // the face's width (0.04–0.055 of the cheeks' edges' distance).
  const radius = Math.min(0.055, Math.max(0.04, Math.max(...irises.map((i) => i.r)) / rig.width)) * rig.width;
  const perMm = radius / EYE_MODEL.irisRadiusMm;
  const eyes = EYES.map((eye, k): PreparedEye => {
    const L = rig.landmarks;
    const outer = L[eye.outer] as P3;
    const inner = L[eye.inner] as P3;
    const up = L[eye.upper[3]] as P3;
    const low = L[eye.lower[3]] as P3;
    // Looking straight ahead the iris sits in the middle of the opening, its plane about where the lids' middles are.
    const rest: P3 = [(outer[0] + inner[0]) / 2, (up[1] + low[1]) / 2, Math.min(up[2], low[2])];
    const iris = irises[k] as { x: number; y: number; r: number };
    return {
      side: eye.side,
      centre: [rest[0], rest[1], rest[2] + EYE_MODEL.irisDepthMm * perMm],
      iris,
      sclera: scleraColour(
        rig.source.image,
        eyeOutline(eye).map((i) => src[i] as P3),
        iris,
      ),
      irisColour: irisColour(
        rig.source.image,
        eyeOutline(eye).map((i) => src[i] as P3),
        iris,
      ),
    };
  });
  // One person's irises are one colour: the darker reading of the two (a lid, glare or red-eye lightens the other).
  const luma = (c: Colour) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
  const [e0, e1] = eyes as [PreparedEye, PreparedEye];
  const shared = luma(e0.irisColour) <= luma(e1.irisColour) ? e0.irisColour : e1.irisColour;
  // An eye white darker than the skin around it (a small or shadowed eye in the photo) is lifted towards the skin's light.
  const skin = skinColour(rig.source.image, src);
  const white: Colour = [0.92 * luma(skin), 0.89 * luma(skin), 0.86 * luma(skin)];
  for (const e of [e0, e1]) {
    e.irisColour = shared;
    if (luma(e.sclera) < 0.85 * luma(skin)) e.sclera = e.sclera.map((v, c) => (v + (white[c] as number)) / 2) as Colour;
  }
  return { eyes: [e0, e1], perMm };
}

/** The photo's eye white: the brighter part of the opening away from the iris. */
function scleraColour(image: Rgb, outline: P3[], iris: { x: number; y: number; r: number }): Colour {
  const poly = outline.map((p): P2 => [p[0], p[1]]);
  const xs = poly.map((p) => p[0]);
  const ys = poly.map((p) => p[1]);
  const found: Colour[] = [];
  for (let y = Math.floor(Math.min(...ys)); y <= Math.ceil(Math.max(...ys)); y++) {
    for (let x = Math.floor(Math.min(...xs)); x <= Math.ceil(Math.max(...xs)); x++) {
      if (Math.hypot(x + 0.5 - iris.x, y + 0.5 - iris.y) < 1.25 * iris.r || !inside(poly, x + 0.5, y + 0.5)) continue;
      if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
      const i = (y * image.width + x) * 3;
      found.push([image.data[i] as number, image.data[i + 1] as number, image.data[i + 2] as number]);
    }
  }
  found.sort((a, b) => b[0] + b[1] + b[2] - (a[0] + a[1] + a[2]));
  const top = found.slice(0, Math.max(1, Math.ceil(found.length * 0.4)));
  if (found.length < 4) return [215, 205, 200];
  const c = mean(top.map((p) => [p[0], p[1], p[2]] as P3));
  return [c[0], c[1], c[2]];
}

/** The photo's iris colour: its visible pixels (inside the opening) between the pupil's dark and the catchlight. */
function irisColour(image: Rgb, outline: P3[], iris: { x: number; y: number; r: number }): Colour {
  const poly = outline.map((p): P2 => [p[0], p[1]]);
  const found: Colour[] = [];
  for (let y = Math.floor(iris.y - iris.r); y <= Math.ceil(iris.y + iris.r); y++) {
    for (let x = Math.floor(iris.x - iris.r); x <= Math.ceil(iris.x + iris.r); x++) {
      if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
      const rho = Math.hypot(x + 0.5 - iris.x, y + 0.5 - iris.y) / iris.r;
      if (rho > 0.9 || rho < 0.35 || !inside(poly, x + 0.5, y + 0.5)) continue;
      const i = (y * image.width + x) * 3;
      found.push([image.data[i] as number, image.data[i + 1] as number, image.data[i + 2] as number]);
    }
  }
  if (found.length < 5) return [95, 65, 45];
  found.sort((a, b) => a[0] + a[1] + a[2] - (b[0] + b[1] + b[2]));
  const c = mean(found.slice(Math.floor(found.length * 0.1), Math.ceil(found.length * 0.6)).map((p) => [...p] as P3));
  return [c[0], c[1], c[2]];
}

/**
 * Where an eye looks: unit direction in head coordinates and its rotation in the head (degrees, the engine's head-pose
 * convention: right-handed about the head's axes, yaw + towards the image's left, pitch + down).
 */
export interface EyeTurn {
  direction: P3;
  yaw: number;
  pitch: number;
}

/** Both eyes turned to the screen point (px) for a head rotated by `head`. */
export function eyesToward(
  eyes: EyeRig,
  head: Mat3,
  screen: Screen,
  point: { x: number; y: number },
): [EyeTurn, EyeTurn] {
  const [a, b] = eyes.eyes;
  const mid: P3 = [(a.centre[0] + b.centre[0]) / 2, (a.centre[1] + b.centre[1]) / 2, (a.centre[2] + b.centre[2]) / 2];
  const target: P3 = [
    (point.x - screen.widthPx / 2) * ((10 * screen.widthCm) / screen.widthPx),
    10 * screen.cameraAboveCm + point.y * ((10 * screen.heightCm) / screen.heightPx),
    0,
  ];
  const back = transpose(head);
  return eyes.eyes.map((eye): EyeTurn => {
    const offset = apply(head, sub(eye.centre, mid)).map((v) => v / eyes.perMm) as P3;
    const world: P3 = [offset[0], offset[1], 10 * screen.distanceCm + offset[2]];
    const direction = apply(back, norm(sub(target, world)));
    return {
      direction,
      // Ry(yaw) · Rx(pitch) takes the eye's rest direction (0, 0, −1) to (−sin yaw · cos pitch, sin pitch, …).
      yaw: Math.atan2(-direction[0], -direction[2]) / DEG,
      pitch: Math.atan2(direction[1], Math.hypot(direction[0], direction[2])) / DEG,
    };
  }) as [EyeTurn, EyeTurn];
}

/** The iris centre of each eye in the frame (pixels) for these turns. */
export function irisCentres(eyes: EyeRig, turns: readonly EyeTurn[], project: (h: P3) => P3): [P2, P2] {
  return eyes.eyes.map((eye, k) => {
    const d = (turns[k] as EyeTurn).direction;
    const depth = EYE_MODEL.irisDepthMm * eyes.perMm;
    const p = project([eye.centre[0] + depth * d[0], eye.centre[1] + depth * d[1], eye.centre[2] + depth * d[2]]);
    return [p[0], p[1]] as P2;
  }) as [P2, P2];
}

const SUB = 3;
/** The sub-samples' offsets in a pixel, (s + 0.5) / SUB. */
const OFFSETS = Array.from({ length: SUB }, (_, s) => (s + 0.5) / SUB);

/**
 * Paints each eye's opening (where the lids are in the frame, `points`: the mesh's 468 in frame pixels): the sclera,
 * shaded under the upper lid, and the iris as the ellipse its disc makes for the eye's turn, in the photo's own iris
 * colour with radial fibres, a darker rim and the pupil.
 */
export function paintEyes(
  out: Canvas,
  eyes: EyeRig,
  turns: readonly EyeTurn[],
  head: Mat3,
  points: readonly P3[],
  project: (h: P3) => P3,
  scale: number,
): void {
  const centres = irisCentres(eyes, turns, project);
  for (const [k, eye] of EYES.entries()) {
    const prepared = eyes.eyes[k] as PreparedEye;
    const poly = eyeOutline(eye).map((i): P2 => [(points[i] as P3)[0], (points[i] as P3)[1]]);
    const upper = polyline([eye.outer, ...eye.upper, eye.inner].map((i) => points[i] as P3));
    const lower = polyline([eye.outer, ...eye.lower, eye.inner].map((i) => points[i] as P3));
    const n = apply(head, (turns[k] as EyeTurn).direction);
    const r = EYE_MODEL.irisRadiusMm * eyes.perMm * scale;
    const len = Math.hypot(n[0], n[1]);
    const minorDir: P2 = len > 1e-6 ? [n[0] / len, n[1] / len] : [1, 0];
    const majorDir: P2 = [-minorDir[1], minorDir[0]];
    const minor = r * Math.max(Math.abs(n[2]), 0.05);
    const [icx, icy] = centres[k] as P2;
    const [ir, ig, ib] = prepared.irisColour;
    const [sr, sg, sb] = prepared.sclera;
    const xs = poly.map((p) => p[0]);
    const ys = poly.map((p) => p[1]);
    const x0 = Math.max(0, Math.floor(Math.min(...xs)));
    const x1 = Math.min(out.width - 1, Math.ceil(Math.max(...xs)));
    const y0 = Math.max(0, Math.floor(Math.min(...ys)));
    const y1 = Math.min(out.height - 1, Math.ceil(Math.max(...ys)));
    // Which sub-samples lie inside the opening: per sub-row, where the outline's edges cross it (the test of
    // `inside`, row by row).
    const crossings = Array.from({ length: SUB }, () => new Float64Array(poly.length));
    const crossed = new Int32Array(SUB);
    for (let y = y0; y <= y1; y++) {
      for (let sy = 0; sy < SUB; sy++)
        crossed[sy] = crossingsAt(poly, y + (OFFSETS[sy] as number), crossings[sy] as Float64Array);
      for (let x = x0; x <= x1; x++) {
        let mask = 0;
        let covered = 0;
        for (let sy = 0; sy < SUB; sy++) {
          const row = crossings[sy] as Float64Array;
          const m = crossed[sy] as number;
          for (let sx = 0; sx < SUB; sx++) {
            const qx = x + (OFFSETS[sx] as number);
            if (crossedRightOf(row, m, qx)) {
              mask |= 1 << (sy * SUB + sx);
              covered++;
            }
          }
        }
        if (!covered) continue;
        // The lid's shadow: darker near the upper lid (once per pixel).
        const dU = distanceToPolyline(upper, x + 0.5, y + 0.5);
        const dL = distanceToPolyline(lower, x + 0.5, y + 0.5);
        const shade = 0.7 + 0.3 * Math.min(1, dU / (dU + dL + 1e-6) / 0.45);
        let r0 = 0;
        let g0 = 0;
        let b0 = 0;
        for (let sy = 0; sy < SUB; sy++) {
          for (let sx = 0; sx < SUB; sx++) {
            if (!(mask & (1 << (sy * SUB + sx)))) continue;
            const qx = x + (OFFSETS[sx] as number);
            const qy = y + (OFFSETS[sy] as number);
            const dx = qx - icx;
            const dy = qy - icy;
            const p1 = (dx * minorDir[0] + dy * minorDir[1]) / minor;
            const p2 = (dx * majorDir[0] + dy * majorDir[1]) / r;
            const rho2 = p1 * p1 + p2 * p2;
            if (rho2 <= 1) {
              // The photo's iris colour with radial fibres, a darker rim and the pupil.
              const rho = Math.sqrt(rho2);
              let k: number;
              if (rho < 0.36) k = 0.2;
              else {
                const angle = Math.atan2(p2, p1);
                const fibres = 1 + 0.12 * Math.sin(9 * angle) + 0.08 * Math.sin(23 * angle + 1.3);
                k = fibres * (rho > 0.8 ? 1 - 0.45 * ((rho - 0.8) / 0.2) : 1.05);
              }
              k *= shade;
              r0 += ir * k;
              g0 += ig * k;
              b0 += ib * k;
            } else {
              r0 += sr * shade;
              g0 += sg * shade;
              b0 += sb * shade;
            }
          }
        }
        const a = covered / (SUB * SUB);
        const o = (y * out.width + x) * 3;
        const n = SUB * SUB;
        out.rgb[o] = (1 - a) * (out.rgb[o] as number) + r0 / n;
        out.rgb[o + 1] = (1 - a) * (out.rgb[o + 1] as number) + g0 / n;
        out.rgb[o + 2] = (1 - a) * (out.rgb[o + 2] as number) + b0 / n;
      }
    }
  }
}

/** A polyline's points and segments, flat: per segment its start, its vector and its squared length (or 1). */
interface Polyline {
  ax: Float64Array;
  ay: Float64Array;
  vx: Float64Array;
  vy: Float64Array;
  d2: Float64Array;
}

function polyline(points: readonly (P2 | P3)[]): Polyline {
  const n = points.length - 1;
  const line: Polyline = {
    ax: new Float64Array(n),
    ay: new Float64Array(n),
    vx: new Float64Array(n),
    vy: new Float64Array(n),
    d2: new Float64Array(n),
  };
  for (let i = 1; i <= n; i++) {
    const a = points[i - 1] as P2;
    const b = points[i] as P2;
    const vx = b[0] - a[0];
    const vy = b[1] - a[1];
    line.ax[i - 1] = a[0];
    line.ay[i - 1] = a[1];
    line.vx[i - 1] = vx;
    line.vy[i - 1] = vy;
    line.d2[i - 1] = vx * vx + vy * vy || 1;
  }
  return line;
}

function distanceToPolyline(line: Polyline, x: number, y: number): number {
  const { ax, ay, vx, vy, d2 } = line;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < ax.length; i++) {
    const dx = x - (ax[i] as number);
    const dy = y - (ay[i] as number);
    const ux = vx[i] as number;
    const uy = vy[i] as number;
    const t = Math.max(0, Math.min(1, (dx * ux + dy * uy) / (d2[i] as number)));
    best = Math.min(best, Math.hypot(dx - t * ux, dy - t * uy));
  }
  return best;
}
