/**
 * Decision 042's measurement: the fixation filter before and after, on phantom gaze whose fixations are known.
 * `node --import tsx bench/fixation-filter.ts` prints, per gaze set and sampling rate, the fixations found and their
 * mean duration beside the truth, for: the earlier filter (content diagonals, the landing sample counted), the same
 * filter without the landing sample (a strict I-VT, the comparison), and the I-VT by the book (decision 042)
 * with its defaults, without noise reduction, and with Olsen's literal defaults.
 *
 * The gaze: the phantom eye (packages/phantom `gazeAt`: main-sequence saccades on a minimum-jerk profile) over a
 * 1280 × 720 picture filling the validation's screen (34.5 × 19.4 cm, 60 cm), sampled at 30 and 10 Hz, plus webcam
 * noise of 0.7° RMS sample to sample (Gaussian, 0.35° per axis), in a second variant also 1% one-sample outliers
 * (3°) and 2% lost samples. Two scripts: the demo's (its slides' fixations, `DEMO_FIXATIONS`, spread per respondent
 * as the demo spreads them) and free viewing (fixations of 100–600 ms, mean about 280 ms, anywhere on the picture).
 */
import { degreesPerContentPixel, FIXATION_DEFAULTS, type FixationSettings, VIEWING } from '@emolens/contracts';
import { DEMO_FIXATIONS, SLIDE_SECONDS } from '../apps/server/src/modules/demo-data/demo-script.ts';
import { type Fixation, fixations, type GazeSample } from '../apps/server/src/modules/reports/build/gaze.ts';
import { gazeAt } from '../packages/phantom/src/gaze.ts';
import type { GazeItem } from '../packages/phantom/src/script.ts';

const SIZE = { width: 1280, height: 720 };
const SCREEN = {
  widthPx: 1280,
  heightPx: 720,
  widthCm: VIEWING.screenCm.width,
  heightCm: VIEWING.screenCm.height,
  distanceCm: VIEWING.distanceCm,
  cameraAboveCm: 1,
};
const PER_PX = degreesPerContentPixel(SIZE);

/** A seeded generator (mulberry32) and a normal draw. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return { next, normal };
}

/** A respondent: the gaze items and the truth (each fixation's settled span, ms). */
interface Viewer {
  items: GazeItem[];
  durationMs: number;
}

function demoViewer(seed: number): Viewer {
  const r = random(seed);
  const items: GazeItem[] = [];
  DEMO_FIXATIONS.forEach((slide, s) => {
    slide.forEach((f, i) => {
      const next = slide[i + 1]?.at ?? SLIDE_SECONDS;
      const jitter = () => (r.next() - 0.5) * 0.5; // ±0.25 s
      const start = (s * SLIDE_SECONDS + f.at + (i === 0 ? 0 : jitter() / 2)) * 1000;
      const end = (s * SLIDE_SECONDS + next) * 1000 - (i < slide.length - 1 ? Math.abs(jitter()) * 200 : 0);
      const x = Math.min(1, Math.max(0, f.x + (r.next() - 0.5) * 0.08)) * SIZE.width;
      const y = Math.min(1, Math.max(0, f.y + (r.next() - 0.5) * 0.08)) * SIZE.height;
      items.push({ kind: 'fixation', startMs: Math.round(start), endMs: Math.round(end), at: { x, y } });
    });
  });
  return { items, durationMs: SLIDES_MS };
}
const SLIDES_MS = DEMO_FIXATIONS.length * SLIDE_SECONDS * 1000;

function freeViewer(seed: number, durationMs = 30_000): Viewer {
  const r = random(seed);
  const items: GazeItem[] = [];
  let t = 0;
  let at = { x: SIZE.width / 2, y: SIZE.height / 2 };
  while (t < durationMs) {
    // Gamma(3, 90 ms) + 100 ms, at most 600 ms: mean ≈ 280 ms.
    const d = Math.min(600, 100 + -90 * Math.log((1 - r.next()) * (1 - r.next()) * (1 - r.next())));
    let next = at;
    while (Math.hypot(next.x - at.x, next.y - at.y) * PER_PX < 2) {
      next = { x: r.next() * SIZE.width, y: r.next() * SIZE.height };
    }
    at = next;
    items.push({ kind: 'fixation', startMs: Math.round(t), endMs: Math.round(t + d), at });
    t += d;
  }
  return { items, durationMs };
}

