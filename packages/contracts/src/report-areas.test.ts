import { describe, expect, it } from 'vitest';
import { parseMessage } from './messages.ts';
import { reportAreasInput } from './report-areas.ts';

describe('PUT report areas: the flat rectangle sent before shapes', () => {
  it('is taken as a rectangle shape, standing still, with its window', () => {
    const parsed = reportAreasInput.parse({
      areas: [
        { item: 1, name: ' Logo ', x: 0.1, y: 0.2, width: 0.3, height: 0.4 },
        { item: 0, name: 'Ball', x: 0.5, y: 0.5, width: 0.25, height: 0.25, from: 2, to: 6.5 },
      ],
    });
    expect(parsed.areas).toEqual([
      {
        item: 1,
        name: 'Logo',
        shape: { kind: 'rectangle', x: 0.1, y: 0.2, width: 0.3, height: 0.4 },
        key_frames: [],
        from: null,
        to: null,
      },
      {
        item: 0,
        name: 'Ball',
        shape: { kind: 'rectangle', x: 0.5, y: 0.5, width: 0.25, height: 0.25 },
        key_frames: [],
        from: 2,
        to: 6.5,
      },
    ]);
  });

  it('sits beside the shape form in one body', () => {
    const shaped = {
      item: 0,
      name: 'Tri',
      shape: {
        kind: 'polygon',
        points: [
          { x: 0.1, y: 0.1 },
          { x: 0.5, y: 0.1 },
          { x: 0.3, y: 0.6 },
        ],
      },
    };
    const parsed = reportAreasInput.parse({ areas: [shaped, { item: 0, name: 'R', x: 0, y: 0, width: 1, height: 1 }] });
    expect(parsed.areas.map((a) => a.shape.kind)).toEqual(['polygon', 'rectangle']);
  });

  it('is still checked: outside the item, a bad window, unknown keys and a half shape are refused', () => {
    const refused = (area: object) => !reportAreasInput.safeParse({ areas: [area] }).success;
    const flat = { item: 0, name: 'R', x: 0.5, y: 0.5, width: 0.25, height: 0.25 };
    expect(refused(flat)).toBe(false);
    expect(refused({ ...flat, width: 0.6 })).toBe(true);
    expect(refused({ ...flat, width: 0 })).toBe(true);
    expect(refused({ ...flat, from: 5, to: 3 })).toBe(true);
    expect(refused({ ...flat, colour: 'red' })).toBe(true);
    expect(refused({ ...flat, shape: { kind: 'rectangle', x: 0, y: 0, width: 1, height: 1 } })).toBe(true);
    const { height: _, ...noHeight } = flat;
    expect(refused(noHeight)).toBe(true);
  });

  it("keeps the shape form's own messages where they belong", () => {
    const result = reportAreasInput.safeParse({
      areas: [{ item: 0, name: 'R', shape: { kind: 'rectangle', x: 0.9, y: 0, width: 0.5, height: 0.5 } }],
    });
    expect(result.error?.issues.map((i) => [i.path.join('.'), parseMessage(i.message)?.key])).toEqual([
      ['areas.0.shape.width', 'content.zoneOutside'],
    ]);
  });
});
