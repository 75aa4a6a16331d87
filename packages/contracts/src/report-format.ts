import type { BenchmarkMetric } from './report-benchmarks.ts';

/**
 * How a report's numbers are written, in the cabinet and in the files the server makes (the presentation), so the
 * two never disagree (issue 28: the cabinet's 4.25 fixations were 4.3 on a slide, a 91.7% bar sat beside a 92 in
 * its table). Intl in the report's language: its decimal separator, its percent sign and spacing. A missing value
 * is a dash.
 */
export const NO_VALUE = '—';

export interface ReportFormat {
  /** A measured value (seconds, counts, means): at most two decimals. */
  number(value: number | null | undefined): string;
  /** A share of respondents (0..1) as a whole percent: areas of interest, tasks. */
  percent(share: number | null | undefined): string;
  /** A share of a questionnaire's answers (0..1): one decimal, as the questionnaire statistics show it. */
  answerShare(share: number | null | undefined): string;
  /** A percentile (0..100): a whole number, never a percent. */
  percentile(value: number | null | undefined): string;
  /** A benchmark metric's value as the benchmark card shows it: shares as percent, valence signed, the score. */
  benchmarkValue(metric: BenchmarkMetric, value: number): string;
}

const finite = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value);

export function reportFormat(language: string): ReportFormat {
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  const whole = new Intl.NumberFormat(language, { maximumFractionDigits: 0 });
  const oneDecimal = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 });
  const answerShare = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 });
  const signed = new Intl.NumberFormat(language, { maximumFractionDigits: 2, signDisplay: 'exceptZero' });
  const or = (value: number | null | undefined, format: (v: number) => string) =>
    finite(value) ? format(value) : NO_VALUE;
  return {
    number: (value) => or(value, (v) => number.format(v)),
    percent: (share) => or(share, (v) => percent.format(v)),
    answerShare: (share) => or(share, (v) => answerShare.format(v)),
    percentile: (value) => or(value, (v) => whole.format(v)),
    benchmarkValue: (metric, value) => {
      if (metric === 'score') return oneDecimal.format(value);
      if (metric === 'mean_valence') return signed.format(value);
      return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(value);
    },
  };
}
