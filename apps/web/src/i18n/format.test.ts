import { describe, expect, it } from 'vitest';
import { decimalSeparator, formatBytes } from './format.ts';

describe('number formatting in the interface language', () => {
  it('uses the language’s decimal separator: a comma in Russian and Indonesian, a dot in English and Korean', () => {
    // The heatmap's opacity field shows "0,7" in Russian (issue 28, item 7).
    expect(decimalSeparator('ru')).toBe(',');
    expect(decimalSeparator('id')).toBe(',');
    expect(decimalSeparator('en')).toBe('.');
    expect(decimalSeparator('ko')).toBe('.');
  });

  it('writes sizes with the language’s separator', () => {
    expect(formatBytes(1536, 'ru')).toBe('1,5 KB');
    expect(formatBytes(1536, 'en')).toBe('1.5 KB');
  });
});
