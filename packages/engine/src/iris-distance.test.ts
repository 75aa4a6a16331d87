import { describe, expect, it } from 'vitest';
import { distanceFromIris, focalLengthPx, IRIS_DIAMETER_MM, irisDiameterPx } from './iris-distance.ts';

/** 478 landmarks with both irises drawn as circles of `radius` (each eye's centre, right, top, left, bottom). */
function landmarksWith(radius: [number, number], squash: [number, number] = [1, 1]): [number, number, number][] {
  const points: [number, number, number][] = Array.from({ length: 478 }, () => [0, 0, 0]);
  const centres: [number, number][] = [
    [200, 240],
    [280, 240],
  ];
  for (let k = 0; k < 2; k++) {
    const [cx, cy] = centres[k] as [number, number];
    const r = radius[k] as number;
    const base = 468 + 5 * k;
    points[base] = [cx, cy, 0];
    points[base + 1] = [cx + r * (squash[0] ?? 1), cy, 0];
    points[base + 2] = [cx, cy - r * (squash[1] ?? 1), 0];
    points[base + 3] = [cx - r * (squash[0] ?? 1), cy, 0];
    points[base + 4] = [cx, cy + r * (squash[1] ?? 1), 0];
  }
  return points;
}

describe('irisDiameterPx', () => {
  it('averages the two eyes', () => {
    expect(irisDiameterPx(landmarksWith([10, 12]))).toBeCloseTo(22, 9);
  });

  it('takes the larger extent of each eye: a turned head narrows one axis only', () => {
    expect(irisDiameterPx(landmarksWith([10, 10], [0.7, 1]))).toBeCloseTo(20, 9);
    expect(irisDiameterPx(landmarksWith([10, 10], [1, 0.6]))).toBeCloseTo(20, 9);
  });

  it('is null without iris landmarks or below the measurable size', () => {
    expect(irisDiameterPx(landmarksWith([10, 10]).slice(0, 468))).toBeNull();
    expect(irisDiameterPx(landmarksWith([1, 1]))).toBeNull();
  });
});

describe('distanceFromIris', () => {
  it('focal length of a 640 px frame at 60° horizontal is 554 px', () => {
    expect(focalLengthPx(640, 60)).toBeCloseTo(554.26, 2);
    expect(focalLengthPx(640, 90)).toBeCloseTo(320, 9);
  });

  it('inverts the pinhole camera: an iris drawn at d cm is found at d cm', () => {
    const f = focalLengthPx(640, 60);
    for (const cm of [40, 60, 80]) {
      const px = (f * IRIS_DIAMETER_MM) / (cm * 10);
      const estimate = distanceFromIris(Array(20).fill(px), 640);
      expect(estimate?.cm).toBeCloseTo(cm, 9);
      expect(estimate?.frames).toBe(20);
    }
  });

  it('does not depend on the frame being scaled: iris and width scale together', () => {
    const a = distanceFromIris(Array(12).fill(20), 640);
    const b = distanceFromIris(Array(12).fill(40), 1280);
    expect(a?.cm).toBeCloseTo(b?.cm as number, 9);
  });

  it('takes the median, so blinks and misread frames move it little', () => {
    const sizes = [...Array(15).fill(20), 5, 6, 60, 70, null, null];
    const estimate = distanceFromIris(sizes, 640);
    expect(estimate?.irisPx).toBe(20);
    expect(estimate?.frames).toBe(19);
  });

  it('a wider assumed field of view means a shorter focal length, so a nearer face', () => {
    const narrow = distanceFromIris(Array(12).fill(20), 640, { fovDegrees: 50 });
    const wide = distanceFromIris(Array(12).fill(20), 640, { fovDegrees: 70 });
    expect(wide?.cm as number).toBeLessThan(narrow?.cm as number);
    expect(wide?.fovDegrees).toBe(70);
  });

  it('is null with too few measured frames or no frame width', () => {
    expect(distanceFromIris([...Array(9).fill(20), null, null], 640)).toBeNull();
    expect(distanceFromIris(Array(20).fill(20), 0)).toBeNull();
  });
});
