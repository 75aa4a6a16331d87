/**
 * One phantom frame: the state the script sets at its time (the truth), then the picture made from it — the photo
 * warped along the moved mesh over a defocused backdrop, the mouth's opening, the eyes, a hand, light and noise.
 */
import { blinkClosure, type ExpressionState, expressionsAt, expressMesh } from './expressions.ts';
import { type EyeRig, type EyeTurn, eyesToward, irisCentres, paintEyes, prepareEyes } from './eyes.ts';
import { type GazeSample, gazeAt } from './gaze.ts';
import { crossedRightOf, crossingsAt, interpolate, type P2, type P3 } from './geometry.ts';
import type { Colour, Rgb } from './image.ts';
import { expose, type Light } from './lighting.ts';
import { LIPS, MESH_POINTS } from './mesh.ts';
import { coveredShare, handAt, paintHand, skinColour } from './occlusion.ts';
import { buildRig, controlPoints, type Placement, projector, type Rig } from './rig.ts';
import { type Companion, frameTime, parseScript, type Script } from './script.ts';
import { loadSource } from './source.ts';
import { type Canvas, canvas, type PixelRect, warp } from './warp.ts';

/** Everything true of one frame, from the script alone. */
export interface FrameTruth {
  frame: number;
  tMs: number;
  expression: ExpressionState;
  gaze: GazeSample;
  /** The subject's right eye, then the left: rotation in the head (degrees) and the iris centre in the frame. */
  eyes: { side: 'right' | 'left'; yaw: number; pitch: number; irisPx: [number, number] }[];
  /** Lid closure, 0 open … 1 shut (both eyes). */
  blink: number;
  head: { yaw: number; pitch: number; roll: number };
  faceWidthPx: number;
  faceCentrePx: [number, number];
  light: Light;
  occlusion: { region: string; coveredShare: number } | null;
  /** Faces in the frame: 0 while the respondent is out of view, 2 while a second person is beside them. */
  faces: number;
}

export interface Phantom {
  script: Script;
  rig: Rig;
  eyes: EyeRig;
  skin: Colour;
  backdrop: Float32Array;
  canvas: Canvas;
  /**
   * The last frame's warped photo over the backdrop, with the control points it was warped to: a frame whose points
   * are the same (a still head, no expression or blink changing — the eyes turning do not move them) starts from it
   * instead of warping again; one where only some moved (a smile, a blink) warps again only the box around the
   * triangles that moved. The picture is the same to the bit either way.
   */
  warped: { points: Float64Array; rgb: Float32Array } | null;
  /** Each companion's still picture (its face and what is drawn around it) and how much of each pixel it covers. */
  companions: { companion: Companion; rgb: Float32Array; alpha: Float32Array }[];
}

export async function preparePhantom(script: Script): Promise<Phantom> {
  const rig = buildRig(await loadSource(script.source));
  const { width, height } = script.frame;
  return {
    script,
    rig,
    eyes: prepareEyes(rig),
    skin: skinColour(rig.source.image, rig.source.points),
    backdrop: backdrop(rig.source.image, width, height),
    canvas: canvas(width, height),
    warped: null,
    companions: await Promise.all(script.companions.map((c) => companionPicture(script, c))),
  };
}

/** A second person's face: another source drawn once, neutral and still, looking at the screen's centre. */
async function companionPicture(script: Script, companion: Companion): Promise<Phantom['companions'][number]> {
  const { widthPx, heightPx } = script.screen;
  const other = await preparePhantom(
    parseScript({
      name: 'companion',
      description: 'a second person',
      source: companion.source,
      durationMs: 100,
      frame: script.frame,
      screen: script.screen,
      faceWidth: [{ t: 0, px: companion.widthPx }],
      position: { x: companion.x, y: companion.y },
      gaze: [{ kind: 'fixation', startMs: 0, endMs: 100, at: { x: widthPx / 2, y: heightPx / 2 } }],
      noise: 0,
    }),
  );
  const { width, height } = script.frame;
  renderFrame(other, 0, { width, height, data: new Uint8Array(width * height * 3) });
  // Only the head: an ellipse around the face (the hair, a little of the neck), its edge feathered; the rest of the
  // other photo (its room) stays out.
  const alpha = Float32Array.from(other.canvas.alpha);
  const cx = companion.x * width;
  const cy = companion.y * height;
  const rx = 0.8 * companion.widthPx;
  const ry = 1.1 * companion.widthPx;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const r = Math.hypot((x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry);
      alpha[y * width + x] = (alpha[y * width + x] as number) * Math.min(1, Math.max(0, (1 - r) / 0.2));
    }
  return { companion, rgb: Float32Array.from(other.canvas.rgb), alpha };
}

