import { describe, expect, it } from 'vitest';
import { dispositionFilename } from './client.ts';

describe('the file name of a download', () => {
  it("is the exact name of RFC 8187 filename*, else the plain one, as the server's contentDisposition writes them", () => {
    expect(
      dispositionFilename(
        `attachment; filename="_____ - survey.xlsx"; filename*=UTF-8''%D0%90%D0%BD%D0%BA%D0%B5%D1%82%D0%B0%20-%20survey.xlsx`,
      ),
    ).toBe('Анкета - survey.xlsx');
    expect(dispositionFilename('attachment; filename="answers.csv"')).toBe('answers.csv');
    // A malformed escape falls back to the plain name; no header, no name.
    expect(dispositionFilename(`attachment; filename="a.csv"; filename*=UTF-8''%E0%A4%A`)).toBe('a.csv');
    expect(dispositionFilename(null)).toBeUndefined();
  });
});
