/**
 * The face pipeline on onnxruntime: Human's BlazeFace detector, face mesh, iris and expression
 * models (converted to ONNX by scripts/convert-models.py) with the steps around them written here
 * after Human 3.3's algorithm: anchor decoding and overlap removal, the face crop turned upright from
 * the detector's keypoints, tracking each face's box from its previous mesh between detector runs,
 * eye crops for the iris model, head angles from the mesh, and the expression model's input.
 * Results have Human's shape (`DetectedFace`), so everything downstream is unchanged. One code for the server
 * (onnxruntime-node, node/onnx/model.ts) and the respondent's browser (onnxruntime-web, browser/onnx-engine.ts):
 * the runtime and the models' bytes are injected (`loadOnnxEngine`), nothing here imports either.
 */
import type { DetectedFace } from '../face.ts';
import { type DetectOptions, type FaceEngine, type HumanOptions, humanOptions, type RgbFrame } from '../face-engine.ts';
import {
  BOX_ENLARGE,
  DETECTOR_SIZE,
  EMOTION_SIZE,
  EMOTIONS,
  EYE_BOX_ENLARGE,
  EYE_REGIONS,
  type FaceBox,
  IOU_THRESHOLD,
  IRIS_FIRST,
  IRIS_POINTS,
  IRIS_SHIFTS,
  IRIS_SIZE,
  LEFT_EYE_LOWER0,
  LEFT_EYE_UPPER0,
  MESH_SIZE,
  MIN_CONFIDENCE,
  MIN_ROTATION,
  type P2,
  type P3,
  RIGHT_EYE_LOWER0,
  RIGHT_EYE_UPPER0,
  SCENE_CHANGE,
} from './constants.ts';
import {
  anchors,
  boxCentre,
  boxSize,
  boxTurn,
  clampBox,
  EXPRESSION_RESOLUTION,
  EXPRESSION_SHIFTS,
  enlargeSquare,
  expressionCrop,
  greyGrid,
  headAngles,
  nonMaxSuppression,
  overlap,
  round2,
  sigmoid,
} from './geometry.ts';
import { alignedGreyCrop, cropAndResize, GREY, greyPatch, type Image, type Rotation, resizeBilinear } from './image.ts';
import { loadModel, MODEL_NAMES, type Model, type OnnxRuntime } from './model.ts';
import { confirmTracked } from './tracking.ts';

export {
  EXPRESSION_ANCHOR_DROP,
  EXPRESSION_ANCHOR_SCALE,
  EXPRESSION_ANCHORS,
  EXPRESSION_CROP_SCALE,
  EXPRESSION_RESOLUTION,
  EXPRESSION_SHIFTS,
  expressionCrop,
  nonMaxSuppression,
} from './geometry.ts';

/** One read of one eye by the iris model: its raw points (crop pixels, IRIS_POINTS × 3) and the shift it was read at. */
interface IrisRead {
  data: Float32Array;
  shift: readonly [number, number];
}

/** Each eye's iris shifts for a frame (left, right), the same number each. */
type EyeShifts = readonly [readonly (readonly [number, number])[], readonly (readonly [number, number])[]];

export class OnnxFaceEngine implements FaceEngine {
  private boxes: FaceBox[] = [];
  private skipped = Number.MAX_SAFE_INTEGER;
  private lastGrid: Float32Array | null = null;
  /** Frames read since the last reset: which of `IRIS_SHIFTS` the next one reads its eyes at (`irisDither` 'time'). */
  private readFrames = 0;
  /**
   * 'time': the previous frame's iris reads (the model's raw points per eye, with the shift each was read at), when
   * that frame had one face: the next frame, read at the other shifts, averages them in (`addIris`).
   */
  private lastIris: { frame: number; reads: IrisRead[][] } | null = null;
  /** The frame being read (`readFrames` − 1) and how many faces' irises it has read so far. */
  private irisFaces = 0;
  private readonly anchorCentres = anchors();
  private readonly detectorInput = new Float32Array(DETECTOR_SIZE * DETECTOR_SIZE * 3);
  private readonly faceCrop = new Float32Array(MESH_SIZE * MESH_SIZE * 3);
  private readonly eyeCrops = new Float32Array(2 * IRIS_SHIFTS.length * IRIS_SIZE * IRIS_SIZE * 3);
  private readonly emotionRgb = new Float32Array(EMOTION_SIZE * EMOTION_SIZE * 3);
  private readonly emotionInput = new Float32Array(2 * EXPRESSION_SHIFTS.length * EMOTION_SIZE * EMOTION_SIZE);

  constructor(
    private readonly models: { blazeface: Model; facemesh: Model; iris: Model; emotion: Model },
    readonly options: HumanOptions,
    readonly runtime: OnnxRuntime['name'],
  ) {}

  reset(): void {
    this.boxes = [];
    this.skipped = Number.MAX_SAFE_INTEGER;
    this.lastGrid = null;
    this.readFrames = 0;
    this.lastIris = null;
    this.irisFaces = 0;
  }

