import { describe, expect, it } from 'vitest';
import { reportFormat } from './report-format.ts';

/** One way to write a report's numbers for the cabinet and the presentation (issue 28, items 4 and 7). */
describe('reportFormat', () => {
  it('keeps two decimals of a measured value, in the language’s own writing', () => {
    expect(reportFormat('en').number(4.25)).toBe('4.25');
    expect(reportFormat('ru').number(4.25)).toBe('4,25');
    expect(reportFormat('en').number(1.256)).toBe('1.26');
    expect(reportFormat('en').number(null)).toBe('—');
    expect(reportFormat('en').number(Number.NaN)).toBe('—');
  });

  it('writes shares as percents by the language’s rules, percentiles as whole numbers', () => {
    expect(reportFormat('en').percent(11 / 12)).toBe('92%');
    expect(reportFormat('ru').percent(11 / 12)).toBe('92\u00a0%');
    expect(reportFormat('en').answerShare(11 / 12)).toBe('91.7%');
    expect(reportFormat('ru').answerShare(11 / 12)).toBe('91,7\u00a0%');
    expect(reportFormat('en').percentile(91.66)).toBe('92');
    expect(reportFormat('ko').percentile(null)).toBe('—');
  });

  it('writes a benchmark metric as the benchmark card does', () => {
    const en = reportFormat('en');
    expect(en.benchmarkValue('mean_engagement', 0.4575)).toBe('45.8%');
    expect(en.benchmarkValue('mean_valence', 0.2)).toBe('+0.2');
    expect(en.benchmarkValue('mean_valence', -0.123)).toBe('-0.12');
    expect(en.benchmarkValue('score', 58.25)).toBe('58.3');
    expect(reportFormat('ru').benchmarkValue('score', 58.25)).toBe('58,3');
  });
});
