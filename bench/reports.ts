// npm run bench:reports — the report arithmetic at the size issue 13 names, in memory (what the report job will
// run over stored series): curves with bands for 1000 respondents × 60 s × 10 metrics, key moments, and a video
// heatmap (one grid per second) for 1000 respondents × 60 s of gaze at 10 Hz, plus fixations and AOI metrics.
// Prints figures; asserts nothing. Sizes: BENCH_RESPONDENTS, BENCH_SECONDS.
import { FIXATION_DEFAULTS } from '@emolens/contracts';
import { keyMoments, perSecondBands, perSecondShareAbove } from '../apps/server/src/modules/reports/build/aggregate.ts';
import { areaMetrics } from '../apps/server/src/modules/reports/build/areas.ts';
import { fixations, type GazeSample } from '../apps/server/src/modules/reports/build/gaze.ts';
import { heatmapGrid } from '../apps/server/src/modules/reports/build/heatmap.ts';
// A deterministic pseudo-random source, so runs compare.
import { prng as random } from '../packages/engine/src/random.ts';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const RESPONDENTS = env('BENCH_RESPONDENTS', 1000);
const SECONDS = env('BENCH_SECONDS', 60);
const METRICS = 10; // engagement, valence, attention and the 7 expressions
const HZ = 10;
const SIZE = { width: 1920, height: 1080 };

function timed<T>(label: string, fn: () => T): T {
  const start = performance.now();
  const result = fn();
  console.log(`  ${label}: ${(performance.now() - start).toFixed(1)} ms`);
  return result;
}

const rnd = random(42);
console.log(`Report arithmetic: ${RESPONDENTS} respondents × ${SECONDS} s`);
// Per-second series as stored: some respondents start late or leave early (nulls).
const series = Array.from({ length: METRICS }, () =>
  Array.from({ length: RESPONDENTS }, () =>
    Array.from({ length: SECONDS }, (_, s) =>
      rnd() < 0.05 ? null : Math.min(1, Math.max(0, 0.5 + 0.3 * Math.sin(s / 7) + (rnd() - 0.5) * 0.4)),
    ),
  ),
);
timed(`curves with 95% bands, ${METRICS} metrics`, () => {
  for (const metric of series) {
    const bands = perSecondBands(metric);
    perSecondShareAbove(metric, 0.5);
    keyMoments(bands, { minProminence: 0.05 });
  }
});

// Gaze at 10 Hz: each respondent looks at a few places in turn.
const gaze: GazeSample[][] = Array.from({ length: RESPONDENTS }, () => {
  const samples: GazeSample[] = [];
  let x = rnd() * SIZE.width;
  let y = rnd() * SIZE.height;
  for (let i = 0; i < SECONDS * HZ; i++) {
    if (rnd() < 0.15) {
      x = rnd() * SIZE.width;
      y = rnd() * SIZE.height;
    }
    samples.push({ t: i / HZ, x: x + (rnd() - 0.5) * 40, y: y + (rnd() - 0.5) * 40 });
  }
  return samples;
});
timed(
  `video heatmap: ${SECONDS} grids (one a second) of ${RESPONDENTS * HZ} samples each, 20 px cells, σ 60 px`,
  () => {
    for (let s = 0; s < SECONDS; s++) {
      const points = gaze.flatMap((samples) =>
        samples.slice(s * HZ, (s + 1) * HZ).map((p) => ({ x: p.x ?? -1, y: p.y ?? -1, weight: 1 })),
      );
      heatmapGrid(points, SIZE, { cell: 20, sigma: 60, accuracy: 110 });
    }
  },
);
const fixed = timed(`fixations of ${RESPONDENTS} respondents (${SECONDS * HZ} samples each)`, () =>
  gaze.map((samples) => fixations(samples, SIZE, FIXATION_DEFAULTS)),
);
timed('metrics of 10 areas of interest', () =>
  areaMetrics(
    Array.from({ length: 10 }, (_, i) => ({
      id: `a${i}`,
      x: (i % 5) * 384,
      y: Math.floor(i / 5) * 540,
      width: 384,
      height: 540,
    })),
    fixed,
  ),
);
timed('one picture heatmap of every fixation, weighted by duration', () =>
  heatmapGrid(
    fixed.flatMap((list) => list.map((f) => ({ x: f.x, y: f.y, weight: f.end - f.start }))),
    SIZE,
    { cell: 10, sigma: 40, accuracy: 110 },
  ),
);
