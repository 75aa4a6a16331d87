/** The geometry around the face models, after Human 3.3: anchors, overlap removal, boxes, head angles, crops. */
import { outsideFrame } from '../face.ts';
import type { RgbFrame } from '../face-engine.ts';
import { headPose } from '../head-pose.ts';
import { DETECTOR_SIZE, type FaceBox, type P2, type P3 } from './constants.ts';
import { GREY } from './image.ts';

export const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
export const round2 = (x: number) => Math.round(100 * x) / 100;

/** BlazeFace's anchor centres (256 input: a 16x16 grid with 2 anchors each, then 8x8 with 6). */
export function anchors(): Float32Array {
  const out: number[] = [];
  for (const [stride, count] of [
    [16, 2],
    [32, 6],
  ] as const) {
    const cells = Math.ceil(DETECTOR_SIZE / stride);
    for (let y = 0; y < cells; y++) {
      for (let x = 0; x < cells; x++) {
        for (let n = 0; n < count; n++) out.push(stride * (x + 0.5), stride * (y + 0.5));
      }
    }
  }
  return Float32Array.from(out);
}

/** Greedy overlap removal (tfjs nonMaxSuppression): highest score first, drop boxes overlapping a kept one. */
export function nonMaxSuppression(
  boxes: [number, number, number, number][],
  scores: number[],
  maxOutput: number,
  iouThreshold: number,
  scoreThreshold: number,
): number[] {
  const order = scores
    .map((s, i) => [s, i] as const)
    .filter(([s]) => s > scoreThreshold)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const kept: number[] = [];
  const iou = (a: number[], b: number[]) => {
    const [ax0, ax1] = [Math.min(a[0] as number, a[2] as number), Math.max(a[0] as number, a[2] as number)];
    const [ay0, ay1] = [Math.min(a[1] as number, a[3] as number), Math.max(a[1] as number, a[3] as number)];
    const [bx0, bx1] = [Math.min(b[0] as number, b[2] as number), Math.max(b[0] as number, b[2] as number)];
    const [by0, by1] = [Math.min(b[1] as number, b[3] as number), Math.max(b[1] as number, b[3] as number)];
    const areaA = (ax1 - ax0) * (ay1 - ay0);
    const areaB = (bx1 - bx0) * (by1 - by0);
    if (areaA <= 0 || areaB <= 0) return 0;
    const w = Math.max(0, Math.min(ax1, bx1) - Math.max(ax0, bx0));
    const h = Math.max(0, Math.min(ay1, by1) - Math.max(ay0, by0));
    return (w * h) / (areaA + areaB - w * h);
  };
  for (const [, i] of order) {
    if (kept.length >= maxOutput) break;
    const box = boxes[i] as number[];
    if (kept.every((k) => iou(boxes[k] as number[], box) < iouThreshold)) kept.push(i);
  }
  return kept;
}

export const boxSize = (b: { start: P2; end: P2 }): P2 => [
  Math.abs(b.end[0] - b.start[0]),
  Math.abs(b.end[1] - b.start[1]),
];
export const boxCentre = (b: { start: P2; end: P2 }): P2 => [
  b.start[0] + (b.end[0] - b.start[0]) / 2,
  b.start[1] + (b.end[1] - b.start[1]) / 2,
];

/** The box grown by `factor` about its centre, then made square (whole pixels). */
export function enlargeSquare(box: { start: P2; end: P2 }, factor: number): { start: P2; end: P2 } {
  const [cx, cy] = boxCentre(box);
  const [w, h] = boxSize(box);
  const half = (Math.max(w, h) * factor) / 2;
  return { start: [Math.round(cx - half), Math.round(cy - half)], end: [Math.round(cx + half), Math.round(cy + half)] };
}

/** An angle (radians) wrapped into [−π, π). */
export const wrapRadians = (a: number): number => a - 2 * Math.PI * Math.floor((a + Math.PI) / (2 * Math.PI));

/** Angle (radians) that turns the face upright, from the mouth-to-nose line (Human's computeRotation). */
export function uprightAngle(mouth: P2, nose: P2): number {
  return wrapRadians(Math.PI / 2 - Math.atan2(-(nose[1] - mouth[1]), nose[0] - mouth[0]));
}

/** `uprightAngle` of a box's detector keypoints (mouth, nose). */
export const boxTurn = (box: FaceBox): number => uprightAngle(box.keypoints[3] as P2, box.keypoints[2] as P2);

/**
 * Head angles (radians; Human's result shape) in the engine's convention (`headPose`, docs/engine.md "Head pose"):
 * the mesh's z is in the model's input units across the crop `box`, whose side sets its scale in pixels.
 */
export function headAngles(mesh: P3[], box: { start: P2; end: P2 }): { pitch: number; yaw: number; roll: number } {
  const pose = headPose(mesh, Math.max(...boxSize(box)));
  const rad = Math.PI / 180;
  return pose ? { pitch: pose.pitch * rad, yaw: pose.yaw * rad, roll: pose.roll * rad } : { pitch: 0, yaw: 0, roll: 0 };
}

/** Mean grey level on a sparse grid, for the scene-change check. */
export function greyGrid(frame: RgbFrame, step = 16): Float32Array {
  const cols = Math.ceil(frame.width / step);
  const rows = Math.ceil(frame.height / step);
  const out = new Float32Array(cols * rows);
  let k = 0;
  for (let y = 0; y < frame.height; y += step) {
    for (let x = 0; x < frame.width; x += step) {
      const i = (y * frame.width + x) * 3;
      out[k++] =
        GREY[0] * (frame.data[i] as number) +
        GREY[1] * (frame.data[i + 1] as number) +
        GREY[2] * (frame.data[i + 2] as number);
    }
  }
  return out;
}