/** The truth: each fixation item from the end of the saccade into it to its end (ms). */
function truthOf(viewer: Viewer): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let settled = 0;
  for (const item of viewer.items) {
    const step = 5;
    let s = item.startMs;
    while (s < item.endMs && gazeAt(viewer.items, SCREEN, s).phase === 'saccade') s += step;
    settled = s;
    if (item.endMs > settled) out.push({ start: settled, end: item.endMs });
  }
  return out;
}

function sampled(viewer: Viewer, hz: number, seed: number, rough: boolean): GazeSample[] {
  const r = random(seed * 7919 + hz);
  const sigma = 0.35 / PER_PX;
  const out: GazeSample[] = [];
  for (let i = 0; (i * 1000) / hz < viewer.durationMs; i++) {
    const t = i / hz;
    const p = gazeAt(viewer.items, SCREEN, t * 1000);
    let x = p.x + r.normal() * sigma;
    let y = p.y + r.normal() * sigma;
    if (rough && r.next() < 0.01) {
      const a = r.next() * 2 * Math.PI;
      x += (Math.cos(a) * 3) / PER_PX;
      y += (Math.sin(a) * 3) / PER_PX;
    }
    const lost = rough && r.next() < 0.02;
    out.push({ t, x: lost ? null : x, y: lost ? null : y });
  }
  return out;
}

/** The filter before decision 042 (git 253dba2, `fixationsOf`), as it was, for the comparison; `strict` drops the landing sample. */
function earlier(samples: readonly GazeSample[], strict: boolean): Fixation[] {
  const s = { velocity: 1, minDurationMs: 200, mergeGapMs: 150, mergeDistance: 0.05 };
  const valid = samples.filter((p) => p.x !== null && p.y !== null) as { t: number; x: number; y: number }[];
  const diagonal = Math.hypot(SIZE.width, SIZE.height);
  const found: Fixation[] = [];
  let runStart = -1;
  let runEnd = -1;
  let pending = -1;
  // Whether the pending sample is one a fast step reached (the landing sample), not a stretch's first.
  let landing = false;
  const centroid = (from: number, to: number): Fixation => {
    let sx = 0;
    let sy = 0;
    for (let i = from; i <= to; i++) {
      sx += (valid[i] as { x: number }).x;
      sy += (valid[i] as { y: number }).y;
    }
    const n = to - from + 1;
    return {
      start: (valid[from] as { t: number }).t,
      end: (valid[to] as { t: number }).t,
      x: sx / n,
      y: sy / n,
      samples: n,
    };
  };
  const close = () => {
    if (runStart >= 0) found.push(centroid(runStart, runEnd));
    runStart = -1;
  };
  for (let i = 0; i < valid.length; i++) {
    const a = valid[i - 1];
    const b = valid[i] as { t: number; x: number; y: number };
    const dt = a ? b.t - a.t : Number.POSITIVE_INFINITY;
    if (!a || dt <= 0 || dt > 0.25) {
      close();
      pending = i;
      landing = false;
      continue;
    }
    const velocity = Math.hypot(b.x - a.x, b.y - a.y) / diagonal / dt;
    if (velocity <= s.velocity) {
      if (pending >= 0) runStart = strict && landing ? i : pending;
      pending = -1;
      runEnd = i;
    } else {
      close();
      pending = i;
      landing = true;
    }
  }
  close();
  const merged: Fixation[] = [];
  for (const f of found) {
    const last = merged.at(-1);
    if (
      last &&
      (f.start - last.end) * 1000 <= s.mergeGapMs &&
      Math.hypot(f.x - last.x, f.y - last.y) / diagonal <= s.mergeDistance
    ) {
      const n = last.samples + f.samples;
      merged[merged.length - 1] = {
        start: last.start,
        end: f.end,
        x: (last.x * last.samples + f.x * f.samples) / n,
        y: (last.y * last.samples + f.y * f.samples) / n,
        samples: n,
      };
    } else merged.push(f);
  }
  return merged.filter((f) => (f.end - f.start) * 1000 >= s.minDurationMs - 1e-6);
}

