import type { DetectedFace, FaceEngine, RgbFrame } from '@emolens/engine';

/**
 * Eyes that move on a still photo: the engine finds the face's eye openings and irises once, then each frame of a
 * demo respondent's webcam recording has both irises redrawn a few pixels off their place — the iris disc shifted
 * inside the eye opening, the sclera's colour where it was — as eyes turning towards a point on the screen do.
 * Only the irises move relative to the eye corners, which is what the engine's gaze features measure.
 */

type Point = { x: number; y: number };
type RGB = [number, number, number];

// MediaPipe face-mesh indices: each eye's opening (outer corner, upper lid, inner corner, lower lid) and its iris
// (centre, then four points on its edge). The first is the subject's right eye (the image's left).
const EYE_MESH = [
  {
    outline: [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7],
    iris: [468, 469, 470, 471, 472],
  },
  {
    outline: [263, 466, 388, 387, 386, 385, 384, 398, 362, 382, 381, 380, 374, 373, 390, 249],
    iris: [473, 474, 475, 476, 477],
  },
] as const;

/** How far the irises turn at the screen's edges, in eye widths (the corners' distance): along and across the eye. */
const REACH = { along: 0.2, across: 0.14 } as const;
/** The iris disc moved is a little wider than the engine's iris, so no dark rim is left where it was. */
const FILL_MARGIN = 1.08;
/** Subsamples per pixel side when measuring how much of a pixel lies in the eye opening (antialiased edge). */
const COVERAGE_SAMPLES = 4;

/** One eye of the photo, ready to be redrawn: its region, the opening's coverage, the iris and the bare eye. */
interface PreparedEye {
  /** The region's top-left corner and size in the photo (whole pixels). */
  x0: number;
  y0: number;
  width: number;
  height: number;
  /** Share of each region pixel inside the eye opening (0 outside: left as the photo has it). */
  opening: Float32Array;
  /** The region's RGB with the iris painted over in the sclera's colour. */
  bare: Float32Array;
  /** The region's RGB inside the opening, the iris's mean colour outside it (what the shifted disc shows). */
  iris: Float32Array;
  irisColour: RGB;
  centre: Point;
  radius: number;
}

/** Both eyes of a photo and the directions they turn in: along the eye line (image right) and across it (down). */
export interface MovingEyes {
  /** Each eye with how far (pixels) its iris can move along the eye line to the image's left and right. */
  eyes: (PreparedEye & { limits: { left: number; right: number } })[];
  /** The eye line's direction (unit vector, image left to right). */
  unit: Point;
  /** Pixels the irises move along the eye line per unit of look (−1 … 1), before each eye's limits. */
  along: number;
  /** Pixels the irises move per unit of look across the eye line (down the face). */
  across: Point;
}

/** A gaze direction: −1 … 1 from the screen's centre to its left/right and top/bottom edges. */
export type Look = Point;

const meshPoint = (mesh: DetectedFace['mesh'], i: number): Point => {
  const p = mesh[i];
  if (!p) throw new Error(`the face mesh has no point ${i}`);
  return { x: p[0], y: p[1] };
};

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** An iris's centre (the mean of its five points, which the engine rounds to whole pixels) and mean radius. */
function irisOf(mesh: DetectedFace['mesh'], indices: readonly number[]): { centre: Point; radius: number } {
  const points = indices.map((i) => meshPoint(mesh, i)).map((p) => ({ x: p.x + 0.5, y: p.y + 0.5 }));
  const centre = {
    x: points.reduce((s, p) => s + p.x, 0) / points.length,
    y: points.reduce((s, p) => s + p.y, 0) / points.length,
  };
  const ring = points.slice(1);
  return { centre, radius: ring.reduce((s, p) => s + distance(p, centre), 0) / ring.length };
}

