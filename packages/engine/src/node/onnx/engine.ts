/**
 * The face pipeline on onnxruntime-node: Human's BlazeFace detector, face mesh, iris and expression
 * models (converted to ONNX by scripts/convert-models.py) with the steps around them written here
 * after Human 3.3's algorithm: anchor decoding and overlap removal, the face crop turned upright from
 * the detector's keypoints, tracking each face's box from its previous mesh between detector runs,
 * eye crops for the iris model, head angles from the mesh, and the expression model's input.
 * Results have Human's shape (`DetectedFace`), so everything downstream is unchanged.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Ort from 'onnxruntime-node';
import { EngineError } from '../../errors.ts';
import type { DetectedFace } from '../../face.ts';
import { type FaceEngine, type HumanOptions, humanOptions, type RgbFrame } from '../face-engine.ts';
import { alignedGreyCrop, cropAndResize, GREY, greyPatch, type Image, type Rotation, resizeBilinear } from './image.ts';

export const ONNX_MODELS_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../models');

type P2 = [number, number];
type P3 = [number, number, number];

/** A face region in frame pixels, with the detector keypoints its rotation comes from. */
interface FaceBox {
  start: P2;
  end: P2;
  /** BlazeFace's six keypoints (eyes, nose, mouth, ears) from the last detector run. */
  keypoints: P2[];
  confidence: number;
}

// Human's detector settings (human-config.ts): boxes enlarged 1.4x, squared; overlap limit 0.1.
const DETECTOR_SIZE = 256;
const MESH_SIZE = 192;
const IRIS_SIZE = 64;
const EMOTION_SIZE = 64;
const MIN_CONFIDENCE = 0.5;
const IOU_THRESHOLD = 0.1;
const BOX_ENLARGE = 1.4;
const EYE_BOX_ENLARGE = 2.3;
/** Rotations below this (radians) are not corrected, as in Human. */
const MIN_ROTATION = 0.2;
/** Mean grey change (0..255) between frames above which the detector runs whatever `skipFrames` says: a cut. */
const SCENE_CHANGE = 16;
/** Order of the expression model's seven outputs. */
const EMOTIONS = ['angry', 'disgust', 'fear', 'happy', 'sad', 'surprise', 'neutral'] as const;

// Face-mesh indices (MediaPipe): eye outlines whose ends bound the iris model's crop, and where the
// iris model's 71 eye-region points go in the mesh (iris index list -> mesh index list).
const LEFT_EYE_LOWER0 = [263, 249, 390, 373, 374, 380, 381, 382, 362];
const RIGHT_EYE_LOWER0 = [33, 7, 163, 144, 145, 153, 154, 155, 133];
const LEFT_EYE_UPPER0 = [466, 388, 387, 386, 385, 384, 398];
const RIGHT_EYE_UPPER0 = [246, 161, 160, 159, 158, 157, 173];
const EYE_REGIONS: { key: string; iris: number[]; left: number[]; right: number[] }[] = [
  { key: 'EyeUpper0', iris: [9, 10, 11, 12, 13, 14, 15], left: LEFT_EYE_UPPER0, right: RIGHT_EYE_UPPER0 },
  {
    key: 'EyeUpper1',
    iris: [25, 26, 27, 28, 29, 30, 31],
    left: [467, 260, 259, 257, 258, 286, 414],
    right: [247, 30, 29, 27, 28, 56, 190],
  },
  {
    key: 'EyeUpper2',
    iris: [41, 42, 43, 44, 45, 46, 47],
    left: [342, 445, 444, 443, 442, 441, 413],
    right: [113, 225, 224, 223, 222, 221, 189],
  },
  { key: 'EyeLower0', iris: [0, 1, 2, 3, 4, 5, 6, 7, 8], left: LEFT_EYE_LOWER0, right: RIGHT_EYE_LOWER0 },
  {
    key: 'EyeLower1',
    iris: [16, 17, 18, 19, 20, 21, 22, 23, 24],
    left: [359, 255, 339, 254, 253, 252, 256, 341, 463],
    right: [130, 25, 110, 24, 23, 22, 26, 112, 243],
  },
  {
    key: 'EyeLower2',
    iris: [32, 33, 34, 35, 36, 37, 38, 39, 40],
    left: [446, 261, 448, 449, 450, 451, 452, 453, 464],
    right: [226, 31, 228, 229, 230, 231, 232, 233, 244],
  },
  {
    key: 'EyeLower3',
    iris: [54, 55, 56, 57, 58, 59, 60, 61, 62],
    left: [372, 340, 346, 347, 348, 349, 350, 357, 465],
    right: [143, 111, 117, 118, 119, 120, 121, 128, 245],
  },
  {
    key: 'EyebrowUpper',
    iris: [63, 64, 65, 66, 67, 68, 69, 70],
    left: [383, 300, 293, 334, 296, 336, 285, 417],
    right: [156, 70, 63, 105, 66, 107, 55, 193],
  },
  {
    key: 'EyebrowLower',
    iris: [48, 49, 50, 51, 52, 53],
    left: [265, 353, 276, 283, 282, 295],
    right: [35, 124, 46, 53, 52, 65],
  },
];
const IRIS_POINTS = 76;
const IRIS_FIRST = 71;

