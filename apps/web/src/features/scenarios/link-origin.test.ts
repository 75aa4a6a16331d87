import { describe, expect, it } from 'vitest';
import { foreignLinkOrigin } from './link-origin.ts';

describe('foreignLinkOrigin (issue 28 item 10)', () => {
  it('names the links’ origin when the cabinet was opened at another one', () => {
    expect(foreignLinkOrigin(['http://localhost:8000/r/abc'], 'http://192.168.1.20:8000')).toBe(
      'http://localhost:8000',
    );
    // Another port or scheme is another address too.
    expect(foreignLinkOrigin(['http://emolens.example:8000/r/abc'], 'https://emolens.example')).toBe(
      'http://emolens.example:8000',
    );
  });

  it('says nothing when the links are on the cabinet’s origin, written any way', () => {
    expect(foreignLinkOrigin(['https://Emolens.Example:443/r/abc'], 'https://emolens.example')).toBeNull();
    expect(foreignLinkOrigin([], 'http://localhost:8000')).toBeNull();
    expect(foreignLinkOrigin(['not a link'], 'http://localhost:8000')).toBeNull();
  });
});
