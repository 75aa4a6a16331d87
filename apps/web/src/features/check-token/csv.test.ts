import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv.ts';

describe('CSV of checked codes', () => {
  it('quotes every cell and doubles quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(3)).toBe('"3"');
  });

  it('defuses what a spreadsheet would run as a formula', () => {
    for (const bad of ['=SUM(1+2)', '+1', '-1+cmd', '@A1', '\t=1', '\r=1']) {
      expect(csvCell(bad).startsWith(`"'`), bad).toBe(true);
    }
    expect(csvCell('eyJhbGciOiJIUzI1NiJ9.x.y')).toBe('"eyJhbGciOiJIUzI1NiJ9.x.y"');
  });

  it('writes rows with CRLF and a BOM', () => {
    expect(
      toCsv([
        ['a', 'b'],
        ['c', null],
      ]),
    ).toBe('\uFEFF"a","b"\r\n"c",""\r\n');
  });
});