/**
 * The expression crop's side, as a multiple of the larger side of the mesh's upright bounding box:
 * about the extent of Human's face crop (the detector's box enlarged 1.4x), so the model sees a face
 * framed as it was trained and as Human framed it.
 */
export const EXPRESSION_CROP_SCALE = 1.25;
/**
 * The face's rigid points a face the frame cuts is framed by: the four eye corners and the nose's line from its
 * bridge to its tip, which no expression moves and which stay in view. Where part of the face is outside the frame,
 * the mesh's outline there is the model's guess, larger and shifted (a 400 px face in a 640x480 frame: the crop grew
 * 8% and moved 3% of the face's width aside, and a neutral face read 0.20 sad), so its extent no longer frames the
 * face as it does when the whole face is seen (decision 038).
 */
export const EXPRESSION_ANCHORS = [33, 133, 263, 362, 168, 6, 197, 195, 5, 4, 1] as const;
/**
 * A cut face's crop side, as a multiple of the anchors' RMS distance from their centroid, and how far below the
 * centroid (same unit, along the face's upright axis) its centre lies: the framing the extent gives a whole face, on
 * average over the three validation faces at 120 and 240 px (7.6–8.2 and 0.3–0.6 each; decision 038).
 */
export const EXPRESSION_ANCHOR_SCALE = 7.9;
export const EXPRESSION_ANCHOR_DROP = 0.5;
/** Detail kept in the expression crop (pixels a side) before it is scaled to the model's 64. */
export const EXPRESSION_RESOLUTION = 48;
/** Small shifts of the expression crop (fractions of its side), each also mirrored; scores are averaged. */
export const EXPRESSION_SHIFTS: readonly P2[] = [
  [0, 0],
  [0.03, 0.03],
];

/**
 * Where the expression crop lies: upright on the eye line, around the mesh's extent; for a face the frame cuts (a
 * mesh point outside `frame`), placed and sized by the face's rigid points instead. Without `frame`, the extent.
 */
export function expressionCrop(
  mesh: P3[],
  frame?: { width: number; height: number },
): { x: number; y: number; side: number; radians: number } {
  const mid = (a: number, b: number): P2 => {
    const p = mesh[a] as P3;
    const q = mesh[b] as P3;
    return [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
  };
  // 33/133: the eye on the image's left; 263/362: on its right.
  const e1 = mid(33, 133);
  const e2 = mid(263, 362);
  const radians = Math.atan2(e2[1] - e1[1], e2[0] - e1[0]);
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  // In the upright frame: u along the eye line, v down the face.
  const toFrame = (u: number, v: number, side: number) => ({
    x: u * cos - v * sin,
    y: u * sin + v * cos,
    side,
    radians,
  });
  let cut = false;
  let minU = Number.POSITIVE_INFINITY;
  let maxU = Number.NEGATIVE_INFINITY;
  let minV = Number.POSITIVE_INFINITY;
  let maxV = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < 468; i++) {
    const [x, y] = mesh[i] as P3;
    if (frame && outsideFrame(mesh[i] as P3, frame)) cut = true;
    const u = x * cos + y * sin;
    const v = -x * sin + y * cos;
    minU = Math.min(minU, u);
    maxU = Math.max(maxU, u);
    minV = Math.min(minV, v);
    maxV = Math.max(maxV, v);
  }
  if (!cut) {
    return toFrame((minU + maxU) / 2, (minV + maxV) / 2, Math.max(maxU - minU, maxV - minV) * EXPRESSION_CROP_SCALE);
  }
  const uv = EXPRESSION_ANCHORS.map((i) => {
    const [x, y] = mesh[i] as P3;
    return [x * cos + y * sin, -x * sin + y * cos] as const;
  });
  let cu = 0;
  let cv = 0;
  for (const [u, v] of uv) {
    cu += u;
    cv += v;
  }
  cu /= uv.length;
  cv /= uv.length;
  let spread = 0;
  for (const [u, v] of uv) spread += (u - cu) ** 2 + (v - cv) ** 2;
  const r = Math.sqrt(spread / uv.length);
  return toFrame(cu, cv + EXPRESSION_ANCHOR_DROP * r, r * EXPRESSION_ANCHOR_SCALE);
}

/** Intersection over union of two face boxes. */
export function overlap(a: { start: P2; end: P2 }, b: { start: P2; end: P2 }): number {
  const w = Math.max(0, Math.min(a.end[0], b.end[0]) - Math.max(a.start[0], b.start[0]));
  const h = Math.max(0, Math.min(a.end[1], b.end[1]) - Math.max(a.start[1], b.start[1]));
  const [aw, ah] = boxSize(a);
  const [bw, bh] = boxSize(b);
  const union = aw * ah + bw * bh - w * h;
  return union > 0 ? (w * h) / union : 0;
}

/** Human's box in the result: inside the frame, whole pixels, [x, y, width, height]. */
export function clampBox(box: { start: P2; end: P2 }, frame: RgbFrame): [number, number, number, number] {
  const x = Math.max(0, box.start[0]);
  const y = Math.max(0, box.start[1]);
  return [
    Math.trunc(x),
    Math.trunc(y),
    Math.trunc(Math.min(frame.width, box.end[0]) - x),
    Math.trunc(Math.min(frame.height, box.end[1]) - y),
  ];
}
