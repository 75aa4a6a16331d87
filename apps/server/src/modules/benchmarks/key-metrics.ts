import {
  activeFilterCount,
  BENCHMARK_METRICS,
  type KeyMetrics,
  overallScore,
  percentileOf,
  type ReportBenchmark,
  type ReportFilters,
  type ReportItem,
} from '@emolens/contracts';

/**
 * A research's key metrics from a report's curves (decision 016). Over every item and point of the content:
 *  - mean engagement, valence and attention: the means of the points weighted by the N behind each, i.e. the mean
 *    over every respondent-point;
 *  - peak engagement: the highest point of the engagement curve among points at least half the report's
 *    respondents stand behind (a tail watched by a few is not a peak); all points when none are;
 *  - the overall score of the contracts' `overallScore`;
 * each rounded to 6 decimals.
 * Null when no point has anyone behind it.
 */
export function keyMetricsOf(items: readonly ReportItem[], respondents: number): KeyMetrics | null {
  const weighted = (metric: 'engagement' | 'valence' | 'attention') => {
    let sum = 0;
    let n = 0;
    for (const item of items) {
      const curve = item.curves[metric];
      if (!curve) continue;
      curve.mean.forEach((mean, i) => {
        const k = curve.n[i] ?? 0;
        if (mean === null || k === 0) return;
        sum += mean * k;
        n += k;
      });
    }
    return n ? sum / n : null;
  };
  const engagement = weighted('engagement');
  const valence = weighted('valence');
  const attention = weighted('attention');
  if (engagement === null || valence === null || attention === null) return null;
  const points = items.flatMap((item) => {
    const curve = item.curves.engagement;
    return curve ? curve.mean.map((mean, i) => ({ mean, n: curve.n[i] ?? 0 })) : [];
  });
  const peakOf = (minN: number) =>
    Math.max(...points.filter((p) => p.mean !== null && p.n >= minN).map((p) => p.mean as number));
  const half = Math.max(1, Math.ceil(respondents / 2));
  const peak = points.some((p) => p.mean !== null && p.n >= half) ? peakOf(half) : peakOf(1);
  // Rounded to 6 decimals, so that equal values compare equal across researches (a tie is half below).
  const clip = (v: number, lo: number, hi: number) => Math.round(Math.min(hi, Math.max(lo, v)) * 1e6) / 1e6;
  const metrics = {
    mean_engagement: clip(engagement, 0, 1),
    peak_engagement: clip(peak, 0, 1),
    mean_valence: clip(valence, -1, 1),
    mean_attention: clip(attention, 0, 1),
  };
  return { ...metrics, score: clip(overallScore(metrics), 0, 100) };
}

/** The report's filters narrow nothing: every usable respondent counts, as in the base's entries. */
export function isWholeSample(filters: ReportFilters): boolean {
  return (
    activeFilterCount(filters.respondents) === 0 &&
    filters.quality === 'usable' &&
    filters.accuracy_max_px === null &&
    filters.date_from === null &&
    filters.date_to === null &&
    filters.process_ids.length === 0 &&
    filters.happy === null
  );
}

/** Each key metric's percentile among the base: the other completed researches and the imported norms. */
export function benchmarkOf(
  research: { subtype: string; content_type: ReportBenchmark['content_type'] },
  metrics: KeyMetrics,
  base: { researches: KeyMetrics[]; imported: KeyMetrics[] },
  wholeSample: boolean,
): ReportBenchmark {
  const all = [...base.researches, ...base.imported];
  return {
    subtype: research.subtype,
    content_type: research.content_type,
    researches: base.researches.length,
    imported: base.imported.length,
    whole_sample: wholeSample,
    metrics: BENCHMARK_METRICS.map((metric) => ({
      metric,
      value: metrics[metric],
      percentile: percentileOf(
        metrics[metric],
        all.map((m) => m[metric]),
      ),
    })),
  };
}
