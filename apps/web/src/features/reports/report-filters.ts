import type { ReportFilters } from '@emolens/contracts';

/** One part of a report's filters as the list shows it: a message key of the `reports` namespace and its values. */
export interface FilterPart {
  key: string;
  values?: Record<string, string | number>;
}

/** What narrows a report (and, first, the other researches it pools), part by part, in the order the form asks. */
export function filterParts(f: ReportFilters, researches: readonly string[] = []): FilterPart[] {
  const parts: FilterPart[] = [];
  if (researches.length) parts.push({ key: 'filters.researches', values: { count: researches.length + 1 } });
  const r = f.respondents;
  if (r.sex !== 'off') parts.push({ key: r.sex === 'man' ? 'filters.men' : 'filters.women' });
  if (r.age_min !== null || r.age_max !== null) {
    parts.push({ key: 'filters.age', values: { from: r.age_min ?? 0, to: r.age_max ?? 120 } });
  }
  if (r.statuses.length) parts.push({ key: 'filters.statuses', values: { count: r.statuses.length } });
  if (r.answers.length) parts.push({ key: 'filters.answers', values: { count: r.answers.length } });
  parts.push({ key: f.quality === 'usable' ? 'filters.usable' : 'filters.all' });
  if (f.accuracy_max_px !== null) parts.push({ key: 'filters.accuracy', values: { px: f.accuracy_max_px } });
  if (f.date_from || f.date_to) {
    parts.push({ key: 'filters.dates', values: { from: f.date_from ?? '…', to: f.date_to ?? '…' } });
  }
  if (f.process_ids.length) parts.push({ key: 'filters.processes', values: { count: f.process_ids.length } });
  if (f.happy) parts.push({ key: 'filters.happy', values: { min: f.happy.min, max: f.happy.max } });
  return parts;
}

/** The spec's comma-separated list of video process ids: split, trimmed, empty entries dropped, repeats once. */
export function parseProcessIds(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,;\s]+/)
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}