const during = (spans: readonly { startMs: number; endMs: number }[], t: number) =>
  spans.filter((s) => t >= s.startMs && t < s.endMs);

/** A defocused room: the photo around the face averaged down to 12 × 9 cells and spread over the frame. */
function backdrop(image: Rgb, width: number, height: number): Float32Array {
  const gw = 12;
  const gh = 9;
  const grid = new Float32Array(gw * gh * 3);
  const count = new Float32Array(gw * gh);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const g =
        Math.min(gh - 1, Math.floor((y * gh) / image.height)) * gw +
        Math.min(gw - 1, Math.floor((x * gw) / image.width));
      for (let c = 0; c < 3; c++)
        grid[3 * g + c] = (grid[3 * g + c] as number) + (image.data[3 * (y * image.width + x) + c] as number);
      count[g] = (count[g] as number) + 1;
    }
  }
  for (let g = 0; g < gw * gh; g++)
    for (let c = 0; c < 3; c++) grid[3 * g + c] = (grid[3 * g + c] as number) / (count[g] as number);
  const out = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const gy = Math.min(gh - 1.001, Math.max(0, ((y + 0.5) * gh) / height - 0.5));
    const y0 = Math.floor(gy);
    const fy = gy - y0;
    for (let x = 0; x < width; x++) {
      const gx = Math.min(gw - 1.001, Math.max(0, ((x + 0.5) * gw) / width - 0.5));
      const x0 = Math.floor(gx);
      const fx = gx - x0;
      const i00 = 3 * (y0 * gw + x0);
      const i01 = i00 + 3 * gw;
      for (let c = 0; c < 3; c++) {
        const top = (grid[i00 + c] as number) * (1 - fx) + (grid[i00 + 3 + c] as number) * fx;
        const bottom = (grid[i01 + c] as number) * (1 - fx) + (grid[i01 + 3 + c] as number) * fx;
        out[3 * (y * width + x) + c] = 0.9 * (top * (1 - fy) + bottom * fy);
      }
    }
  }
  return out;
}

/** The head's placement in the frame at time t. */
export function placementAt(script: Script, t: number): Placement {
  return {
    yaw: interpolate(script.pose, t, (k) => k.yaw),
    pitch: interpolate(script.pose, t, (k) => k.pitch),
    roll: interpolate(script.pose, t, (k) => k.roll),
    faceWidth: interpolate(script.faceWidth, t, (k) => k.px),
    x: script.position.x * script.frame.width,
    y: script.position.y * script.frame.height,
  };
}

/** Frame i's state: the truth and what drawing it needs. */
export function frameState(
  phantom: Phantom,
  i: number,
): { truth: FrameTruth; mesh: P3[]; points: P3[]; turns: EyeTurn[] } {
  const { script, rig, eyes } = phantom;
  const t = frameTime(script, i);
  const place = placementAt(script, t);
  const expression = expressionsAt(script.expressions, t);
  const blink = blinkClosure(script.blinks, t);
  const mesh = expressMesh(rig.head, rig.width, expression, [blink, blink]);
  const points = controlPoints(rig, place, mesh);
  const { rotation, project } = projector(rig, place);
  const gaze = gazeAt(script.gaze, script.screen, t);
  const turns = eyesToward(eyes, rotation, script.screen, drifted(script, gaze, t));
  const iris = irisCentres(eyes, turns, project);
  const light: Light = {
    level: interpolate(script.light, t, (k) => k.level),
    side: interpolate(script.light, t, (k) => k.side),
  };
  const hand = handAt(script.occlusions, t, points, place.faceWidth);
  const region = script.occlusions.find((o) => t >= o.startMs && t < o.endMs)?.region;
  const r2 = (v: number) => Math.round(v * 100) / 100;
  const truth: FrameTruth = {
    frame: i,
    tMs: r2(t),
    expression: { smile: r2(expression.smile), surprise: r2(expression.surprise), frown: r2(expression.frown) },
    gaze: { ...gaze, x: r2(gaze.x), y: r2(gaze.y) },
    eyes: eyes.eyes.map((e, k) => ({
      side: e.side,
      yaw: r2((turns[k] as EyeTurn).yaw),
      pitch: r2((turns[k] as EyeTurn).pitch),
      irisPx: [r2((iris[k] as P2)[0]), r2((iris[k] as P2)[1])] as [number, number],
    })),
    blink: r2(blink),
    head: { yaw: r2(place.yaw), pitch: r2(place.pitch), roll: r2(place.roll) },
    faceWidthPx: r2(place.faceWidth),
    faceCentrePx: [r2(place.x), r2(place.y)],
    light: { level: r2(light.level), side: r2(light.side) },
    occlusion: region ? { region, coveredShare: r2(coveredShare(hand, points.slice(0, MESH_POINTS))) } : null,
    faces: (during(script.absences, t).length ? 0 : 1) + during(script.companions, t).length,
  };
  return { truth, mesh, points, turns };
}

