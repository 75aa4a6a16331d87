import { z } from 'zod';
import { categoryName } from './categories.ts';
import { msg } from './messages.ts';
import { CONTENT_TYPES } from './researches.ts';

/*
 * Benchmarks (issue 13, item 7): a report may place the research's key metrics as percentiles among the completed
 * researches of its subtype and content type, and among norm bases imported from a file. Decision 016.
 */
/** A research's key metrics (decision 016). Engagement and attention 0..1, valence −1..1, the score 0..100. */
export const BENCHMARK_METRICS = [
  'mean_engagement',
  'peak_engagement',
  'mean_valence',
  'mean_attention',
  'score',
] as const;
export type BenchmarkMetric = (typeof BENCHMARK_METRICS)[number];
export const keyMetricsSchema = z.strictObject({
  mean_engagement: z.number().min(0).max(1),
  peak_engagement: z.number().min(0).max(1),
  mean_valence: z.number().min(-1).max(1),
  mean_attention: z.number().min(0).max(1),
  score: z.number().min(0).max(100),
});
export type KeyMetrics = z.infer<typeof keyMetricsSchema>;

/** One research of a norm base: its subtype and content type, its sample, its key metrics (shift reports). */
export const normEntrySchema = z.strictObject({
  content_type: z.enum(CONTENT_TYPES),
  subtype: z.string().trim().min(1).max(255),
  respondents: z.number().int().min(1).max(10_000_000),
  metrics: keyMetricsSchema,
});
export type NormEntry = z.infer<typeof normEntrySchema>;

export const NORM_FILE_FORMAT = 'emolens-norms';
export const NORM_FILE_LIMIT = 20_000;
/** The norm base file: exported by one installation, imported by another. */
export const normFileSchema = z.strictObject({
  format: z.literal(NORM_FILE_FORMAT, msg('benchmark.badFile')),
  version: z.literal(1, msg('benchmark.badFile')),
  exported_at: z.string().max(64),
  entries: z
    .array(normEntrySchema)
    .min(1, msg('validation.minItems', { min: 1 }))
    .max(NORM_FILE_LIMIT, msg('validation.maxItems', { max: NORM_FILE_LIMIT })),
});
export type NormFile = z.infer<typeof normFileSchema>;

/** POST /api/cabinet/benchmarks/imports/ */
export const normImportInput = z.strictObject({ name: categoryName, file: normFileSchema });

/** GET /api/cabinet/benchmarks/ — the bases by subtype and content type, and the imported files. */
export const benchmarksOutput = z.object({
  bases: z.array(
    z.object({
      content_type: z.enum(CONTENT_TYPES),
      subtype: z.string(),
      researches: z.number().int(),
      imported: z.number().int(),
    }),
  ),
  imports: z.array(z.object({ id: z.uuid(), name: z.string(), entries: z.number().int(), imported_at: z.string() })),
  can: z.object({ manage: z.boolean() }),
});
export type BenchmarksOutput = z.infer<typeof benchmarksOutput>;

/**
 * GET /api/public/benchmark-base/ (no login) — how many creatives the benchmark bases hold: this installation's
 * completed researches with a subtype and the imported norms. The public pages name the number only when there is one.
 */
export const benchmarkBaseOutput = z.object({ creatives: z.number().int().nonnegative() });
export type BenchmarkBaseOutput = z.infer<typeof benchmarkBaseOutput>;

/** A report's benchmark: each key metric's value and percentile among the base (null: the base is empty). */
export const reportBenchmarkSchema = z.object({
  subtype: z.string(),
  content_type: z.enum(CONTENT_TYPES),
  /** Completed researches of this installation in the base, and imported norms. */
  researches: z.number().int(),
  imported: z.number().int(),
  /** The report counts every usable respondent (its filters narrow nothing): like the base's entries. */
  whole_sample: z.boolean(),
  metrics: z.array(
    z.object({ metric: z.enum(BENCHMARK_METRICS), value: z.number(), percentile: z.number().nullable() }),
  ),
});
export type ReportBenchmark = z.infer<typeof reportBenchmarkSchema>;

/** The overall score (decision 016): 100 × (0.4 mean engagement + 0.2 peak engagement + 0.2 attention + 0.2 (valence + 1) / 2). */
export function overallScore(m: Omit<KeyMetrics, 'score'>): number {
  return (
    100 *
    (0.4 * m.mean_engagement + 0.2 * m.peak_engagement + 0.2 * m.mean_attention + 0.2 * ((m.mean_valence + 1) / 2))
  );
}

/** Mid-rank percentile of `value` among `base` (0..100): the share below plus half the share equal; null when empty. */
export function percentileOf(value: number, base: readonly number[]): number | null {
  if (!base.length) return null;
  let below = 0;
  let equal = 0;
  for (const v of base) {
    if (v < value) below++;
    else if (v === value) equal++;
  }
  return (100 * (below + equal / 2)) / base.length;
}
