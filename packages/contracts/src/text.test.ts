import { describe, expect, it } from 'vitest';
import { isCleanText, isStorableText, toStorableText } from './text.ts';

const NUL = String.fromCharCode(0);

describe('text the product stores', () => {
  it('refuses NUL and lone surrogates, keeps paired ones (emoji) and any script', () => {
    for (const ok of ['', 'Привет, 世界', 'a\u{1F600}b', 'tab\there']) expect(isStorableText(ok), ok).toBe(true);
    for (const bad of [`a${NUL}b`, '\uD800', 'x\uDC00', '\uDBFFz', '\uDC00\uD800']) {
      expect(isStorableText(bad), JSON.stringify(bad)).toBe(false);
      expect(isStorableText(toStorableText(bad)), JSON.stringify(bad)).toBe(true);
    }
    // The same answer twice: the global pattern keeps no state between calls.
    expect([isStorableText('\uD800'), isStorableText('\uD800')]).toEqual([false, false]);
  });

  it('refuses control characters in names too', () => {
    expect(isCleanText('clip.mp4')).toBe(true);
    expect(isCleanText('a\u{1F600}.png')).toBe(true);
    for (const bad of ['tab\there', 'line\nbreak', `x${String.fromCharCode(0x7f)}`, '\uD800.png']) {
      expect(isCleanText(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
