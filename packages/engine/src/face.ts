import { actionUnits } from './action-units.ts';
import { irisDiameterPx } from './iris-distance.ts';
import {
  EXPRESSIONS,
  type EyeFeatures,
  type EyePoint,
  type FaceData,
  type FrameData,
  type QualityFlag,
} from './types.ts';

/** The part of a Human face result the engine reads (same shape in Node and in the browser). */
export interface DetectedFace {
  score: number;
  box: [number, number, number, number];
  mesh: [number, number, number?][];
  rotation?: { angle: { yaw: number; pitch: number; roll: number } } | null;
  emotion?: { score: number; emotion: string }[];
}

/** A head turned further than this no longer looks at the screen (degrees). */
export const HEAD_TURN_LIMIT = { yaw: 30, pitch: 25 } as const;
/** Mean luma below this is too dark for reliable expressions. */
export const DARK_LUMA = 0.15;
/** Mean luma above this is overexposed. */
export const BRIGHT_LUMA = 0.85;
/** A main face narrower than this (frame pixels) is too small for reliable landmarks and expressions. */
export const SMALL_FACE_PX = 60;

// MediaPipe face-mesh indices: corners and lids of each eye, then the two iris centres.
// `down`: the corner axis runs outer → inner, which points the image's right for the subject's right eye and
// its left for the left eye; the perpendicular turned +90° from it points down the face for the first and up
// for the second, so the second's across-axis coordinate is negated to make both positive downwards.
// `contour`: the opening's 16 points (lower lid corner to corner, then the upper lid), whose mean is the eye's centre.
const EYES = [
  {
    outer: 33,
    inner: 133,
    upper: 159,
    lower: 145,
    down: 1,
    contour: [33, 7, 163, 144, 145, 153, 154, 155, 133, 246, 161, 160, 159, 158, 157, 173],
  },
  {
    outer: 263,
    inner: 362,
    upper: 386,
    lower: 374,
    down: -1,
    contour: [263, 249, 390, 373, 374, 380, 381, 382, 362, 466, 388, 387, 386, 385, 384, 398],
  },
] as const;
// Iris: centre then four boundary points. Human rounds landmarks to whole pixels, so the mean of
// the five gives the centre to a fraction of a pixel.
const IRISES = [
  [468, 469, 470, 471, 472],
  [473, 474, 475, 476, 477],
] as const;

type P = [number, number, number?];

function eyePoint(mesh: P[], eye: (typeof EYES)[number], iris: P): EyePoint | null {
  const a = mesh[eye.outer];
  const b = mesh[eye.inner];
  if (!a || !b) return null;
  const ax = b[0] - a[0];
  const ay = b[1] - a[1];
  const len2 = ax * ax + ay * ay;
  if (len2 < 1) return null;
  // From the mean of the opening's 16 points rather than from one corner: each point of the eye's outline scatters
  // by most of a pixel from frame to frame at 640 px, their mean by much less (decision 032).
  let cx = 0;
  let cy = 0;
  for (const i of eye.contour) {
    cx += mesh[i]?.[0] ?? Number.NaN;
    cy += mesh[i]?.[1] ?? Number.NaN;
  }
  const dx = iris[0] - cx / eye.contour.length;
  const dy = iris[1] - cy / eye.contour.length;
  const len = Math.sqrt(len2);
  // Along the corner axis (0 outer … 1 inner, 0.5 at the opening's centre) and across it, in eye widths.
  return { x: 0.5 + (dx * ax + dy * ay) / len2, y: (eye.down * (ax * dy - ay * dx)) / len / len };
}

/** Iris position of each eye relative to its opening (centre and corner axis); null without iris landmarks. */
export function eyeFeatures(mesh: P[]): EyeFeatures | null {
  if (mesh.length < 478) return null;
  const centres = IRISES.map((idx): P => {
    let x = 0;
    let y = 0;
    for (const i of idx) {
      x += mesh[i]?.[0] ?? 0;
      y += mesh[i]?.[1] ?? 0;
    }
    return [x / idx.length, y / idx.length];
  });
  const [e0, e1] = EYES;
  const mid = (e: (typeof EYES)[number]) => {
    const a = mesh[e.outer] ?? [0, 0];
    const b = mesh[e.inner] ?? [0, 0];
    return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] as const;
  };
  const [c0, c1] = centres;
  if (!c0 || !c1) return null;
  // Assign each iris to the nearer eye, whatever order the model used.
  const m0 = mid(e0);
  const d = (p: P, m: readonly [number, number]) => (p[0] - m[0]) ** 2 + (p[1] - m[1]) ** 2;
  const [i0, i1] = d(c0, m0) <= d(c1, m0) ? [c0, c1] : [c1, c0];
  const first = eyePoint(mesh, e0, i0);
  const second = eyePoint(mesh, e1, i1);
  if (!first || !second) return null;
  // e0 (indices 33/133) is the subject's right eye, shown on the image's left.
  return { right: first, left: second };
}