/** The drawing's stages, as a benchmark times them. */
export type Stage = 'state' | 'warp' | 'mouth' | 'eyes' | 'hand' | 'companions' | 'light';

/**
 * Draws frame i into `out` (8-bit RGB of the script's frame size) and returns its truth. `lap`: called as each stage
 * ends (a benchmark's clock; the picture is the same without it).
 */
export function renderFrame(phantom: Phantom, i: number, out: Rgb, lap?: (stage: Stage) => void): FrameTruth {
  const { script, canvas: cv } = phantom;
  const { truth, points, turns } = frameState(phantom, i);
  const t = truth.tMs;
  const place = placementAt(script, frameTime(script, i));
  lap?.('state');
  const absent = during(script.absences, t).length > 0;
  if (absent) {
    cv.rgb.set(phantom.backdrop);
    lap?.('warp');
  } else drawFace(phantom, truth, points, turns, place, lap);
  for (const c of phantom.companions) {
    if (t < c.companion.startMs || t >= c.companion.endMs) continue;
    for (let p = 0; p < c.alpha.length; p++) {
      const a = Math.min(1, c.alpha[p] as number);
      if (a <= 0) continue;
      for (let k = 3 * p; k < 3 * p + 3; k++) cv.rgb[k] = a * (c.rgb[k] as number) + (1 - a) * (cv.rgb[k] as number);
    }
  }
  lap?.('companions');
  expose(cv, truth.light, { x: place.x, width: place.faceWidth }, script.noise, script.seed * 100003 + i, out);
  lap?.('light');
  return truth;
}

/** The respondent's face on the canvas: the photo warped to the frame's mesh, the open mouth, the eyes, a hand. */
function drawFace(
  phantom: Phantom,
  truth: FrameTruth,
  points: P3[],
  turns: EyeTurn[],
  place: Placement,
  lap?: (stage: Stage) => void,
): void {
  const { script, rig, canvas: cv } = phantom;
  const t = truth.tMs;
  const rect = changedRect(phantom, points);
  if (rect) {
    const to: P2[] = points.map((p) => [p[0], p[1]]);
    const order = drawingOrder(rig, points);
    const { rgb, alpha, width } = cv;
    // Outside the rect the kept picture is this frame's.
    if (phantom.warped && (rect.x1 - rect.x0 + 1 < width || rect.y1 - rect.y0 + 1 < cv.height))
      rgb.set(phantom.warped.rgb);
    for (let y = rect.y0; y <= rect.y1; y++) alpha.fill(0, y * width + rect.x0, y * width + rect.x1 + 1);
    warp(rig.source.image, rig.from, to, rig.triangles, order, cv, 0.12 * rig.source.image.width, rect);
    const back = phantom.backdrop;
    for (let y = rect.y0; y <= rect.y1; y++) {
      for (let p = y * width + rect.x0; p <= y * width + rect.x1; p++) {
        const a = alpha[p] as number;
        if (a >= 1) continue;
        for (let c = 0; c < 3; c++)
          rgb[3 * p + c] = a * (rgb[3 * p + c] as number) + (1 - a) * (back[3 * p + c] as number);
      }
    }
    keepWarp(phantom, points, rect);
  } else cv.rgb.set((phantom.warped as NonNullable<Phantom['warped']>).rgb);
  lap?.('warp');
  if (truth.expression.surprise > 0) paintMouth(cv, points, Math.min(1, 2 * truth.expression.surprise));
  lap?.('mouth');
  const { rotation, project } = projector(rig, place);
  paintEyes(cv, phantom.eyes, turns, rotation, points, project, place.faceWidth / rig.width);
  lap?.('eyes');
  const hand = handAt(script.occlusions, t, points, place.faceWidth);
  if (hand) paintHand(cv, hand, phantom.skin);
  lap?.('hand');
}

