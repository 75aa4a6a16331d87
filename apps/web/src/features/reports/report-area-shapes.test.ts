import { describe, expect, it } from 'vitest';
import { moveShape, withKeyFrame } from './report-area-shapes.ts';

describe('drawing a moving area', () => {
  const rect = { kind: 'rectangle' as const, x: 0.1, y: 0.1, width: 0.2, height: 0.3 };
  it('a dragged shape moves with the pointer and stops at the item’s edges', () => {
    expect(moveShape(rect, 0.2, 0.1)).toEqual({ ...rect, x: 0.3, y: 0.2 });
    expect(moveShape(rect, 2, -1)).toEqual({ ...rect, x: 0.8, y: 0 });
    const tri = {
      kind: 'polygon' as const,
      points: [
        { x: 0.5, y: 0.5 },
        { x: 0.9, y: 0.5 },
        { x: 0.5, y: 0.8 },
      ],
    };
    expect(moveShape(tri, 0.5, 0)).toEqual({
      kind: 'polygon',
      points: [
        { x: 0.6, y: 0.5 },
        { x: 1, y: 0.5 },
        { x: 0.6, y: 0.8 },
      ],
    });
  });
  it('a key frame at a moment already set replaces it; the list stays in time order', () => {
    const moved = { ...rect, x: 0.5 };
    let frames = withKeyFrame([], { t: 3, shape: rect });
    frames = withKeyFrame(frames, { t: 1.04, shape: rect });
    frames = withKeyFrame(frames, { t: 3.01, shape: moved });
    expect(frames).toEqual([
      { t: 1, shape: rect },
      { t: 3, shape: moved },
    ]);
  });
});
