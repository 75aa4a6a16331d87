/**
 * Partial occlusion: a hand (a palm and four fingers, in the face's own skin colour, shaded towards its edges) raised
 * over part of the face. It slides in from below over 250 ms and leaves the same way.
 */
import type { P2, P3 } from './geometry.ts';
import type { Colour, Rgb } from './image.ts';
import type { Occlusion } from './script.ts';
import type { Canvas } from './warp.ts';

/** The landmark the hand covers, per region. */
const TARGET: Record<Occlusion['region'], number[]> = {
  mouth: [13, 14],
  'right-eye': [159, 145],
  'left-cheek': [280, 425],
  chin: [152, 18],
};

const SLIDE_MS = 250;

export interface Hand {
  palm: { x: number; y: number; rx: number; ry: number; angle: number };
  fingers: { ax: number; ay: number; bx: number; by: number; r: number }[];
}

/** The hand at time t, or null when no occlusion is on. `points`: the mesh in frame pixels; `faceWidth` in pixels. */
export function handAt(
  occlusions: readonly Occlusion[],
  t: number,
  points: readonly P3[],
  faceWidth: number,
): Hand | null {
  const on = occlusions.find((o) => t >= o.startMs && t < o.endMs);
  if (!on) return null;
  const idx = TARGET[on.region];
  const cx = idx.reduce((s, i) => s + (points[i] as P3)[0], 0) / idx.length;
  const cy = idx.reduce((s, i) => s + (points[i] as P3)[1], 0) / idx.length;
  const w = faceWidth;
  const inFor = Math.min(t - on.startMs, on.endMs - t);
  const slide = inFor >= SLIDE_MS ? 0 : 1 - inFor / SLIDE_MS;
  // The palm a little below and to the image's right of the target, the fingers reaching up and left over it.
  const angle = -0.5;
  const px = cx + 0.12 * w;
  const py = cy + 0.18 * w + slide * 1.6 * w;
  const palm = { x: px, y: py, rx: 0.24 * w, ry: 0.3 * w, angle };
  const fingers: Hand['fingers'] = [];
  for (let f = 0; f < 4; f++) {
    const a = angle - Math.PI / 2 + (f - 1.5) * 0.2;
    const base = (f - 1.5) * 0.11 * w;
    const ax = px + Math.cos(angle) * base + Math.cos(a) * 0.18 * w;
    const ay = py + Math.sin(angle) * base + Math.sin(a) * 0.18 * w;
    const len = (f === 1 || f === 2 ? 0.36 : 0.3) * w;
    fingers.push({ ax, ay, bx: ax + Math.cos(a) * len, by: ay + Math.sin(a) * len, r: 0.055 * w });
  }
  return { palm, fingers };
}

/** The hand's shapes with what their depth test needs worked out once (the same numbers `depthIn` uses). */
interface Shapes {
  cos: number;
  sin: number;
  palm: Hand['palm'];
  narrow: number;
  fingers: { ax: number; ay: number; vx: number; vy: number; length2: number; r: number }[];
}

function shapes(hand: Hand): Shapes {
  const { palm } = hand;
  return {
    cos: Math.cos(-palm.angle),
    sin: Math.sin(-palm.angle),
    palm,
    narrow: Math.min(palm.rx, palm.ry),
    fingers: hand.fingers.map((f) => {
      const vx = f.bx - f.ax;
      const vy = f.by - f.ay;
      return { ax: f.ax, ay: f.ay, vx, vy, length2: vx * vx + vy * vy, r: f.r };
    }),
  };
}

/** How deep inside the hand (x, y) is: > 0 inside (pixels to its edge, roughly), ≤ 0 outside. */
function depthIn(hand: Shapes, x: number, y: number): number {
  const { palm, cos: c, sin: s } = hand;
  const dx = x - palm.x;
  const dy = y - palm.y;
  const u = (c * dx - s * dy) / palm.rx;
  const v = (s * dx + c * dy) / palm.ry;
  let best = (1 - Math.hypot(u, v)) * hand.narrow;
  for (const f of hand.fingers) {
    const t = Math.max(0, Math.min(1, ((x - f.ax) * f.vx + (y - f.ay) * f.vy) / f.length2));
    best = Math.max(best, f.r - Math.hypot(x - f.ax - t * f.vx, y - f.ay - t * f.vy));
  }
  return best;
}

