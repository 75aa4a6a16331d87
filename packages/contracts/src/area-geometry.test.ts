import { describe, expect, it } from 'vitest';
import {
  type AreaShape,
  interpolateShape,
  isSimplePolygon,
  shapeAt,
  shapeBounds,
  shapeContains,
} from './area-geometry.ts';
import { parseMessage } from './messages.ts';
import { reportAreaInput } from './report-areas.ts';

const square: AreaShape = { kind: 'rectangle', x: 0, y: 0, width: 10, height: 10 };
const triangle: AreaShape = {
  kind: 'polygon',
  points: [
    { x: 0, y: 0 },
    { x: 10, y: 0 },
    { x: 0, y: 10 },
  ],
};
// A U: its notch (x 4..6, y 0..8) is outside.
const u: AreaShape = {
  kind: 'polygon',
  points: [
    { x: 0, y: 0 },
    { x: 4, y: 0 },
    { x: 4, y: 8 },
    { x: 6, y: 8 },
    { x: 6, y: 0 },
    { x: 10, y: 0 },
    { x: 10, y: 10 },
    { x: 0, y: 10 },
  ],
};

describe('point in a shape', () => {
  it('a rectangle holds its edges; a polygon by the even-odd rule, its edges and corners in, a notch out', () => {
    expect(shapeContains(square, 10, 10)).toBe(true);
    expect(shapeContains(square, 10.01, 5)).toBe(false);
    expect(shapeContains(triangle, 2, 2)).toBe(true);
    expect(shapeContains(triangle, 6, 6)).toBe(false);
    expect(shapeContains(triangle, 5, 5)).toBe(true); // on the slanted edge
    expect(shapeContains(triangle, 0, 10)).toBe(true); // a corner
    expect(shapeContains(u, 5, 4)).toBe(false);
    expect(shapeContains(u, 5, 9)).toBe(true);
    expect(shapeContains(u, 2, 4)).toBe(true);
    expect(shapeBounds(u)).toEqual({ x: 0, y: 0, width: 10, height: 10 });
  });

  it('a simple polygon: not crossing itself, with some area', () => {
    expect(isSimplePolygon(u.kind === 'polygon' ? u.points : [])).toBe(true);
    const bow = [
      { x: 0, y: 0 },
      { x: 10, y: 10 },
      { x: 10, y: 0 },
      { x: 0, y: 10 },
    ];
    expect(isSimplePolygon(bow)).toBe(false);
    expect(
      isSimplePolygon([
        { x: 0, y: 0 },
        { x: 5, y: 5 },
        { x: 10, y: 10 },
      ]),
    ).toBe(false);
  });
});

describe('a moving shape', () => {
  const moved: AreaShape = { kind: 'rectangle', x: 100, y: 50, width: 20, height: 10 };
  const area = {
    shape: square,
    key_frames: [
      { t: 2, shape: square },
      { t: 4, shape: moved },
    ],
  };
  it('is linear between key frames and held before the first and after the last', () => {
    expect(shapeAt(area, 0)).toEqual(square);
    expect(shapeAt(area, 3)).toEqual({ kind: 'rectangle', x: 50, y: 25, width: 15, height: 10 });
    expect(shapeAt(area, 3.5)).toEqual({ kind: 'rectangle', x: 75, y: 37.5, width: 17.5, height: 10 });
    expect(shapeAt(area, 9)).toEqual(moved);
    expect(shapeAt({ shape: square }, 3)).toEqual(square);
  });
  it('a polygon moves point by point', () => {
    const shifted = interpolateShape(
      triangle,
      {
        kind: 'polygon',
        points: triangle.kind === 'polygon' ? triangle.points.map((p) => ({ x: p.x + 10, y: p.y })) : [],
      },
      0.5,
    );
    expect(shifted).toEqual({
      kind: 'polygon',
      points: [
        { x: 5, y: 0 },
        { x: 15, y: 0 },
        { x: 5, y: 10 },
      ],
    });
  });
});

describe('an area as drawn (the contract)', () => {
  const base = { item: 0, name: 'Ball', shape: { kind: 'rectangle', x: 0.1, y: 0.1, width: 0.2, height: 0.2 } };
  const keys = (input: object) =>
    reportAreaInput.safeParse(input).error?.issues.map((i) => [i.path.join('.'), parseMessage(i.message)?.key]) ?? [];
  it('takes a rectangle, a polygon and moving key frames of one kind in time order', () => {
    expect(keys(base)).toEqual([]);
    const poly = {
      kind: 'polygon',
      points: [
        { x: 0.1, y: 0.1 },
        { x: 0.5, y: 0.1 },
        { x: 0.3, y: 0.6 },
      ],
    };
    expect(
      keys({
        ...base,
        shape: poly,
        key_frames: [
          { t: 0, shape: poly },
          { t: 1.5, shape: poly },
        ],
      }),
    ).toEqual([]);
  });
  it('refuses too few points, points outside, a crossing polygon, key frames out of order or of another shape', () => {
    expect(
      keys({
        ...base,
        shape: {
          kind: 'polygon',
          points: [
            { x: 0, y: 0 },
            { x: 1, y: 1 },
          ],
        },
      }),
    ).toEqual([['shape.points', 'report.areaPolygonPoints']]);
    expect(
      keys({
        ...base,
        shape: {
          kind: 'polygon',
          points: [
            { x: 0, y: 0 },
            { x: 1.2, y: 0 },
            { x: 0, y: 1 },
          ],
        },
      }),
    ).toEqual([['shape.points.1.x', 'validation.between']]);
    const bow = [
      { x: 0, y: 0 },
      { x: 1, y: 1 },
      { x: 1, y: 0 },
      { x: 0, y: 1 },
    ];
    expect(keys({ ...base, shape: { kind: 'polygon', points: bow } })).toEqual([
      ['shape.points', 'report.areaPolygonCrossing'],
    ]);
    expect(keys({ ...base, shape: { ...base.shape, x: 0.9 } })).toEqual([['shape.width', 'content.zoneOutside']]);
    const tri = {
      kind: 'polygon',
      points: [
        { x: 0, y: 0 },
        { x: 0.5, y: 0 },
        { x: 0, y: 0.5 },
      ],
    };
    expect(
      keys({
        ...base,
        key_frames: [
          { t: 2, shape: base.shape },
          { t: 1, shape: base.shape },
          { t: 3, shape: tri },
        ],
      }),
    ).toEqual([
      ['key_frames.1.t', 'report.areaKeyFrameOrder'],
      ['key_frames.2.shape', 'report.areaKeyFrameShape'],
    ]);
    expect(keys({ ...base, shape: { kind: 'circle' } })).toEqual([['shape.kind', 'validation.choice']]);
  });
});