function insidePolygon(p: Point, polygon: readonly Point[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i] as Point;
    const b = polygon[j] as Point;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

function openingCoverage(outline: readonly Point[], x0: number, y0: number, width: number, height: number) {
  const coverage = new Float32Array(width * height);
  const n = COVERAGE_SAMPLES;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let hits = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          if (insidePolygon({ x: x0 + x + (sx + 0.5) / n, y: y0 + y + (sy + 0.5) / n }, outline)) hits++;
        }
      }
      coverage[y * width + x] = hits / (n * n);
    }
  }
  return coverage;
}

/** The 85th percentile by brightness of `colours` (RGB triples): the sclera among eyelashes and corner shadows. */
function scleraColour(colours: RGB[]): RGB {
  const luma = (c: RGB) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
  const sorted = [...colours].sort((a, b) => luma(a) - luma(b));
  return sorted[Math.floor(sorted.length * 0.85)] ?? [220, 220, 220];
}

function prepareEye(image: RgbFrame, outline: readonly Point[], centre: Point, radius: number): PreparedEye {
  const xs = outline.map((p) => p.x);
  const ys = outline.map((p) => p.y);
  const x0 = Math.max(0, Math.floor(Math.min(...xs)) - 1);
  const y0 = Math.max(0, Math.floor(Math.min(...ys)) - 1);
  const width = Math.min(image.width, Math.ceil(Math.max(...xs)) + 2) - x0;
  const height = Math.min(image.height, Math.ceil(Math.max(...ys)) + 2) - y0;
  const opening = openingCoverage(outline, x0, y0, width, height);
  const original = new Float32Array(width * height * 3);
  const sclera: RGB[] = [];
  const irisSum: [number, number, number, number] = [0, 0, 0, 0];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const s = ((y0 + y) * image.width + x0 + x) * 3;
      const rgb: RGB = [image.data[s] ?? 0, image.data[s + 1] ?? 0, image.data[s + 2] ?? 0];
      original.set(rgb, i * 3);
      if ((opening[i] ?? 0) < 0.99) continue;
      const away = Math.hypot(x0 + x + 0.5 - centre.x, y0 + y + 0.5 - centre.y);
      if (away > radius * FILL_MARGIN * 1.1) sclera.push(rgb);
      else if (away < radius * 0.8) {
        for (let c = 0; c < 3; c++) irisSum[c] = (irisSum[c] ?? 0) + (rgb[c] ?? 0);
        irisSum[3] += 1;
      }
    }
  }
  const white = scleraColour(sclera);
  const count = Math.max(1, irisSum[3]);
  const irisColour: RGB = [irisSum[0] / count, irisSum[1] / count, irisSum[2] / count];
  const bare = new Float32Array(original);
  const iris = new Float32Array(original);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const away = Math.hypot(x0 + x + 0.5 - centre.x, y0 + y + 0.5 - centre.y);
      const fill = Math.min(1, Math.max(0, radius * FILL_MARGIN + 0.5 - away));
      for (let c = 0; c < 3; c++) {
        bare[i * 3 + c] = (original[i * 3 + c] ?? 0) * (1 - fill) + (white[c] ?? 0) * fill;
      }
      if ((opening[i] ?? 0) < 0.5) iris.set(irisColour, i * 3);
    }
  }
  return { x0, y0, width, height, opening, bare, iris, irisColour, centre, radius };
}

/**
 * Both eyes of the main face of `image` (a frame-sized photo), as the engine's face mesh places them, ready for
 * `drawEyes`; null when the engine finds no face with irises. The irises' reach is a share of the eyes' width,
 * limited for each eye so that its iris goes little past either corner (the opening hides what does).
 */
