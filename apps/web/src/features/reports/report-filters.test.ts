import { createReportInput } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { filterParts, parseProcessIds } from './report-filters.ts';

describe('report filters as the list shows them', () => {
  it('lists each part that narrows', () => {
    const { filters } = createReportInput.parse({
      name: 'A',
      filters: {
        respondents: { sex: 'woman', age_min: 18 },
        accuracy_max_px: 80,
        date_to: '2026-11-30',
        happy: { min: 0, max: 0.13 },
      },
    });
    expect(filterParts(filters)).toEqual([
      { key: 'filters.women' },
      { key: 'filters.age', values: { from: 18, to: 120 } },
      { key: 'filters.usable' },
      { key: 'filters.accuracy', values: { px: 80 } },
      { key: 'filters.dates', values: { from: '…', to: '2026-11-30' } },
      { key: 'filters.happy', values: { min: 0, max: 0.13 } },
    ]);
    // The default (usable sessions only) is a part too, so the list never shows no filter at all.
    expect(filterParts(createReportInput.parse({ name: 'B' }).filters)).toEqual([{ key: 'filters.usable' }]);
  });

  it('reads the comma-separated process ids once each, whatever the spacing', () => {
    expect(parseProcessIds(' A1, b2 ,,a1;\nc3 ')).toEqual(['a1', 'b2', 'c3']);
    expect(parseProcessIds('')).toEqual([]);
  });
});
