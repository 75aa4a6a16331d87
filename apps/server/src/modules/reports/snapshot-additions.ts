import type { KeyMetrics, ReportBenchmark, ReportSnapshot } from '@emolens/contracts';
import { benchmarkOf, keyMetricsOf } from '../benchmarks/key-metrics.ts';

/**
 * What a built snapshot gets from outside the results: the website tasks' statistics (from the event logs), the
 * researches pooled with their respondents, and the benchmark base (decision 016). The job reads them before the
 * build (it knows whom the report counts from the sessions and their digests), and the build's thread adds them, so
 * that the snapshot comes back once, as its JSON text.
 */
export interface SnapshotAdditions {
  tasks: ReportSnapshot['tasks'];
  researches: ReportSnapshot['researches'];
  /** The research and the base of its subtype, when the report compares with it; null: no benchmark. */
  benchmark: {
    research: { subtype: string; content_type: ReportBenchmark['content_type'] };
    base: { researches: KeyMetrics[]; imported: KeyMetrics[] };
    wholeSample: boolean;
  } | null;
}

/** Adds them to the snapshot (clicks counted per area of each task's screenshot); the research's key metrics. */
export function addToSnapshot(snapshot: ReportSnapshot, additions: SnapshotAdditions): KeyMetrics | null {
  snapshot.tasks = additions.tasks;
  snapshot.researches = additions.researches;
  // Clicks per area of interest on each task's screenshot.
  for (const task of snapshot.tasks) {
    const item = snapshot.items.find((it) => it.index === task.task);
    for (const area of item?.areas ?? []) {
      area.clicks = task.clicks.filter(
        (c) => c.x >= area.x && c.x <= area.x + area.width && c.y >= area.y && c.y <= area.y + area.height,
      ).length;
    }
  }
  const metrics = keyMetricsOf(snapshot.items, snapshot.respondents);
  const benchmark = additions.benchmark;
  if (benchmark && metrics) {
    snapshot.benchmark = benchmarkOf(benchmark.research, metrics, benchmark.base, benchmark.wholeSample);
  }
  return metrics;
}
