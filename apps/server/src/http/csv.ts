/**
 * CSV files for spreadsheets (RFC 4180): every cell quoted, CRLF lines, UTF-8 with a BOM so Excel
 * reads the letters. Cells carry respondent-supplied text (panel ids): one that a spreadsheet would
 * take for a formula (starting with =, +, -, @, tab or carriage return) gets an apostrophe first; a number
 * (a negative one too) stays a number.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

export function toCsv(rows: readonly (readonly CsvValue[])[]): string {
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
