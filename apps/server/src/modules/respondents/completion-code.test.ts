import { describe, expect, it } from 'vitest';
import {
  type CodedSession,
  formatShortCode,
  newShortCode,
  normalizeShortCode,
  SHORT_CODE_ALPHABET,
  SHORT_CODE_SYMBOLS,
  signCompletionCode,
  verifyCompletionCodes,
} from './completion-code.ts';

const SECRET = 'a-test-secret-of-enough-length-for-hs256';

describe('short completion codes (issue 28, item 13)', () => {
  it('are 14 symbols of 31 with no look-alikes: at least 64 bits, 15 characters as shown', () => {
    expect(SHORT_CODE_ALPHABET).toHaveLength(31);
    expect(new Set(SHORT_CODE_ALPHABET).size).toBe(31);
    expect(SHORT_CODE_ALPHABET).not.toMatch(/[01OIL]/);
    expect(SHORT_CODE_SYMBOLS * Math.log2(SHORT_CODE_ALPHABET.length)).toBeGreaterThanOrEqual(64);
    const code = newShortCode();
    expect(code).toMatch(/^[2-9A-HJKMNP-Z]{14}$/);
    const shown = formatShortCode(code);
    expect(shown).toMatch(/^[2-9A-HJKMNP-Z]{7}-[2-9A-HJKMNP-Z]{7}$/);
    expect(shown.length).toBeLessThanOrEqual(16);
  });

  it('are drawn uniformly: 20 000 codes all distinct, every symbol in every place', () => {
    const codes = Array.from({ length: 20_000 }, newShortCode);
    expect(new Set(codes).size).toBe(codes.length);
    const counts = new Map<string, number>();
    for (const code of codes) for (const ch of code) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect([...counts.keys()].sort().join('')).toBe([...SHORT_CODE_ALPHABET].sort().join(''));
    // 280 000 symbols over 31: ~9032 each; a biased draw (e.g. modulo of a byte) would be far off.
    const expected = (codes.length * SHORT_CODE_SYMBOLS) / SHORT_CODE_ALPHABET.length;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.06);
  });

  it('are read back in any case, with or without the hyphen; anything else is not one', () => {
    expect(normalizeShortCode('k7m9xq2-rtwph3a')).toBe('K7M9XQ2RTWPH3A');
    expect(normalizeShortCode('K7M9XQ2RTWPH3A')).toBe('K7M9XQ2RTWPH3A');
    for (const bad of ['K7M9XQ2-RTWPH3', 'K7M9XQ2-RTWPH3AA', 'K7M9XQ2-RTWPH3O', 'a.b.c', '', 'K7M9XQ2_RTWPH3A']) {
      expect(normalizeShortCode(bad), bad).toBeNull();
    }
  });

  it('verify beside signed codes, in order, with one lookup of the short ones', async () => {
    const session: CodedSession = {
      completion_code: 'K7M9XQ2RTWPH3A',
      id: '11111111-1111-4111-8111-111111111111',
      project_id: '22222222-2222-4222-8222-222222222222',
      research_order: ['33333333-3333-4333-8333-333333333333'],
      participant_id: 'p-1',
      outcome: 'complete',
      is_preview: false,
    };
    const running: CodedSession = { ...session, completion_code: 'ABCDEFGHJKMNPQ', outcome: null };
    const signed = await signCompletionCode(SECRET, {
      sid: session.id,
      pid: session.project_id,
      cids: session.research_order,
      par: 'p-1',
      outcome: 'complete',
    });
    const asked: string[][] = [];
    const lookup = async (codes: string[]) => {
      asked.push(codes);
      return [session, running].filter((s) => codes.includes(s.completion_code ?? ''));
    };
    const out = await verifyCompletionCodes(
      SECRET,
      ['k7m9xq2-rtwph3a', signed, 'ABCDEFG-HJKMNPQ', 'ZZZZZZZ-ZZZZZZZ', 'hello'],
      lookup,
    );
    const claims = { sid: session.id, pid: session.project_id, cids: session.research_order, par: 'p-1' };
    expect(out).toEqual([
      { valid: true, claims: { ...claims, outcome: 'complete' } },
      { valid: true, claims: { ...claims, outcome: 'complete' } },
      { valid: false, reason: 'session_missing' },
      { valid: false, reason: 'session_missing' },
      { valid: false, reason: 'malformed' },
    ]);
    expect(asked).toEqual([['K7M9XQ2RTWPH3A', 'ABCDEFGHJKMNPQ', 'ZZZZZZZZZZZZZZ']]);
    // Signed codes only: no lookup.
    await verifyCompletionCodes(SECRET, [signed], lookup);
    expect(asked).toHaveLength(1);
  });
});
