import { type FixationFilterUsed, formatMessage, type ReportFormat } from '@emolens/contracts';
import type { FileTexts } from './texts.ts';

/**
 * The filter that made a report's fixations and its settings, as the snapshot recorded them (decision 042), in
 * words: the presentation's method slide and the areas export say it alike. A report built before the record: the
 * earlier filter.
 */
export function fixationFilterText(t: FileTexts, format: ReportFormat, used: FixationFilterUsed | undefined): string {
  if (!used) return t.fixationEarlier;
  const f = used.settings;
  const n = (v: number) => format.number(v);
  const noise = f.noise === 'none' ? t.none : formatMessage(t.fixationNoise[f.noise], { n: f.noiseWindow });
  return `${used.name}: ${formatMessage(t.fixationSettings, {
    gap: n(f.gapFillMs),
    noise,
    window: n(f.velocityWindowMs),
    threshold: n(f.velocityThreshold),
    mergeGap: n(f.mergeGapMs),
    mergeAngle: n(f.mergeAngle),
    minDuration: n(f.minDurationMs),
    distance: n(used.distance_cm),
  })}`;
}