  async detect(frame: RgbFrame, options: DetectOptions = {}): Promise<DetectedFace[]> {
    const shifts = this.irisShifts();
    if (options.light) return this.lightDetect(frame, shifts);
    const grid = greyGrid(frame);
    let change = 0;
    if (this.lastGrid && this.lastGrid.length === grid.length) {
      for (let i = 0; i < grid.length; i++) change += Math.abs((grid[i] as number) - (this.lastGrid[i] as number));
      change /= grid.length;
    } else {
      change = Number.POSITIVE_INFINITY;
    }
    this.lastGrid = grid;
    const cut = change > SCENE_CHANGE;
    if (this.skipped >= this.options.skipFrames || this.boxes.length === 0 || cut) {
      const found = await this.runDetector(frame);
      // After a cut the tracked boxes are of the picture before it.
      this.boxes = this.options.tracking === 'keep' && !cut ? confirmTracked(this.boxes, found) : found;
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
      const result = await this.analyseFace(box, frame, true, shifts);
      if (!result) continue;
      // Two tracked boxes drifting onto one face would count it twice: the later one is dropped.
      if (tracked.some((t) => overlap(t, result.next) > 0.5)) continue;
      faces.push(result.face);
      tracked.push(result.next);
    }
    this.boxes = tracked;
    return faces;
  }

  /**
   * The shifts this frame's eyes are read at, per eye (`HumanOptions.irisDither`). 'time': one each, the two eyes at
   * opposite ones and swapped every frame, so the vertical gaze (the eyes' mean height) mixes both shifts in every
   * frame and each eye both over two frames.
   */
  private irisShifts(): EyeShifts {
    this.irisFaces = 0;
    if (this.options.irisDither === 'frame') return [IRIS_SHIFTS, IRIS_SHIFTS];
    const k = this.readFrames++;
    const at = (i: number) => [IRIS_SHIFTS[i % IRIS_SHIFTS.length] as readonly [number, number]];
    return [at(k), at(k + 1)];
  }

