import { describe, expect, it } from 'vitest';
import type { FaceBox, P2 } from './constants.ts';
import { confirmTracked, TRACK_RESIZE, TRACK_TURN } from './tracking.ts';

/** A square box of `side` centred on (cx, cy), its mouth-to-nose line turned by `turn` radians. */
function box(cx: number, cy: number, side: number, turn = 0, confidence = 0.9): FaceBox {
  const nose: P2 = [cx, cy];
  const mouth: P2 = [cx - Math.sin(turn) * 20, cy + Math.cos(turn) * 20];
  return {
    start: [cx - side / 2, cy - side / 2],
    end: [cx + side / 2, cy + side / 2],
    keypoints: [[cx - 15, cy - 10], nose, nose, mouth, [cx - 40, cy], [cx + 40, cy]],
    confidence,
  };
}

describe('confirmTracked', () => {
  it('keeps the tracked box of a face the detector finds unchanged, with the detection’s confidence', () => {
    const tracked = box(200, 150, 120, 0.3);
    // The same face as the detector boxes it: its centre 2 px off, its size 2 % larger, its turn 0.05 rad more.
    expect(confirmTracked([tracked], [box(202, 148, 122.4, 0.35, 0.97)])).toEqual([{ ...tracked, confidence: 0.97 }]);
  });

  it('takes the detection where the face came nearer, turned or moved', () => {
    const tracked = box(200, 150, 120);
    const nearer = box(200, 150, 120 * (1 + TRACK_RESIZE) + 2);
    const turned = box(200, 150, 120, TRACK_TURN + 0.02);
    const moved = box(230, 150, 120);
    for (const d of [nearer, turned, moved]) expect(confirmTracked([tracked], [d])).toEqual([d]);
  });

  it('measures a turn across ±180° the short way round', () => {
    const tracked = box(200, 150, 120, Math.PI - 0.02);
    expect(confirmTracked([tracked], [box(200, 150, 120, -Math.PI + 0.02)])).toEqual([tracked]);
  });

  it('starts a new face from its detection and drops a tracked face the detector no longer finds', () => {
    const lost = box(100, 100, 80);
    const other = box(400, 300, 90);
    expect(confirmTracked([lost], [other])).toEqual([other]);
    expect(confirmTracked([lost], [])).toEqual([]);
    expect(confirmTracked([], [other])).toEqual([other]);
  });
});
