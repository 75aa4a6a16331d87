/**
 * Expressions and blinks as movements of the mesh's points in head coordinates (face widths; y down). Each movement
 * is a handle (a landmark or a group's centre) moved by a vector, carried to nearby points with a Gaussian falloff,
 * so the skin around follows smoothly. Intensities are 0–1; the movements at 1 are a strong, plainly visible
 * expression, and they add up when several are on.
 */
import type { P3 } from './geometry.ts';
import { BROWS, CHEEKS, CHIN, EYES, LIPS, MESH_POINTS } from './mesh.ts';

export interface ExpressionState {
  smile: number;
  surprise: number;
  frown: number;
}

export const EXPRESSION_KINDS = ['smile', 'surprise', 'frown'] as const;
export type ExpressionKind = (typeof EXPRESSION_KINDS)[number];

/** Each eye's lid closure, 0 (open as in the photo) to 1 (shut): the subject's right eye, then the left. */
export type Closure = [number, number];

interface Handle {
  at: (head: readonly P3[]) => P3;
  /** Movement at intensity 1, in face widths. */
  move: [number, number];
  /** Falloff's standard deviation, in face widths. */
  sigma: number;
}

const point = (i: number) => (head: readonly P3[]) => head[i] as P3;
const centroid = (idx: readonly number[]) => (head: readonly P3[]) => {
  let x = 0;
  let y = 0;
  let z = 0;
  for (const i of idx) {
    const p = head[i] as P3;
    x += p[0];
    y += p[1];
    z += p[2];
  }
  return [x / idx.length, y / idx.length, z / idx.length] as P3;
};

const [rightCorner, leftCorner] = LIPS.corners;
const SMILE: Handle[] = [
  // Lip corners up and out; the cheeks raised; the upper lip drawn a little up with them.
  { at: point(rightCorner), move: [-0.05, -0.065], sigma: 0.085 },
  { at: point(leftCorner), move: [0.05, -0.065], sigma: 0.085 },
  { at: centroid(CHEEKS.right), move: [-0.01, -0.04], sigma: 0.09 },
  { at: centroid(CHEEKS.left), move: [0.01, -0.04], sigma: 0.09 },
  { at: point(LIPS.upperMid), move: [0, -0.008], sigma: 0.05 },
];

const SURPRISE: Handle[] = [
  { at: centroid(BROWS.right), move: [0, -0.07], sigma: 0.13 },
  { at: centroid(BROWS.left), move: [0, -0.07], sigma: 0.13 },
  // The mouth a little narrower as the jaw drops.
  { at: point(rightCorner), move: [0.012, 0.01], sigma: 0.05 },
  { at: point(leftCorner), move: [-0.012, 0.01], sigma: 0.05 },
];

const FROWN: Handle[] = [
  // The brows' inner ends down and together (the corrugator), the whole brows a little down, the upper lids lowered
  // with them; the lip corners down and the lips pressed a little.
  { at: centroid(BROWS.innerRight), move: [0.045, 0.065], sigma: 0.07 },
  { at: centroid(BROWS.innerLeft), move: [-0.045, 0.065], sigma: 0.07 },
  { at: centroid(BROWS.right), move: [0.01, 0.03], sigma: 0.1 },
  { at: centroid(BROWS.left), move: [-0.01, 0.03], sigma: 0.1 },
  { at: point(rightCorner), move: [0.008, 0.03], sigma: 0.06 },
  { at: point(leftCorner), move: [-0.008, 0.03], sigma: 0.06 },
];

const HANDLES: Record<ExpressionKind, Handle[]> = { smile: SMILE, surprise: SURPRISE, frown: FROWN };

/** Jaw drop of a full surprise (face widths) and the widening of the eyes (upper lids up). */
const JAW_DROP = 0.08;
const LIDS_UP = 0.018;
/** A closed eye: where the lids meet, from the upper lid (0) to the lower one (1). */
const LIDS_MEET = 0.78;

/**
 * The mesh's 468 points in head coordinates with the expressions and blinks applied. `neutral`: the photo's points;
 * `width`: the face's width in head units.
 */
