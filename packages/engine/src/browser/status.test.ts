import { describe, expect, it } from 'vitest';
import { DARK_LUMA, SMALL_FACE_PX } from '../face.ts';
import { FACE_SIZE_SHARE, faceCheckStatus, faceDistance, RateMeter, rgbaBrightness } from './status.ts';

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

describe('faceDistance', () => {
  const frame = { width: 640, height: 480 };
  const box = (size: number) => ({ x: 100, y: 100, width: size, height: size });
  it('tells a face too far or too near by its share of the shorter side', () => {
    expect(faceDistance(box(130), frame)).toBe('ok');
    expect(faceDistance(box(FACE_SIZE_SHARE.far * 480 - 1), frame)).toBe('too_far');
    expect(faceDistance(box(FACE_SIZE_SHARE.far * 480 + 1), frame)).toBe('ok');
    expect(faceDistance(box(FACE_SIZE_SHARE.near * 480 + 1), frame)).toBe('too_near');
    expect(faceDistance(box(FACE_SIZE_SHARE.near * 480 - 1), frame)).toBe('ok');
  });
  it('reads a portrait frame by its shorter side too', () => {
    expect(faceDistance(box(300), { width: 480, height: 640 })).toBe('too_near');
    expect(faceDistance(box(130), { width: 480, height: 640 })).toBe('ok');
  });
  it("is too far below the analysis's smallest face whatever the frame", () => {
    expect(faceDistance(box(SMALL_FACE_PX - 1), { width: 320, height: 240 })).toBe('too_far');
    expect(faceDistance(box(SMALL_FACE_PX + 1), { width: 320, height: 240 })).toBe('ok');
  });
});