const SESSION_OPTIONS: Ort.InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
};

/** The expected input of each model (NHWC, as in tfjs); checked at load so a wrong file fails at start. */
const MODEL_INPUTS = {
  blazeface: [DETECTOR_SIZE, 3],
  facemesh: [MESH_SIZE, 3],
  iris: [IRIS_SIZE, 3],
  emotion: [EMOTION_SIZE, 1],
} as const;
type ModelName = keyof typeof MODEL_INPUTS;

/** onnxruntime is loaded with the first engine, not on import: the API server imports this package too. */
type OrtModule = typeof Ort;

class Model {
  constructor(
    private readonly ort: OrtModule,
    readonly session: Ort.InferenceSession,
    readonly size: number,
    readonly channels: number,
  ) {}

  async run(data: Float32Array, batch = 1): Promise<Ort.InferenceSession.OnnxValueMapType> {
    const input = new this.ort.Tensor('float32', data, [batch, this.size, this.size, this.channels]);
    return this.session.run({ [this.session.inputNames[0] as string]: input });
  }
}

async function loadModel(ort: OrtModule, name: ModelName, dir: string): Promise<Model> {
  const file = join(dir, `${name}.onnx`);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new EngineError(
      'model_unavailable',
      `The face model ${file} is missing. It ships with @emolens/engine (made by packages/engine/scripts/convert-models.py).`,
      { cause: error },
    );
  }
  let session: Ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(bytes, SESSION_OPTIONS);
  } catch (error) {
    throw new EngineError(
      'model_unavailable',
      `The face model ${file} cannot be loaded (corrupt or not an ONNX model): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const [size, channels] = MODEL_INPUTS[name];
  const meta = session.inputMetadata[0];
  const shape = meta && 'shape' in meta ? meta.shape : [];
  if (session.inputNames.length !== 1 || shape[1] !== size || shape[2] !== size || shape[3] !== channels) {
    throw new EngineError(
      'model_unavailable',
      `The face model ${file} does not take ${size}x${size}x${channels} images: a different model?`,
    );
  }
  return new Model(ort, session, size, channels);
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const round2 = (x: number) => Math.round(100 * x) / 100;

/** BlazeFace's anchor centres (256 input: a 16x16 grid with 2 anchors each, then 8x8 with 6). */
function anchors(): Float32Array {
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

const boxSize = (b: { start: P2; end: P2 }): P2 => [Math.abs(b.end[0] - b.start[0]), Math.abs(b.end[1] - b.start[1])];
const boxCentre = (b: { start: P2; end: P2 }): P2 => [
  b.start[0] + (b.end[0] - b.start[0]) / 2,
  b.start[1] + (b.end[1] - b.start[1]) / 2,
];

/** The box grown by `factor` about its centre, then made square (whole pixels). */
function enlargeSquare(box: { start: P2; end: P2 }, factor: number): { start: P2; end: P2 } {
  const [cx, cy] = boxCentre(box);
  const [w, h] = boxSize(box);
  const half = (Math.max(w, h) * factor) / 2;
  return { start: [Math.round(cx - half), Math.round(cy - half)], end: [Math.round(cx + half), Math.round(cy + half)] };
}

/** Angle (radians) that turns the face upright, from the mouth-to-nose line (Human's computeRotation). */
function uprightAngle(mouth: P2, nose: P2): number {
  const a = Math.PI / 2 - Math.atan2(-(nose[1] - mouth[1]), nose[0] - mouth[0]);
  return a - 2 * Math.PI * Math.floor((a + Math.PI) / (2 * Math.PI));
}

/** Head angles (radians) from four mesh points, as Human's calculateFaceAngle. */
function headAngles(mesh: P3[], box: { start: P2; end: P2 }): { pitch: number; yaw: number; roll: number } {
  const [w, h] = boxSize(box);
  const size = Math.max(w, h) / 1.5;
  const pts = [10, 152, 234, 454].map((i) => {
    const p = mesh[i] as P3;
    return [p[0] / size, p[1] / size, p[2] / MESH_SIZE] as P3;
  }) as [P3, P3, P3, P3];
  const sub = (a: P3, b: P3): P3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const norm = (v: P3): P3 => {
    const l = Math.hypot(v[0], v[1], v[2]);
    return [v[0] / l, v[1] / l, v[2] / l];
  };
  const cross = (a: P3, b: P3): P3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const yAxis = norm(sub(pts[1], pts[0]));
  let xAxis = norm(sub(pts[3], pts[2]));
  const zAxis = norm(cross(xAxis, yAxis));
  xAxis = cross(yAxis, zAxis);
  const [r00, r10, r11, r12, r20, r21, r22] = [xAxis[0], yAxis[0], yAxis[1], yAxis[2], zAxis[0], zAxis[1], zAxis[2]];
  let x: number;
  let y: number;
  let z: number;
  if (r10 < 1) {
    if (r10 > -1) {
      z = Math.atan2(r10, Math.sqrt(r00 * r00 + r20 * r20));
      y = Math.atan2(-r20, r00);
      x = Math.atan2(-r12, r11);
    } else {
      z = -Math.PI / 2;
      y = -Math.atan2(r21, r22);
      x = 0;
    }
  } else {
    z = Math.PI / 2;
    y = Math.atan2(r21, r22);
    x = 0;
  }
  const clean = (v: number) => (Number.isNaN(v) ? 0 : -v);
  return { pitch: clean(x), yaw: clean(y), roll: clean(z) };
}

/** Mean grey level on a sparse grid, for the scene-change check. */
function greyGrid(frame: RgbFrame, step = 16): Float32Array {
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
/** Detail kept in the expression crop (pixels a side) before it is scaled to the model's 64. */
export const EXPRESSION_RESOLUTION = 48;
/** Small shifts of the expression crop (fractions of its side), each also mirrored; scores are averaged. */
export const EXPRESSION_SHIFTS: readonly P2[] = [
  [0, 0],
  [0.03, 0.03],
];

export class OnnxFaceEngine implements FaceEngine {
  readonly runtime = 'onnxruntime-node';
  private boxes: FaceBox[] = [];
  private skipped = Number.MAX_SAFE_INTEGER;
  private lastGrid: Float32Array | null = null;
  private readonly anchorCentres = anchors();
  private readonly detectorInput = new Float32Array(DETECTOR_SIZE * DETECTOR_SIZE * 3);
  private readonly faceCrop = new Float32Array(MESH_SIZE * MESH_SIZE * 3);
  private readonly eyeCrops = new Float32Array(2 * IRIS_SIZE * IRIS_SIZE * 3);
  private readonly emotionRgb = new Float32Array(EMOTION_SIZE * EMOTION_SIZE * 3);
  private readonly emotionInput = new Float32Array(2 * EXPRESSION_SHIFTS.length * EMOTION_SIZE * EMOTION_SIZE);

  constructor(
    private readonly models: { blazeface: Model; facemesh: Model; iris: Model; emotion: Model },
    readonly options: HumanOptions,
  ) {}

  reset(): void {
    this.boxes = [];
    this.skipped = Number.MAX_SAFE_INTEGER;
    this.lastGrid = null;
  }

  async detect(frame: RgbFrame): Promise<DetectedFace[]> {
    const grid = greyGrid(frame);
    let change = 0;
    if (this.lastGrid && this.lastGrid.length === grid.length) {
      for (let i = 0; i < grid.length; i++) change += Math.abs((grid[i] as number) - (this.lastGrid[i] as number));
      change /= grid.length;
    } else {
      change = Number.POSITIVE_INFINITY;
    }
    this.lastGrid = grid;
    if (this.skipped >= this.options.skipFrames || this.boxes.length === 0 || change > SCENE_CHANGE) {
      this.boxes = await this.runDetector(frame);
      this.skipped = 0;
    } else {
      this.skipped++;
    }
    const faces: DetectedFace[] = [];
    const tracked: FaceBox[] = [];
    for (const box of this.boxes) {
      if (!this.options.stages.mesh) {
        faces.push(this.detectorOnly(box, frame));
        tracked.push(box);
        continue;
      }
      const result = await this.analyseFace(box, frame);
      if (!result) continue;
      // Two tracked boxes drifting onto one face would count it twice: the later one is dropped.
      if (tracked.some((t) => overlap(t, result.next) > 0.5)) continue;
      faces.push(result.face);
      tracked.push(result.next);
    }
    this.boxes = tracked;
    return faces;
  }

  private async runDetector(frame: RgbFrame): Promise<FaceBox[]> {
    resizeBilinear(frame, DETECTOR_SIZE, DETECTOR_SIZE, this.detectorInput, 1 / 127.5, -1);
    const out = Object.values(await this.models.blazeface.run(this.detectorInput));
    // Four outputs: scores and regressions for the 512 fine anchors and the 384 coarse ones.
    const by = (n: number, k: number) => out.find((t) => t.dims[1] === n && t.dims[2] === k)?.data as Float32Array;
    const parts = [
      { scores: by(512, 1), regs: by(512, 16) },
      { scores: by(384, 1), regs: by(384, 16) },
    ];
    const boxes: [number, number, number, number][] = [];
    const scores: number[] = [];
    const regs: Float32Array[] = [];
    const fx = frame.width / DETECTOR_SIZE;
    const fy = frame.height / DETECTOR_SIZE;
    for (const { scores: s, regs: r } of parts) {
      for (let i = 0; i < s.length; i++) {
        const a = boxes.length;
        const ax = this.anchorCentres[2 * a] as number;
        const ay = this.anchorCentres[2 * a + 1] as number;
        const row = r.subarray(16 * i, 16 * i + 16);
        const cx = (row[0] as number) + ax;
        const cy = (row[1] as number) + ay;
        const w = row[2] as number;
        const h = row[3] as number;
        boxes.push([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]);
        scores.push(sigmoid(s[i] as number));
        regs.push(row);
      }
    }
    const kept = nonMaxSuppression(boxes, scores, this.options.maxFaces, IOU_THRESHOLD, MIN_CONFIDENCE);
    return kept.map((i) => {
      const [x0, y0, x1, y1] = boxes[i] as [number, number, number, number];
      const a = i;
      const row = regs[i] as Float32Array;
      const keypoints: P2[] = [];
      for (let k = 0; k < 6; k++) {
        keypoints.push([
          ((row[4 + 2 * k] as number) + (this.anchorCentres[2 * a] as number)) * fx,
          ((row[5 + 2 * k] as number) + (this.anchorCentres[2 * a + 1] as number)) * fy,
        ]);
      }
      const square = enlargeSquare({ start: [x0 * fx, y0 * fy], end: [x1 * fx, y1 * fy] }, BOX_ENLARGE);
      return { ...square, keypoints, confidence: scores[i] as number };
    });
  }

  private detectorOnly(box: FaceBox, frame: RgbFrame): DetectedFace {
    return {
      score: round2(box.confidence),
      box: clampBox(box, frame),
      mesh: box.keypoints.map((p) => [p[0], p[1], 0]),
      rotation: null,
      emotion: [],
    };
  }

  /** Mesh, iris and expression of one face; null when the mesh model says it is no face. */
  private async analyseFace(box: FaceBox, frame: RgbFrame): Promise<{ face: DetectedFace; next: FaceBox } | null> {
    const [cx, cy] = boxCentre(box);
    const angle = uprightAngle(box.keypoints[3] as P2, box.keypoints[2] as P2);
    const rotated = Math.abs(angle) > MIN_ROTATION;
    const rotation: Rotation | null = rotated ? { radians: angle, cx, cy } : null;
    const W = frame.width;
    const H = frame.height;
    cropAndResize(
      frame,
      [box.start[1] / H, box.start[0] / W, box.end[1] / H, box.end[0] / W],
      MESH_SIZE,
      this.faceCrop,
      {
        scale: 1 / 255,
        rotation,
      },
    );
    const out = Object.values(await this.models.facemesh.run(this.faceCrop));
    const flag = out.find((t) => t.dims.at(-1) === 1)?.data as Float32Array;
    const raw = out.find((t) => t.dims.at(-1) === 1404)?.data as Float32Array;
    const faceScore = round2(flag[0] as number);
    if (faceScore < MIN_CONFIDENCE) return null;
    let coords: P3[] = [];
    for (let i = 0; i < 468; i++)
      coords.push([raw[3 * i] as number, raw[3 * i + 1] as number, raw[3 * i + 2] as number]);
    if (this.options.stages.iris) coords = await this.addIris(coords);

    // Back to frame pixels: scale about the crop's centre, undo the rotation, move to the box centre.
    const [bw, bh] = boxSize(box);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const mesh: P3[] = coords.map(([x, y, z]) => {
      let px = (bw / MESH_SIZE) * (x - MESH_SIZE / 2);
      let py = (bh / MESH_SIZE) * (y - MESH_SIZE / 2);
      if (rotated) [px, py] = [cos * px - sin * py, sin * px + cos * py];
      return [Math.trunc(px + cx), Math.trunc(py + cy), Math.trunc(z)];
    });
    // The next frame's box: the same size, centred on this mesh.
    let minX = Number.POSITIVE_INFINITY;
    let minY = Number.POSITIVE_INFINITY;
    let maxX = Number.NEGATIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    for (const [x, y] of mesh) {
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
    const mx = minX + (maxX - minX) / 2;
    const my = minY + (maxY - minY) / 2;
    const next: FaceBox = {
      start: [mx - bw / 2, my - bh / 2],
      end: [mx + bw / 2, my + bh / 2],
      keypoints: box.keypoints,
      confidence: box.confidence,
    };
    const face: DetectedFace = {
      score: faceScore,
      box: clampBox(next, frame),
      mesh,
      rotation: { angle: headAngles(mesh, next) },
    };
    if (this.options.stages.emotion) face.emotion = await this.expressions(frame, mesh);
    return { face, next };
  }

  /** Human's augmentIris: both eyes through the iris model, eye contours and iris points into the mesh. */
  private async addIris(coords: P3[]): Promise<P3[]> {
    const eyeBox = (inner: number, outer: number) => {
      const a = coords[inner] as P3;
      const b = coords[outer] as P3;
      const box = {
        start: [Math.min(a[0], b[0]), Math.min(a[1], b[1])] as P2,
        end: [Math.max(a[0], b[0]), Math.max(a[1], b[1])] as P2,
      };
      const [ecx, ecy] = boxCentre(box);
      const half = (Math.max(...boxSize(box)) * EYE_BOX_ENLARGE) / 2;
      return {
        start: [Math.round(ecx - half), Math.round(ecy - half)] as P2,
        end: [Math.round(ecx + half), Math.round(ecy + half)] as P2,
      };
    };
    const left = eyeBox(LEFT_EYE_LOWER0[0] as number, LEFT_EYE_LOWER0.at(-1) as number);
    const right = eyeBox(RIGHT_EYE_LOWER0[0] as number, RIGHT_EYE_LOWER0.at(-1) as number);
    const crop: Image = { data: this.faceCrop, width: MESH_SIZE, height: MESH_SIZE };
    const n = IRIS_SIZE * IRIS_SIZE * 3;
    // Both eye crops are mirrored for the model. Human maps back only the left eye's points; for the right eye
    // its unmirrored contour lands where it should only because the model's point order is mirrored too and the
    // crop is centred on the eye's corners, while the iris centre, a single point, ends up mirrored: looking
    // right moved that iris left. The iris points of both eyes are mapped back (the contours as Human does).
    for (const [k, b] of [left, right].entries()) {
      cropAndResize(
        crop,
        [b.start[1] / MESH_SIZE, b.start[0] / MESH_SIZE, b.end[1] / MESH_SIZE, b.end[0] / MESH_SIZE],
        IRIS_SIZE,
        this.eyeCrops,
        { flip: true, offset0: k * n },
      );
    }
    const out = Object.values(await this.models.iris.run(this.eyeCrops, 2))[0]?.data as Float32Array;
    const eyePoints = (b: { start: P2; end: P2 }, offset: number, flipContour: boolean): P3[] => {
      const [w, h] = boxSize(b);
      const pts: P3[] = [];
      for (let i = 0; i < IRIS_POINTS; i++) {
        const x = (out[offset + 3 * i] as number) / IRIS_SIZE;
        const y = (out[offset + 3 * i + 1] as number) / IRIS_SIZE;
        const flip = i >= IRIS_FIRST || flipContour;
        pts.push([(flip ? 1 - x : x) * w + b.start[0], y * h + b.start[1], out[offset + 3 * i + 2] as number]);
      }
      return pts;
    };
    const leftPts = eyePoints(left, 0, true);
    const rightPts = eyePoints(right, IRIS_POINTS * 3, false);
    const replace = (pts: P3[], side: 'left' | 'right', keys: string[] | null) => {
      for (const region of EYE_REGIONS) {
        if (keys && !keys.includes(region.key)) continue;
        region.iris.forEach((from, j) => {
          const to = region[side][j] as number;
          const p = pts[from] as P3;
          coords[to] = [p[0], p[1], (p[2] + (coords[to] as P3)[2]) / 2];
        });
      }
    };
    // Looking aside, the iris model's contours diverge from the mesh: only the turned-to eye's lids.
    const depth = (coords[LEFT_EYE_LOWER0[0] as number] as P3)[2] - (coords[RIGHT_EYE_LOWER0[0] as number] as P3)[2];
    if (Math.abs(depth) < 30) {
      replace(leftPts, 'left', null);
      replace(rightPts, 'right', null);
    } else if (depth < 1) {
      replace(leftPts, 'left', ['EyeUpper0', 'EyeLower0']);
    } else {
      replace(rightPts, 'right', ['EyeUpper0', 'EyeLower0']);
    }
    const irisWithDepth = (pts: P3[], upper: number[], lower: number[]): P3[] => {
      const up = (coords[upper[3] as number] as P3)[2];
      const low = (coords[lower[4] as number] as P3)[2];
      return pts.slice(IRIS_FIRST).map((p, i) => [p[0], p[1], i === 2 ? up : i === 4 ? low : (up + low) / 2]);
    };
    return [
      ...coords,
      ...irisWithDepth(leftPts, LEFT_EYE_UPPER0, LEFT_EYE_LOWER0),
      ...irisWithDepth(rightPts, RIGHT_EYE_UPPER0, RIGHT_EYE_LOWER0),
    ];
  }

  /** Expression scores, highest first, in Human's shape. */
  private async expressions(frame: RgbFrame, mesh: P3[]): Promise<{ score: number; emotion: string }[]> {
    const size = EMOTION_SIZE * EMOTION_SIZE;
    let batch = 1;
    if (this.options.expressionInput === 'human') {
      resizeBilinear(
        { data: this.faceCrop, width: MESH_SIZE, height: MESH_SIZE },
        EMOTION_SIZE,
        EMOTION_SIZE,
        this.emotionRgb,
      );
      for (let i = 0; i < size; i++) {
        const g =
          GREY[0] * (this.emotionRgb[3 * i] as number) +
          GREY[1] * (this.emotionRgb[3 * i + 1] as number) +
          GREY[2] * (this.emotionRgb[3 * i + 2] as number);
        this.emotionInput[i] = (g - 0.5) * 2;
      }
    } else {
      const crop = expressionCrop(mesh);
      // Averaged down to FER2013's 48 pixels a side first (the expression model's training faces, shown to it
      // at 64): every face of 48 pixels or more then looks alike to the model, and a large one is not aliased.
      const factor = crop.side / EXPRESSION_RESOLUTION;
      const shift = Math.max(...EXPRESSION_SHIFTS.flat().map(Math.abs));
      const patch = greyPatch(frame, crop.x, crop.y, crop.side * (Math.SQRT1_2 + shift) + 2 * factor, factor);
      batch = 0;
      for (const [dx, dy] of EXPRESSION_SHIFTS) {
        const centre = {
          x: crop.x + (dx * Math.cos(crop.radians) - dy * Math.sin(crop.radians)) * crop.side,
          y: crop.y + (dx * Math.sin(crop.radians) + dy * Math.cos(crop.radians)) * crop.side,
        };
        for (const flip of [false, true]) {
          alignedGreyCrop(patch, centre, crop.side, crop.radians, EMOTION_SIZE, this.emotionInput, {
            flip,
            offset0: batch++ * size,
          });
        }
      }
    }
    const input =
      batch === this.emotionInput.length / size ? this.emotionInput : this.emotionInput.subarray(0, batch * size);
    const probs = Object.values(await this.models.emotion.run(input, batch))[0]?.data as Float32Array;
    const result = EMOTIONS.map((emotion, i) => {
      let sum = 0;
      for (let b = 0; b < batch; b++) sum += probs[b * EMOTIONS.length + i] as number;
      const p = sum / batch;
      // Human truncates to two decimals and caps at 0.99; kept on its path for comparable numbers.
      return {
        emotion,
        score: this.options.expressionInput === 'human' ? Math.min(0.99, Math.trunc(100 * p) / 100) : p,
      };
    });
    return result.filter((e) => e.score > 0).sort((a, b) => b.score - a.score);
  }
}

/** Where the expression crop lies: upright on the eye line, around the mesh's extent. */
export function expressionCrop(mesh: P3[]): { x: number; y: number; side: number; radians: number } {
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
  let minU = Number.POSITIVE_INFINITY;
  let maxU = Number.NEGATIVE_INFINITY;
  let minV = Number.POSITIVE_INFINITY;
  let maxV = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < 468; i++) {
    const [x, y] = mesh[i] as P3;
    const u = x * cos + y * sin;
    const v = -x * sin + y * cos;
    minU = Math.min(minU, u);
    maxU = Math.max(maxU, u);
    minV = Math.min(minV, v);
    maxV = Math.max(maxV, v);
  }
  const cu = (minU + maxU) / 2;
  const cv = (minV + maxV) / 2;
  return {
    x: cu * cos - cv * sin,
    y: cu * sin + cv * cos,
    side: Math.max(maxU - minU, maxV - minV) * EXPRESSION_CROP_SCALE,
    radians,
  };
}

/** Intersection over union of two face boxes. */
function overlap(a: { start: P2; end: P2 }, b: { start: P2; end: P2 }): number {
  const w = Math.max(0, Math.min(a.end[0], b.end[0]) - Math.max(a.start[0], b.start[0]));
  const h = Math.max(0, Math.min(a.end[1], b.end[1]) - Math.max(a.start[1], b.start[1]));
  const [aw, ah] = boxSize(a);
  const [bw, bh] = boxSize(b);
  const union = aw * ah + bw * bh - w * h;
  return union > 0 ? (w * h) / union : 0;
}

/** Human's box in the result: inside the frame, whole pixels, [x, y, width, height]. */
function clampBox(box: { start: P2; end: P2 }, frame: RgbFrame): [number, number, number, number] {
  const x = Math.max(0, box.start[0]);
  const y = Math.max(0, box.start[1]);
  return [
    Math.trunc(x),
    Math.trunc(y),
    Math.trunc(Math.min(frame.width, box.end[0]) - x),
    Math.trunc(Math.min(frame.height, box.end[1]) - y),
  ];
}

/** Loads the four models (single-threaded sessions: one engine per worker process). */
export async function createOnnxEngine(
  options: Partial<HumanOptions> = {},
  dir: string = ONNX_MODELS_DIR,
): Promise<OnnxFaceEngine> {
  const ort = (await import('onnxruntime-node')) as OrtModule;
  const [blazeface, facemesh, iris, emotion] = await Promise.all(
    (['blazeface', 'facemesh', 'iris', 'emotion'] as const).map((m) => loadModel(ort, m, dir)),
  );
  return new OnnxFaceEngine(
    { blazeface: blazeface as Model, facemesh: facemesh as Model, iris: iris as Model, emotion: emotion as Model },
    humanOptions(options),
  );
}