const OLSEN: FixationSettings = { ...FIXATION_DEFAULTS, noise: 'none', velocityWindowMs: 20, mergeAngle: 0.5 };
const FILTERS: [string, (s: readonly GazeSample[]) => Fixation[]][] = [
  ['earlier (landing sample counted)', (s) => earlier(s, false)],
  ['earlier, strict (landing sample not counted)', (s) => earlier(s, true)],
  ['I-VT by the book, defaults (042)', (s) => fixations(s, SIZE)],
  ['  … without noise reduction', (s) => fixations(s, SIZE, { ...FIXATION_DEFAULTS, noise: 'none' })],
  ["  … Olsen's literal defaults", (s) => fixations(s, SIZE, OLSEN)],
  ['  … threshold 20°/s', (s) => fixations(s, SIZE, { ...FIXATION_DEFAULTS, velocityThreshold: 20 })],
  ['  … threshold 15°/s', (s) => fixations(s, SIZE, { ...FIXATION_DEFAULTS, velocityThreshold: 15 })],
  ['  … merge angle 0.5°', (s) => fixations(s, SIZE, { ...FIXATION_DEFAULTS, mergeAngle: 0.5 })],
];

/** Truth fixations matched one to one (the detected fixation overlapping it most, not matched before). */
function matched(truth: { start: number; end: number }[], found: Fixation[]): number {
  let n = 0;
  const used = new Set<number>();
  for (const tr of truth) {
    let best = -1;
    let bestOverlap = 0;
    found.forEach((f, i) => {
      const overlap = Math.min(tr.end, f.end * 1000) - Math.max(tr.start, f.start * 1000);
      if (overlap > bestOverlap && !used.has(i)) {
        bestOverlap = overlap;
        best = i;
      }
    });
    if (best >= 0) {
      used.add(best);
      n++;
    }
  }
  return n;
}

const sets: [string, Viewer[]][] = [
  ['demo slides (7 respondents × 12 s)', Array.from({ length: 7 }, (_, i) => demoViewer(101 + i))],
  ['free viewing (20 respondents × 30 s)', Array.from({ length: 20 }, (_, i) => freeViewer(1 + i))],
];
const fmt = (v: number, d = 0) => v.toFixed(d);
for (const [name, viewers] of sets) {
  const truths = viewers.map(truthOf);
  const truthCount = truths.reduce((s, t) => s + t.length, 0);
  const truthMean = truths.flat().reduce((s, t) => s + (t.end - t.start), 0) / truthCount;
  for (const rough of [false, true]) {
    for (const hz of [30, 10]) {
      console.log(
        `\n${name}, ${hz} Hz, noise 0.7° RMS${rough ? ' + 1% outliers of 3° + 2% lost' : ''}: truth ${truthCount} fixations, mean ${fmt(truthMean)} ms`,
      );
      console.log('| filter | fixations | vs truth | mean duration, ms | truth fixations found (1:1) |');
      console.log('| --- | --- | --- | --- | --- |');
      for (const [label, filter] of FILTERS) {
        let count = 0;
        let duration = 0;
        let found = 0;
        viewers.forEach((v, i) => {
          const fx = filter(sampled(v, hz, 1 + i, rough));
          count += fx.length;
          duration += fx.reduce((s, f) => s + (f.end - f.start) * 1000, 0);
          found += matched(truths[i] ?? [], fx);
        });
        console.log(
          `| ${label} | ${count} | ${fmt((100 * count) / truthCount)}% | ${count ? fmt(duration / count) : '—'} | ${fmt((100 * found) / truthCount)}% |`,
        );
      }
    }
  }
}