export const insideHand = (hand: Hand, x: number, y: number) => depthIn(shapes(hand), x, y) > 0;

/** The face's skin colour: the photo around the cheeks and forehead. */
export function skinColour(image: Rgb, points: readonly P3[]): Colour {
  const sum = [0, 0, 0];
  let n = 0;
  for (const i of [50, 280, 101, 330, 151, 9]) {
    const p = points[i] as P3;
    for (let dy = -2; dy <= 2; dy++) {
      for (let dx = -2; dx <= 2; dx++) {
        const x = Math.round(p[0]) + dx;
        const y = Math.round(p[1]) + dy;
        if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
        const o = (y * image.width + x) * 3;
        for (let c = 0; c < 3; c++) sum[c] = (sum[c] as number) + (image.data[o + c] as number);
        n++;
      }
    }
  }
  return [(sum[0] as number) / n, (sum[1] as number) / n, (sum[2] as number) / n];
}

/** Paints the hand (antialiased, shaded darker towards its edges). */
export function paintHand(out: Canvas, hand: Hand, skin: Colour): void {
  const reach = Math.max(hand.palm.rx, hand.palm.ry) + 0.5 * hand.palm.rx * 4;
  const x0 = Math.max(0, Math.floor(hand.palm.x - reach));
  const x1 = Math.min(out.width - 1, Math.ceil(hand.palm.x + reach));
  const y0 = Math.max(0, Math.floor(hand.palm.y - reach));
  const y1 = Math.min(out.height - 1, Math.ceil(hand.palm.y + reach));
  const edge = hand.fingers[0]?.r ?? 4;
  const prepared = shapes(hand);
  const near = nearBoxes(prepared);
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      if (!inBoxes(near, x + 0.5, y + 0.5)) continue;
      const d = depthIn(prepared, x + 0.5, y + 0.5);
      if (d <= -0.5) continue;
      const a = Math.min(1, d + 0.5);
      const shade = 0.72 + 0.33 * Math.min(1, Math.max(0, d) / edge);
      const o = (y * out.width + x) * 3;
      for (let c = 0; c < 3; c++)
        out.rgb[o + c] = (1 - a) * (out.rgb[o + c] as number) + a * (skin[c] as number) * shade;
    }
  }
}

/**
 * Boxes (x0, y0, x1, y1 each) outside all of which a point is more than half a pixel outside the hand, with a pixel
 * to spare for rounding: the palm's ellipse grown by half a pixel of depth, each finger's segment by its radius and
 * half a pixel.
 */
function nearBoxes(hand: Shapes): Float64Array {
  const { palm, cos, sin } = hand;
  const grown = 1 + 0.5 / hand.narrow;
  const hx = grown * (palm.rx * Math.abs(cos) + palm.ry * Math.abs(sin)) + 1;
  const hy = grown * (palm.rx * Math.abs(sin) + palm.ry * Math.abs(cos)) + 1;
  const boxes = [palm.x - hx, palm.y - hy, palm.x + hx, palm.y + hy];
  for (const f of hand.fingers) {
    const r = f.r + 1.5;
    const bx = f.ax + f.vx;
    const by = f.ay + f.vy;
    boxes.push(Math.min(f.ax, bx) - r, Math.min(f.ay, by) - r, Math.max(f.ax, bx) + r, Math.max(f.ay, by) + r);
  }
  return Float64Array.from(boxes);
}

function inBoxes(boxes: Float64Array, x: number, y: number): boolean {
  for (let i = 0; i < boxes.length; i += 4)
    if (
      x >= (boxes[i] as number) &&
      y >= (boxes[i + 1] as number) &&
      x <= (boxes[i + 2] as number) &&
      y <= (boxes[i + 3] as number)
    )
      return true;
  return false;
}

/** Share of the face's mesh points (frame pixels) the hand covers. */
export function coveredShare(hand: Hand | null, points: readonly (P2 | P3)[]): number {
  if (!hand) return 0;
  let n = 0;
  for (const p of points) if (insideHand(hand, p[0], p[1])) n++;
  return n / points.length;
}