const DEG = 180 / Math.PI;

export function toFaceData(face: DetectedFace): FaceData {
  const expressions = Object.fromEntries(EXPRESSIONS.map((e) => [e, 0])) as FaceData['expressions'];
  let total = 0;
  for (const e of face.emotion ?? []) {
    if ((EXPRESSIONS as readonly string[]).includes(e.emotion)) {
      expressions[e.emotion as keyof typeof expressions] = e.score;
      total += e.score;
    }
  }
  // Scores are normalised to sum to 1 over the seven expressions.
  if (total > 0) for (const e of EXPRESSIONS) expressions[e] /= total;
  const angle = face.rotation?.angle;
  const [x, y, width, height] = face.box;
  const data: FaceData = {
    box: { x, y, width, height },
    score: face.score,
    landmarks: face.mesh.map((p) => [p[0], p[1], p[2] ?? 0]),
    pose: angle
      ? { yaw: angle.yaw * DEG, pitch: angle.pitch * DEG, roll: angle.roll * DEG }
      : { yaw: 0, pitch: 0, roll: 0 },
    expressions,
    eyes: eyeFeatures(face.mesh),
  };
  data.actionUnits = actionUnits(data);
  data.irisPx = irisDiameterPx(data.landmarks);
  return data;
}

/** Mean luma (Rec. 601) of an RGB24 frame, 0..1, sampled on a sparse grid. */
export function brightness(rgb: Uint8Array, width: number, height: number, step = 8): number {
  let sum = 0;
  let n = 0;
  for (let y = 0; y < height; y += step) {
    for (let x = 0; x < width; x += step) {
      const i = (y * width + x) * 3;
      sum += 0.299 * (rgb[i] ?? 0) + 0.587 * (rgb[i + 1] ?? 0) + 0.114 * (rgb[i + 2] ?? 0);
      n++;
    }
  }
  return n ? sum / n / 255 : 0;
}

/**
 * A landmark outside the frame: `face_cut`'s rule, and what makes the expression crop frame a cut face by its rigid
 * points (decision 038).
 */
export const outsideFrame = (p: readonly number[], frame: { width: number; height: number }) =>
  (p[0] as number) < 0 || (p[1] as number) < 0 || (p[0] as number) >= frame.width || (p[1] as number) >= frame.height;

/** The frame's flags; with the frame's size (`frame`), also `face_cut`, `face_small` and `too_bright`. */
export function qualityFlags(
  faces: FaceData[],
  luma: number,
  frame?: { width: number; height: number },
): QualityFlag[] {
  const flags: QualityFlag[] = [];
  if (faces.length === 0) flags.push('no_face');
  if (faces.length > 1) flags.push('several_faces');
  const main = mainFace(faces);
  if (main && (Math.abs(main.pose.yaw) > HEAD_TURN_LIMIT.yaw || Math.abs(main.pose.pitch) > HEAD_TURN_LIMIT.pitch)) {
    flags.push('head_turned');
  }
  if (luma < DARK_LUMA) flags.push('too_dark');
  if (frame) {
    if (main?.landmarks.some((p) => outsideFrame(p, frame))) flags.push('face_cut');
    if (main && main.box.width < SMALL_FACE_PX) flags.push('face_small');
    if (luma > BRIGHT_LUMA) flags.push('too_bright');
  }
  return flags;
}

/** The largest face: the respondent, nearest to the camera. */
export function mainFace(faces: FaceData[]): FaceData | null {
  let best: FaceData | null = null;
  for (const f of faces) if (!best || f.box.width * f.box.height > best.box.width * best.box.height) best = f;
  return best;
}

export function frameData(
  index: number,
  time: number,
  detected: DetectedFace[],
  luma: number,
  options: { multiFace: boolean; keepLandmarks: boolean; frameSize?: { width: number; height: number } },
): FrameData {
  const faces = detected.map(toFaceData);
  // Flags first: `face_cut` reads the landmarks.
  const flags = qualityFlags(faces, luma, options.frameSize);
  if (!options.keepLandmarks) for (const f of faces) f.landmarks = [];
  const frame: FrameData = {
    index,
    time,
    faceCount: faces.length,
    face: mainFace(faces),
    brightness: luma,
    flags,
  };
  if (options.multiFace) frame.faces = faces;
  return frame;
}
