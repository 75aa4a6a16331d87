/**
 * The gaze timeline: where on the screen the eyes point at a time. Fixations hold a point, pursuits glide along a
 * path at constant speed, and between items the eyes jump with a saccade whose duration follows the main sequence
 * (about 21 ms + 2.2 ms per degree) on a minimum-jerk profile.
 */
import type { Screen } from './eyes.ts';
import type { GazeItem } from './script.ts';

export type GazePhase = 'fixation' | 'saccade' | 'pursuit' | 'away';

export interface GazeSample {
  x: number;
  y: number;
  phase: GazePhase;
  /** Whether the point lies on the screen. */
  onScreen: boolean;
}

type Point = { x: number; y: number };

/** Point of a polyline at share `f` of its length. */
function along(path: readonly Point[], f: number): Point {
  const lengths: number[] = [];
  let total = 0;
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1] as Point;
    const b = path[i] as Point;
    const l = Math.hypot(b.x - a.x, b.y - a.y);
    lengths.push(l);
    total += l;
  }
  let left = Math.min(1, Math.max(0, f)) * total;
  for (let i = 0; i < lengths.length; i++) {
    const l = lengths[i] as number;
    if (left <= l || i === lengths.length - 1) {
      const a = path[i] as Point;
      const b = path[i + 1] as Point;
      const t = l > 0 ? Math.min(1, left / l) : 0;
      return { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
    }
    left -= l;
  }
  return path[0] as Point;
}

/** Where item `item` points at time t (clamped to its span). */
function itemPoint(item: GazeItem, t: number): Point {
  if (item.kind !== 'pursuit') return item.at;
  const f = (t - item.startMs) / Math.max(1, item.endMs - item.startMs);
  return along(item.path, f);
}

/** The angle (degrees) between two screen points seen from the eyes. */
export function visualAngle(screen: Screen, a: Point, b: Point): number {
  const mmPerPx = (10 * screen.widthCm) / screen.widthPx;
  const d = Math.hypot(a.x - b.x, a.y - b.y) * mmPerPx;
  return (2 * Math.atan(d / 2 / (10 * screen.distanceCm))) / (Math.PI / 180);
}

/** Main-sequence saccade duration (ms) for an amplitude in degrees. */
export const saccadeMs = (degrees: number) => 21 + 2.2 * degrees;

const minimumJerk = (x: number) => {
  const t = Math.min(1, Math.max(0, x));
  return t * t * t * (10 - 15 * t + 6 * t * t);
};

export function gazeAt(items: readonly GazeItem[], screen: Screen, t: number): GazeSample {
  const centre = { x: screen.widthPx / 2, y: screen.heightPx / 2 };
  const onScreen = (p: Point) => p.x >= 0 && p.y >= 0 && p.x <= screen.widthPx && p.y <= screen.heightPx;
  const sample = (p: Point, phase: GazePhase): GazeSample => ({ x: p.x, y: p.y, phase, onScreen: onScreen(p) });
  const first = items[0];
  if (!first) return sample(centre, 'fixation');
  if (t < first.startMs) return sample(itemPoint(first, first.startMs), first.kind === 'away' ? 'away' : 'fixation');
  let index = 0;
  for (let i = 0; i < items.length; i++) if ((items[i] as GazeItem).startMs <= t) index = i;
  const item = items[index] as GazeItem;
  const phase: GazePhase = item.kind;
  if (t > item.endMs) return sample(itemPoint(item, item.endMs), item.kind === 'pursuit' ? 'fixation' : phase);
  if (index > 0) {
    const previous = items[index - 1] as GazeItem;
    const from = itemPoint(previous, Math.min(previous.endMs, item.startMs));
    const to = itemPoint(item, item.startMs);
    const duration = saccadeMs(visualAngle(screen, from, to));
    if (t < item.startMs + duration && (from.x !== to.x || from.y !== to.y)) {
      const k = minimumJerk((t - item.startMs) / duration);
      // During a saccade into a pursuit the target keeps moving: land on where it is by the saccade's end.
      const landing = itemPoint(item, item.startMs + duration);
      return sample({ x: from.x + (landing.x - from.x) * k, y: from.y + (landing.y - from.y) * k }, 'saccade');
    }
  }
  return sample(itemPoint(item, t), phase);
}