/**
 * The pixels whose warped picture can differ from the kept one's: the boxes (as the warp bounds a triangle), where
 * the last warp drew them and where this one does, of the triangles with a corner moved (a moved depth can change
 * their place in the drawing order). Every other pixel is drawn by the same triangles in the same order, so it is the
 * kept picture's. null: no triangle in the frame moved, the kept picture is this frame's; the whole frame when
 * nothing is kept (or a point is not a number).
 */
function changedRect(phantom: Phantom, points: readonly P3[]): PixelRect | null {
  const { width, height } = phantom.canvas;
  const whole: PixelRect = { x0: 0, y0: 0, x1: width - 1, y1: height - 1 };
  const kept = phantom.warped;
  if (!kept || kept.points.length !== 3 * points.length) return whole;
  const old = kept.points;
  const moved = new Uint8Array(points.length);
  let any = false;
  for (let i = 0; i < points.length; i++) {
    const p = points[i] as P3;
    if (old[3 * i] !== p[0] || old[3 * i + 1] !== p[1] || old[3 * i + 2] !== p[2]) {
      moved[i] = 1;
      any = true;
    }
  }
  if (!any) return null;
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const [a, b, c] of phantom.rig.triangles) {
    if (!moved[a] && !moved[b] && !moved[c]) continue;
    const pa = points[a] as P3;
    const pb = points[b] as P3;
    const pc = points[c] as P3;
    const ox = [old[3 * a] as number, old[3 * b] as number, old[3 * c] as number];
    const oy = [old[3 * a + 1] as number, old[3 * b + 1] as number, old[3 * c + 1] as number];
    x0 = Math.min(x0, Math.floor(Math.min(...ox)), Math.floor(Math.min(pa[0], pb[0], pc[0])));
    x1 = Math.max(x1, Math.ceil(Math.max(...ox)), Math.ceil(Math.max(pa[0], pb[0], pc[0])));
    y0 = Math.min(y0, Math.floor(Math.min(...oy)), Math.floor(Math.min(pa[1], pb[1], pc[1])));
    y1 = Math.max(y1, Math.ceil(Math.max(...oy)), Math.ceil(Math.max(pa[1], pb[1], pc[1])));
  }
  if (x0 === Number.POSITIVE_INFINITY) return null;
  if (Number.isNaN(x0) || Number.isNaN(x1) || Number.isNaN(y0) || Number.isNaN(y1)) return whole;
  const rect = { x0: Math.max(0, x0), y0: Math.max(0, y0), x1: Math.min(width - 1, x1), y1: Math.min(height - 1, y1) };
  return rect.x0 > rect.x1 || rect.y0 > rect.y1 ? null : rect;
}

/** Keeps the canvas's warped picture (the rect of it that was drawn) and the points it was warped to. */
function keepWarp(phantom: Phantom, points: readonly P3[], rect: PixelRect): void {
  const flat = new Float64Array(3 * points.length);
  for (const [i, p] of points.entries()) flat.set(p, 3 * i);
  const { rgb, width } = phantom.canvas;
  if (phantom.warped) {
    phantom.warped.points = flat;
    for (let y = rect.y0; y <= rect.y1; y++)
      phantom.warped.rgb.set(
        rgb.subarray(3 * (y * width + rect.x0), 3 * (y * width + rect.x1 + 1)),
        3 * (y * width + rect.x0),
      );
  } else phantom.warped = { points: flat, rgb: Float32Array.from(rgb) };
}

