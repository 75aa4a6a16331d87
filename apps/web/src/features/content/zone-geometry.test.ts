import { shelfZoneSchema } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { formatDuration, secondsFromInput } from './content-form.tsx';
import { rectBetween, repeatedDescriptions, repeatsDescription, zoneAt } from './zone-geometry.ts';

describe('rectBetween', () => {
  it('is the same rectangle whichever corner the drag starts from', () => {
    const a = { x: 0.1, y: 0.2 };
    const b = { x: 0.4, y: 0.7 };
    expect(rectBetween(a, b)).toEqual({ x: 0.1, y: 0.2, width: 0.3, height: 0.5 });
    expect(rectBetween(b, a)).toEqual(rectBetween(a, b));
    expect(rectBetween({ x: 0.1, y: 0.7 }, { x: 0.4, y: 0.2 })).toEqual(rectBetween(a, b));
  });

  it('rounds to 4 decimals and stays inside the image', () => {
    const rect = rectBetween({ x: 0.123456, y: 0.98765 }, { x: 0.987654, y: 0.012345 });
    expect(rect).toEqual({ x: 0.1235, y: 0.0123, width: 0.8642, height: 0.9754 });
    for (const value of Object.values(rect)) expect(Number(value.toFixed(4))).toBe(value);
    const edge = rectBetween({ x: -0.3, y: 0.5 }, { x: 1.7, y: 1.2 });
    expect(edge).toEqual({ x: 0, y: 0.5, width: 1, height: 0.5 });
    expect(edge.x + edge.width).toBeLessThanOrEqual(1);
    expect(shelfZoneSchema.safeParse({ name: 'A', description: 'a', ...edge }).success).toBe(true);
  });

  it('never passes the right or bottom edge after rounding', () => {
    for (let i = 0; i < 200; i++) {
      const a = { x: Math.random(), y: Math.random() };
      const rect = rectBetween(a, { x: 1, y: 1 });
      expect(rect.x + rect.width).toBeLessThanOrEqual(1.0001);
      expect(rect.y + rect.height).toBeLessThanOrEqual(1.0001);
    }
  });
});

describe('zoneAt', () => {
  const outer = { x: 0.1, y: 0.1, width: 0.8, height: 0.8 };
  const inner = { x: 0.4, y: 0.4, width: 0.1, height: 0.1 };
  it('picks the smallest zone under the point, so that nested zones stay reachable', () => {
    expect(zoneAt([outer, inner], { x: 0.45, y: 0.45 })).toBe(1);
    expect(zoneAt([inner, outer], { x: 0.45, y: 0.45 })).toBe(0);
    expect(zoneAt([outer, inner], { x: 0.2, y: 0.2 })).toBe(0);
    expect(zoneAt([outer, inner], { x: 0.95, y: 0.05 })).toBeNull();
  });
});

describe('zone descriptions', () => {
  it('repeat as the contract compares them: case, spacing and letter forms do not count', () => {
    const zones = [
      { description: 'Brand A' },
      { description: '  brand   a ' },
      { description: 'Ｂrand A' },
      { description: 'B' },
    ];
    expect([...repeatedDescriptions(zones)]).toEqual([1, 2]);
    expect(repeatsDescription(zones, 'BRAND a')).toBe(true);
    expect(repeatsDescription(zones, 'Brand C')).toBe(false);
    expect(repeatsDescription(zones, '   ')).toBe(false);
  });

  it('ignore empty descriptions (those are refused as missing instead)', () => {
    expect(repeatedDescriptions([{ description: '' }, { description: ' ' }]).size).toBe(0);
  });
});

describe('durations', () => {
  const t = (key: string, options?: Record<string, unknown>) =>
    `${options?.value}${key.slice('units.'.length, 'units.'.length + 1)}`;
  it('read as hours, minutes and seconds', () => {
    expect(formatDuration(80, t)).toBe('1m 20s');
    expect(formatDuration(0, t)).toBe('0s');
    expect(formatDuration(600, t)).toBe('10m');
    expect(formatDuration(3725, t)).toBe('1h 2m 5s');
  });

  it('keep an empty input as a missing value', () => {
    expect(secondsFromInput('')).toBeNaN();
    expect(secondsFromInput(' 12 ')).toBe(12);
    expect(secondsFromInput(7)).toBe(7);
  });
});