export function expressMesh(neutral: readonly P3[], width: number, state: ExpressionState, closure: Closure): P3[] {
  const out = neutral.slice(0, MESH_POINTS).map((p): P3 => [p[0], p[1], p[2]]);
  for (const kind of EXPRESSION_KINDS) {
    const k = state[kind];
    if (k <= 0) continue;
    for (const h of HANDLES[kind]) {
      const c = h.at(neutral);
      const s2 = 2 * (h.sigma * width) ** 2;
      const mx = h.move[0] * width * k;
      const my = h.move[1] * width * k;
      for (let i = 0; i < out.length; i++) {
        const p = neutral[i] as P3;
        const w = Math.exp(-((p[0] - c[0]) ** 2 + (p[1] - c[1]) ** 2) / s2);
        if (w < 1e-3) continue;
        const o = out[i] as P3;
        o[0] += mx * w;
        o[1] += my * w;
      }
    }
  }
  if (state.surprise > 0) openJaw(neutral, out, width, state.surprise);
  if (state.smile > 0)
    for (const eye of EYES) for (const i of eye.lower) (out[i] as P3)[1] -= 0.01 * width * state.smile;
  for (const [e, eye] of EYES.entries()) {
    const lift = state.surprise * LIDS_UP * width;
    for (const i of eye.upper) (out[i] as P3)[1] -= lift;
    for (const i of eye.lid) (out[i] as P3)[1] -= lift * 0.6;
    const b = closure[e] ?? 0;
    if (b > 0) closeLids(out, eye, b);
  }
  return out;
}

/** The jaw and lower lip down: everything below the mouth's line moves, most at the chin, less towards the ears. */
function openJaw(neutral: readonly P3[], out: P3[], width: number, k: number): void {
  const top = neutral[13] as P3;
  const chin = neutral[CHIN[0]] as P3;
  const span = chin[1] - top[1];
  for (let i = 0; i < out.length; i++) {
    const p = neutral[i] as P3;
    const below = (p[1] - top[1]) / span;
    if (below <= -0.02) continue;
    const rise = Math.min(1, (below + 0.02) / 0.1);
    const across = Math.exp(-((p[0] - top[0]) ** 2) / (2 * (0.3 * width) ** 2));
    (out[i] as P3)[1] += JAW_DROP * width * k * rise * across;
  }
}

/** Lids closing by `b`: the upper lid comes down most of the way, the lower one up the rest; the skin above follows. */
function closeLids(out: P3[], eye: (typeof EYES)[number], b: number): void {
  let drop = 0;
  eye.upper.forEach((u, k) => {
    const up = out[u] as P3;
    const low = out[eye.lower[k] as number] as P3;
    const meetY = up[1] + LIDS_MEET * (low[1] - up[1]);
    const dy = b * (meetY - up[1]);
    drop += dy;
    up[1] += dy;
    low[1] += b * (meetY - low[1]);
  });
  drop /= eye.upper.length;
  // The fold above the lid and the brow's underside: the first seven points more than the seven above them.
  eye.lid.forEach((i, k) => {
    (out[i] as P3)[1] += drop * (k < 7 ? 0.45 : 0.15);
  });
}

/** The envelope of one expression event: 0 before onset, up to `intensity` at apex, held, back to 0 at end. */
export interface ExpressionEvent {
  kind: ExpressionKind;
  intensity: number;
  onsetMs: number;
  apexMs: number;
  offsetMs: number;
  endMs: number;
}

export function envelope(event: ExpressionEvent, t: number): number {
  const { onsetMs, apexMs, offsetMs, endMs, intensity } = event;
  if (t <= onsetMs || t >= endMs) return 0;
  const ease = (x: number) => x * x * (3 - 2 * x);
  if (t < apexMs) return intensity * ease((t - onsetMs) / (apexMs - onsetMs));
  if (t <= offsetMs) return intensity;
  return intensity * ease((endMs - t) / (endMs - offsetMs));
}

export function expressionsAt(events: readonly ExpressionEvent[], t: number): ExpressionState {
  const state: ExpressionState = { smile: 0, surprise: 0, frown: 0 };
  for (const e of events) state[e.kind] = Math.min(1, state[e.kind] + envelope(e, t));
  return state;
}

/** A blink's lid closure: down in the first 40% of its duration, up in the rest. */
export function blinkClosure(blinks: readonly { startMs: number; durationMs: number }[], t: number): number {
  let closure = 0;
  for (const { startMs, durationMs } of blinks) {
    const x = (t - startMs) / durationMs;
    if (x <= 0 || x >= 1) continue;
    const c = x < 0.4 ? Math.sin(((x / 0.4) * Math.PI) / 2) : Math.cos((((x - 0.4) / 0.6) * Math.PI) / 2);
    closure = Math.max(closure, c);
  }
  return closure;
}
