/**
 * The FAQ's search: words of a query found in a text regardless of case (and of ё/е, which Russian
 * writers mix), and where they are, to mark them.
 */

/**
 * The text lower-cased, with ё as е, character by character: the result has the input's length, so a
 * position in it is the same position in the input (a character whose lower case is longer stays as it is).
 */
export function fold(text: string): string {
  let out = '';
  for (const char of text) {
    const lower = char.toLowerCase();
    const folded = lower.length === char.length ? lower : char;
    out += folded === 'ё' ? 'е' : folded;
  }
  return out;
}

/** The words of a query, folded, without punctuation at their ends, each once. */
export function queryTerms(query: string): string[] {
  const terms = fold(query)
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);
  return [...new Set(terms)];
}

/** Whether every term occurs in one of the texts. */
export function matchesAll(texts: readonly string[], terms: readonly string[]): boolean {
  const folded = texts.map(fold);
  return terms.every((term) => folded.some((text) => text.includes(term)));
}

export interface Segment {
  text: string;
  match: boolean;
}

/** The text cut into the stretches where a term occurs and those between them, in order. */
export function segments(text: string, terms: readonly string[]): Segment[] {
  if (!terms.length || !text) return [{ text, match: false }];
  const folded = fold(text);
  const ranges: Array<[number, number]> = [];
  for (const term of terms) {
    for (let at = folded.indexOf(term); at !== -1; at = folded.indexOf(term, at + 1))
      ranges.push([at, at + term.length]);
  }
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: Segment[] = [];
  let position = 0;
  for (const [start, end] of ranges) {
    if (end <= position) continue;
    const from = Math.max(start, position);
    const last = out.at(-1);
    if (from > position) out.push({ text: text.slice(position, from), match: false });
    else if (last?.match) {
      // Overlapping or touching matches are one marked stretch.
      last.text += text.slice(from, end);
      position = end;
      continue;
    }
    out.push({ text: text.slice(from, end), match: true });
    position = end;
  }
  if (position < text.length) out.push({ text: text.slice(position), match: false });
  // Words of the query found one after another ("quota link") are marked as one phrase.
  const merged: Segment[] = [];
  for (const segment of out) {
    const gap = merged.at(-1);
    const before = merged.at(-2);
    if (segment.match && gap && !gap.match && before?.match && /^\s+$/.test(gap.text)) {
      merged.pop();
      before.text += gap.text + segment.text;
    } else merged.push({ ...segment });
  }
  return merged;
}
