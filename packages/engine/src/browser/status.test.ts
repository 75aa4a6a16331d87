import { describe, expect, it } from 'vitest';
import { DARK_LUMA } from '../face.ts';
import { faceCheckStatus, RateMeter, rgbaBrightness } from './status.ts';

describe('faceCheckStatus', () => {
  it('is ok without flags and tells darkness, then the face count, then the pose', () => {
    expect(faceCheckStatus([])).toBe('ok');
    expect(faceCheckStatus(['head_turned'])).toBe('head_turned');
    expect(faceCheckStatus(['head_turned', 'several_faces'])).toBe('several_faces');
    expect(faceCheckStatus(['no_face', 'too_dark'])).toBe('too_dark');
    expect(faceCheckStatus(['no_face'])).toBe('no_face');
  });
});

describe('rgbaBrightness', () => {
  it('ignores alpha and weighs channels like the recording analysis', () => {
    const pixels = (r: number, g: number, b: number, a = 255) =>
      Uint8ClampedArray.from({ length: 16 }, (_, i) => [r, g, b, a][i % 4] ?? 0);
    expect(rgbaBrightness(pixels(255, 255, 255, 0), 2, 2)).toBeCloseTo(1, 6);
    expect(rgbaBrightness(pixels(0, 255, 0), 2, 2)).toBeCloseTo(0.587, 3);
    expect(rgbaBrightness(pixels(20, 20, 20), 2, 2)).toBeLessThan(DARK_LUMA);
  });
});

describe('RateMeter', () => {
  it('counts checks per second over its window', () => {
    const meter = new RateMeter(1000);
    expect(meter.tick(0)).toBe(0);
    for (let t = 100; t <= 900; t += 100) meter.tick(t);
    expect(meter.tick(1000)).toBeCloseTo(10, 6);
    // After a pause only the recent checks count.
    meter.tick(5000);
    expect(meter.tick(5050)).toBeCloseTo(20, 6);
  });
});
