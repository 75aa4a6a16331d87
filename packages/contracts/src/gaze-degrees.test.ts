import { describe, expect, it } from 'vitest';
import { CSS_PX_MM, pxToDegrees, roundedDegrees } from './gaze-degrees.ts';

describe('pxToDegrees', () => {
  it('a CSS px is 0.2646 mm (96 to the inch)', () => {
    expect(CSS_PX_MM).toBeCloseTo(0.26458, 5);
  });

  it('1 cm seen from 60 cm is 0.955° (as the validation converts)', () => {
    expect(pxToDegrees(10 / CSS_PX_MM, 60)).toBeCloseTo(0.9548, 4);
    // The validation's laptop screen: 34.5 cm over 1280 CSS px.
    expect(pxToDegrees(1280 / 34.5, 60, 345 / 1280)).toBeCloseTo(0.9548, 4);
  });

  it('the same error is more degrees nearer the screen', () => {
    const near = pxToDegrees(50, 40) as number;
    const far = pxToDegrees(50, 80) as number;
    expect(near).toBeGreaterThan(far);
    expect(near / far).toBeCloseTo(2, 1);
  });

  it('is null without a distance or an accuracy, or with nonsense', () => {
    expect(pxToDegrees(null, 60)).toBeNull();
    expect(pxToDegrees(40, null)).toBeNull();
    expect(pxToDegrees(40, undefined)).toBeNull();
    expect(pxToDegrees(40, 0)).toBeNull();
    expect(pxToDegrees(Number.NaN, 60)).toBeNull();
    expect(pxToDegrees(-1, 60)).toBeNull();
    expect(pxToDegrees(0, 60)).toBe(0);
  });

  it('rounds to two decimals', () => {
    expect(roundedDegrees(1.23456)).toBe(1.23);
    expect(roundedDegrees(null)).toBeNull();
  });
});