/**
 * The triangles' drawing order: everything around the face (hair, neck, background) far to near, then the face's
 * triangles turned over (a fold: on a turned head, the far side behind the cheek's outline; drawn first so they fill
 * the outline's notches), then the rest of the face far to near.
 */
function drawingOrder(rig: Rig, points: readonly P3[]): number[] {
  const around: number[] = [];
  const folded: number[] = [];
  const face: number[] = [];
  const depth = new Float64Array(rig.triangles.length);
  rig.triangles.forEach(([a, b, c], k) => {
    const pa = points[a] as P3;
    const pb = points[b] as P3;
    const pc = points[c] as P3;
    depth[k] = pa[2] + pb[2] + pc[2];
    if (k >= rig.faceTriangles) {
      around.push(k);
      return;
    }
    // Turned over from how it lies seen frontally (the triangulation's layout), it is the far side's, behind.
    const [ha, hb, hc] = [rig.head[a] as P3, rig.head[b] as P3, rig.head[c] as P3];
    const before = (hb[0] - ha[0]) * (hc[1] - ha[1]) - (hc[0] - ha[0]) * (hb[1] - ha[1]);
    const after = (pb[0] - pa[0]) * (pc[1] - pa[1]) - (pc[0] - pa[0]) * (pb[1] - pa[1]);
    (before * after > 0 ? face : folded).push(k);
  });
  const farFirst = (x: number, y: number) => (depth[y] as number) - (depth[x] as number);
  return [...around.sort(farFirst), ...folded.sort(farFirst), ...face.sort(farFirst)];
}

/** The open mouth's inside (between the inner lips), dark. */
function paintMouth(out: Canvas, points: readonly P3[], strength: number): void {
  const poly = [...LIPS.innerUpper, ...[...LIPS.innerLower].reverse()].map(
    (i): P2 => [(points[i] as P3)[0], (points[i] as P3)[1]],
  );
  const xs = poly.map((p) => p[0]);
  const ys = poly.map((p) => p[1]);
  const top = Math.min(...ys);
  const height = Math.max(...ys) - top;
  const x0 = Math.max(0, Math.floor(Math.min(...xs)));
  const x1 = Math.min(out.width - 1, Math.ceil(Math.max(...xs)));
  // Four samples a pixel, at (x + 0.25 or 0.75, y + 0.25 or 0.75): the lips' crossings of the two sample rows.
  const upper = new Float64Array(poly.length);
  const lower = new Float64Array(poly.length);
  for (let y = Math.max(0, Math.floor(top)); y <= Math.min(out.height - 1, Math.ceil(top + height)); y++) {
    const mu = crossingsAt(poly, y + 0.25, upper);
    const ml = crossingsAt(poly, y + 0.75, lower);
    for (let x = x0; x <= x1; x++) {
      const n =
        +crossedRightOf(upper, mu, x + 0.25) +
        +crossedRightOf(upper, mu, x + 0.75) +
        +crossedRightOf(lower, ml, x + 0.25) +
        +crossedRightOf(lower, ml, x + 0.75);
      if (!n) continue;
      // The upper teeth (what the photo has under the upper lip) stay; darker further in.
      const depth = (y + 0.5 - top) / Math.max(1, height);
      const a = ((strength * n) / 4) * Math.min(1, depth / 0.3);
      const o = (y * out.width + x) * 3;
      const shade = 0.6 + 0.4 * Math.abs(depth - 0.55) * 2;
      out.rgb[o] = (1 - a) * (out.rgb[o] as number) + a * (75 * shade);
      out.rgb[o + 1] = (1 - a) * (out.rgb[o + 1] as number) + a * (38 * shade);
      out.rgb[o + 2] = (1 - a) * (out.rgb[o + 2] as number) + a * (40 * shade);
    }
  }
}

/** Where the eyes are drawn looking: the gaze target, plus the script's drift by `t` (the truth keeps the target). */
function drifted(script: Script, gaze: GazeSample, t: number): GazeSample {
  const drift = script.gazeDrift;
  if (!drift || t <= drift.startMs) return gaze;
  const minutes = (t - drift.startMs) / 60_000;
  return { ...gaze, x: gaze.x + drift.xPerMinute * minutes, y: gaze.y + drift.yPerMinute * minutes };
}