export async function findMovingEyes(image: RgbFrame, engine: FaceEngine): Promise<MovingEyes | null> {
  engine.reset();
  const faces = await engine.detect(image);
  const face = faces.sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];
  if (!face || face.mesh.length < 478) return null;
  const mesh = face.mesh;
  const irises = EYE_MESH.map((eye) => irisOf(mesh, eye.iris));
  const geometry = EYE_MESH.map((eye) => {
    const outline = eye.outline.map((i) => meshPoint(mesh, i)).map((p) => ({ x: p.x + 0.5, y: p.y + 0.5 }));
    const outer = outline[0] as Point;
    const inner = outline[8] as Point;
    // The iris nearest the opening's middle: the mesh does not always list the irises in the eyes' order.
    const middle = { x: (outer.x + inner.x) / 2, y: (outer.y + inner.y) / 2 };
    const iris = irises.reduce((best, i) => (distance(i.centre, middle) < distance(best.centre, middle) ? i : best));
    return { outline, outer, inner, width: distance(outer, inner), ...iris };
  });
  const [right, left] = geometry as [(typeof geometry)[number], (typeof geometry)[number]];
  // The eye line, image left to right (outer corner of the subject's right eye to that of the left eye).
  const line = distance(right.outer, left.outer);
  const unit = { x: (left.outer.x - right.outer.x) / line, y: (left.outer.y - right.outer.y) / line };
  const eyeWidth = (right.width + left.width) / 2;
  // How far each iris can move towards either corner: until its edge is a third of its radius past the corner.
  const room = (from: Point, corner: Point, radius: number) =>
    Math.max(0, Math.abs((corner.x - from.x) * unit.x + (corner.y - from.y) * unit.y) - radius * 0.7);
  const prepared = geometry.map((g) => {
    const [leftCorner, rightCorner] = g === right ? [g.outer, g.inner] : [g.inner, g.outer];
    const limits = { left: room(g.centre, leftCorner, g.radius), right: room(g.centre, rightCorner, g.radius) };
    return { ...prepareEye(image, g.outline, g.centre, g.radius), limits };
  });
  const across = REACH.across * eyeWidth;
  return {
    eyes: prepared,
    unit,
    along: REACH.along * eyeWidth,
    across: { x: -unit.y * across, y: unit.x * across },
  };
}

function sample(eye: PreparedEye, x: number, y: number, c: number): number {
  const fx = Math.floor(x);
  const fy = Math.floor(y);
  const at = (px: number, py: number) =>
    px < 0 || py < 0 || px >= eye.width || py >= eye.height
      ? (eye.irisColour[c] ?? 0)
      : (eye.iris[(py * eye.width + px) * 3 + c] ?? 0);
  const ax = x - fx;
  const ay = y - fy;
  const top = at(fx, fy) * (1 - ax) + at(fx + 1, fy) * ax;
  const bottom = at(fx, fy + 1) * (1 - ax) + at(fx + 1, fy + 1) * ax;
  return top * (1 - ay) + bottom * ay;
}

/**
 * Redraws both irises of `frame` (the photo's pixels, RGB24, `width` wide) turned towards `look`: in each eye
 * opening, the bare eye with the iris disc shifted by the look's displacement (edge feathered over a pixel).
 */
export function drawEyes(frame: Buffer, width: number, eyes: MovingEyes, look: Look): void {
  for (const eye of eyes.eyes) {
    const along = Math.min(eye.limits.right, Math.max(-eye.limits.left, eyes.along * look.x));
    const dx = eyes.unit.x * along + eyes.across.x * look.y;
    const dy = eyes.unit.y * along + eyes.across.y * look.y;
    const cx = eye.centre.x + dx - eye.x0;
    const cy = eye.centre.y + dy - eye.y0;
    for (let y = 0; y < eye.height; y++) {
      for (let x = 0; x < eye.width; x++) {
        const i = y * eye.width + x;
        const inside = eye.opening[i] ?? 0;
        if (inside === 0) continue;
        const disc = Math.min(1, Math.max(0, eye.radius * FILL_MARGIN + 0.5 - Math.hypot(x + 0.5 - cx, y + 0.5 - cy)));
        const o = ((eye.y0 + y) * width + eye.x0 + x) * 3;
        for (let c = 0; c < 3; c++) {
          const drawn =
            (eye.bare[i * 3 + c] ?? 0) * (1 - disc) + (disc > 0 ? sample(eye, x - dx, y - dy, c) * disc : 0);
          frame[o + c] = Math.round((frame[o + c] ?? 0) * (1 - inside) + drawn * inside);
        }
      }
    }
  }
}