  /** Mesh and iris of the tracked faces only (`DetectOptions.light`). */
  private async lightDetect(frame: RgbFrame, shifts: EyeShifts): Promise<DetectedFace[]> {
    const faces: DetectedFace[] = [];
    const tracked: FaceBox[] = [];
    for (const box of this.boxes) {
      if (!this.options.stages.mesh) continue;
      const result = await this.analyseFace(box, frame, false, shifts);
      if (!result || tracked.some((t) => overlap(t, result.next) > 0.5)) continue;
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
  private async analyseFace(
    box: FaceBox,
    frame: RgbFrame,
    withExpressions = true,
    irisShifts: EyeShifts,
  ): Promise<{ face: DetectedFace; next: FaceBox } | null> {
    const [cx, cy] = boxCentre(box);
    const angle = boxTurn(box);
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
    if (this.options.stages.iris) coords = await this.addIris(coords, irisShifts);

    // Back to frame pixels: scale about the crop's centre, undo the rotation, move to the box centre. Kept to the
    // fraction of a pixel unless `wholePixels` (Human truncates): a gaze's whole vertical range is ~6 px of iris
    // travel and a moderate smile's corner pull ~1 px, so whole pixels cost the gaze fit a third of its precision
    // (decision 046).
    const [bw, bh] = boxSize(box);
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const mesh: P3[] = coords.map(([x, y, z]) => {
      let px = (bw / MESH_SIZE) * (x - MESH_SIZE / 2);
      let py = (bh / MESH_SIZE) * (y - MESH_SIZE / 2);
      if (rotated) [px, py] = [cos * px - sin * py, sin * px + cos * py];
      const [fx, fy] = [px + cx, py + cy];
      return this.options.wholePixels ? [Math.trunc(fx), Math.trunc(fy), Math.trunc(z)] : [fx, fy, z];
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
    if (this.options.stages.emotion && withExpressions) face.emotion = await this.expressions(frame, mesh);
    return { face, next };
  }

  /** Human's augmentIris: both eyes through the iris model, eye contours and iris points into the mesh. */
  private async addIris(coords: P3[], irisShifts: EyeShifts): Promise<P3[]> {
    const eyeBox = (inner: number, outer: number) => {
      const a = coords[inner] as P3;
      const b = coords[outer] as P3;
      const box = {
        start: [Math.min(a[0], b[0]), Math.min(a[1], b[1])] as P2,
        end: [Math.max(a[0], b[0]), Math.max(a[1], b[1])] as P2,
      };
      const [ecx, ecy] = boxCentre(box);
      const half = (Math.max(...boxSize(box)) * EYE_BOX_ENLARGE) / 2;
      return { start: [ecx - half, ecy - half] as P2, end: [ecx + half, ecy + half] as P2 };
    };
    const left = eyeBox(LEFT_EYE_LOWER0[0] as number, LEFT_EYE_LOWER0.at(-1) as number);
    const right = eyeBox(RIGHT_EYE_LOWER0[0] as number, RIGHT_EYE_LOWER0.at(-1) as number);
    const crop: Image = { data: this.faceCrop, width: MESH_SIZE, height: MESH_SIZE };
    const n = IRIS_SIZE * IRIS_SIZE * 3;
    // The iris model is trained on one eye only: the one on the image's left (MediaPipe's "left eye", mesh 33/133,
    // Human's `right`), which it gets as it is; the other eye (263/362) is mirrored to look like it and its points
    // mirrored back (MediaPipe's iris_landmark_cpu, tfjs-models' facemesh). Human mirrors both crops, so the model
    // read the 33/133 eye mirrored, an eye it was not trained on: that iris followed the gaze at about 0.6 of the
    // truth and that eye's corners jittered 1.3–1.8 px, 0.7–0.9 px read as trained (gaze phantoms, decision 032).
    // Each eye is read at every one of its `irisShifts`, its crop moved by a fraction of a crop pixel each time, and the
    // points averaged: a still eye in a still picture is otherwise read with the same sub-pixel error every frame,
    // which no number of frames averages out (decision 041).
    const shifted = (b: { start: P2; end: P2 }, [dx, dy]: readonly [number, number]) => {
      const u = boxSize(b)[0] / IRIS_SIZE;
      return {
        start: [b.start[0] + dx * u, b.start[1] + dy * u] as P2,
        end: [b.end[0] + dx * u, b.end[1] + dy * u] as P2,
      };
    };
    const per = irisShifts[0].length;
    const boxes = [left, right].map((b, k) => irisShifts[k as 0 | 1].map((s) => shifted(b, s)));
    for (const [k, eye] of boxes.entries()) {
      for (const [j, b] of eye.entries()) {
        cropAndResize(
          crop,
          [b.start[1] / MESH_SIZE, b.start[0] / MESH_SIZE, b.end[1] / MESH_SIZE, b.end[0] / MESH_SIZE],
          IRIS_SIZE,
          this.eyeCrops,
          { flip: k === 0, offset0: (k * per + j) * n },
        );
      }
    }
    const batch = 2 * per;
    const input = batch * n === this.eyeCrops.length ? this.eyeCrops : this.eyeCrops.subarray(0, batch * n);
    const out = Object.values(await this.models.iris.run(input, batch))[0]?.data as Float32Array;
    const size = IRIS_POINTS * 3;
    const reads: IrisRead[][] = [0, 1].map((k) =>
      irisShifts[k as 0 | 1].map((shift, j) => ({
        data: out.slice((k * per + j) * size, (k * per + j + 1) * size),
        shift,
      })),
    );
    // 'time': this frame's reads (one shift an eye) with the previous frame's (the other), when that frame is the one
    // just before and both have one face: each eye then averages both shifts as in 'frame', half its reads a frame
    // old (33 ms at 30 fps). Read in the eye's own box, which follows the face, so the head's motion between the two
    // frames does not blur them (decision 049).
    const frame = this.readFrames - 1;
    const alone = this.irisFaces === 0 && this.boxes.length === 1;
    const previous = this.options.irisDither === 'time' && alone ? this.lastIris : null;
    const paired = previous?.frame === frame - 1 ? reads.map((r, k) => [...r, ...(previous.reads[k] ?? [])]) : reads;
    this.lastIris = alone ? { frame, reads } : null;
    this.irisFaces++;
    const eyePoints = (k: number, mirrored: boolean): P3[] => {
      const pts: P3[] = Array.from({ length: IRIS_POINTS }, () => [0, 0, 0] as P3);
      const eye = paired[k] as IrisRead[];
      const base = k === 0 ? left : right;
      for (const read of eye) {
        const b = shifted(base, read.shift);
        const [w, h] = boxSize(b);
        for (let i = 0; i < IRIS_POINTS; i++) {
          const x = (read.data[3 * i] as number) / IRIS_SIZE;
          const y = (read.data[3 * i + 1] as number) / IRIS_SIZE;
          const p = pts[i] as P3;
          p[0] += ((mirrored ? 1 - x : x) * w + b.start[0]) / eye.length;
          p[1] += (y * h + b.start[1]) / eye.length;
          p[2] += (read.data[3 * i + 2] as number) / eye.length;
        }
      }
      return pts;
    };
    const leftPts = eyePoints(0, true);
    const rightPts = eyePoints(1, false);
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
      const crop = expressionCrop(mesh, frame);
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

/** Loads the four models on the given runtime (single-threaded sessions: one engine per worker). */
export async function loadOnnxEngine(
  runtime: OnnxRuntime,
  options: Partial<HumanOptions> = {},
): Promise<OnnxFaceEngine> {
  const [blazeface, facemesh, iris, emotion] = await Promise.all(MODEL_NAMES.map((m) => loadModel(runtime, m)));
  return new OnnxFaceEngine(
    { blazeface: blazeface as Model, facemesh: facemesh as Model, iris: iris as Model, emotion: emotion as Model },
    humanOptions(options),
    runtime.name,
  );
}
