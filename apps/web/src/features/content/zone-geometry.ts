import { type Point, type ShelfZone, zoneDescriptionKey } from '@emolens/contracts';

/** Where a zone lies on its image: fractions (0–1) of the image's width and height. */
export type Rect = Pick<ShelfZone, 'x' | 'y' | 'width' | 'height'>;

export const round4 = (value: number) => Math.round(value * 10_000) / 10_000;
export const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

/** The rectangle between two points of a drag, as fractions clamped to the image and rounded to 4 decimals. */
export function rectBetween(a: Point, b: Point): Rect {
  const x = round4(clamp01(Math.min(a.x, b.x)));
  const y = round4(clamp01(Math.min(a.y, b.y)));
  const width = Math.min(round4(clamp01(Math.max(a.x, b.x)) - x), round4(1 - x));
  const height = Math.min(round4(clamp01(Math.max(a.y, b.y)) - y), round4(1 - y));
  return { x, y, width: Math.max(0, width), height: Math.max(0, height) };
}

/** The smallest zone under a point (so that a zone drawn inside another stays reachable), or null. */
export function zoneAt(zones: readonly Rect[], point: Point): number | null {
  let best: number | null = null;
  let bestArea = Number.POSITIVE_INFINITY;
  zones.forEach((zone, i) => {
    const inside =
      point.x >= zone.x && point.x <= zone.x + zone.width && point.y >= zone.y && point.y <= zone.y + zone.height;
    if (inside && zone.width * zone.height < bestArea) {
      best = i;
      bestArea = zone.width * zone.height;
    }
  });
  return best;
}

/**
 * Indices of the zones whose description repeats an earlier one's, compared as the contract does
 * (`zoneDescriptionKey`), which is also where the contract puts its message.
 */
export function repeatedDescriptions(zones: readonly Pick<ShelfZone, 'description'>[]): Set<number> {
  const seen = new Set<string>();
  const repeated = new Set<number>();
  zones.forEach((zone, i) => {
    const key = zoneDescriptionKey(zone.description);
    if (key === '') return;
    if (seen.has(key)) repeated.add(i);
    seen.add(key);
  });
  return repeated;
}

/** Whether `description` repeats the description of one of `zones` (a zone about to be added). */
export function repeatsDescription(zones: readonly Pick<ShelfZone, 'description'>[], description: string): boolean {
  const key = zoneDescriptionKey(description);
  return key !== '' && zones.some((zone) => zoneDescriptionKey(zone.description) === key);
}
