/** The per-second series of one session, summed a frame at a time. */
import { FaceSignalSums, type FaceSignals, faceSignalColumns } from '../face-signals.ts';
import { engagement, valence } from '../metrics.ts';
import type { Bucket } from '../session-timeline.ts';
import type { PerSecondSeries } from '../session-types.ts';
import { EXPRESSIONS, type Expression, type ExpressionScores } from '../types.ts';

export interface PlacedFrame {
  bucket: Bucket | null;
  good: boolean;
  scores: ExpressionScores | null;
  attention: number;
  content: { item: number; x: number; y: number } | null;
  item: number;
  /** The frame's face signals: frame `k` of `of`. */
  signals?: { of: FaceSignals; k: number };
}

/**
 * Per-second means. Expressions, engagement and valence: over the good frames (smoothed scores); attention:
 * over every placed frame (a bad frame counts as not attending, as in the summary's attention share); gaze: over
 * good frames whose gaze falls on the item, in its natural pixels.
 */
export function buildSeries(
  timeline: PerSecondSeries['timeline'],
  frames: PlacedFrame[],
  items: { width: number; height: number }[],
): PerSecondSeries {
  const series = new SeriesAccumulator(timeline, items);
  for (const f of frames) series.add(f);
  return series.result();
}

interface BucketSums {
  bucket: Bucket;
  frames: number;
  good: number;
  scored: number;
  expressions: Record<Expression, number>;
  engagement: number;
  valence: number;
  attention: number;
  gazeN: number;
  gazeX: number;
  gazeY: number;
  face: FaceSignalSums;
}

/** `buildSeries` a frame at a time: only the per-second sums are kept. */
export class SeriesAccumulator {
  private readonly buckets = new Map<string, BucketSums>();

  constructor(
    private readonly timeline: PerSecondSeries['timeline'],
    private readonly items: { width: number; height: number }[],
  ) {}

  add(f: PlacedFrame): void {
    if (!f.bucket) return;
    const key = `${f.bucket.item}|${f.bucket.step}|${f.bucket.second}`;
    let acc = this.buckets.get(key);
    if (!acc) {
      acc = {
        bucket: f.bucket,
        frames: 0,
        good: 0,
        scored: 0,
        expressions: Object.fromEntries(EXPRESSIONS.map((e) => [e, 0])) as Record<Expression, number>,
        engagement: 0,
        valence: 0,
        attention: 0,
        gazeN: 0,
        gazeX: 0,
        gazeY: 0,
        face: new FaceSignalSums(),
      };
      this.buckets.set(key, acc);
    }
    acc.frames++;
    acc.attention += f.attention;
    if (f.signals) acc.face.add(f.signals.of, f.signals.k, f.good, f.good ? f.scores : null);
    if (!f.good) return;
    acc.good++;
    if (f.scores) {
      acc.scored++;
      for (const e of EXPRESSIONS) acc.expressions[e] += f.scores[e];
      acc.engagement += engagement(f.scores);
      acc.valence += valence(f.scores);
    }
    const size = f.content ? this.items[f.content.item] : undefined;
    if (
      f.content &&
      size &&
      f.content.x >= 0 &&
      f.content.x <= size.width &&
      f.content.y >= 0 &&
      f.content.y <= size.height
    ) {
      acc.gazeN++;
      acc.gazeX += f.content.x;
      acc.gazeY += f.content.y;
    }
  }

  result(): PerSecondSeries {
    const sorted = [...this.buckets.values()].sort(
      (a, b) => a.bucket.item - b.bucket.item || a.bucket.step - b.bucket.step || a.bucket.second - b.bucket.second,
    );
    const per = (n: (a: BucketSums) => number, d: (a: BucketSums) => number) =>
      sorted.map((a) => (d(a) > 0 ? n(a) / d(a) : null));
    return {
      timeline: this.timeline,
      item: sorted.map((a) => a.bucket.item),
      step: sorted.map((a) => a.bucket.step),
      second: sorted.map((a) => a.bucket.second),
      frames: sorted.map((a) => a.frames),
      goodFrames: sorted.map((a) => a.good),
      engagement: per(
        (a) => a.engagement,
        (a) => a.scored,
      ),
      valence: per(
        (a) => a.valence,
        (a) => a.scored,
      ),
      attention: per(
        (a) => a.attention,
        (a) => a.frames,
      ),
      expressions: Object.fromEntries(
        EXPRESSIONS.map((e) => [
          e,
          per(
            (a) => a.expressions[e],
            (a) => a.scored,
          ),
        ]),
      ) as Record<Expression, (number | null)[]>,
      gazeX: per(
        (a) => a.gazeX,
        (a) => a.gazeN,
      ),
      gazeY: per(
        (a) => a.gazeY,
        (a) => a.gazeN,
      ),
      ...faceSignalColumns(sorted.map((a) => a.face)),
    };
  }
}
