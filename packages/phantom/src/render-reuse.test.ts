import { describe, expect, it } from 'vitest';
import { blank } from './image.ts';
import { preparePhantom, renderFrame } from './render.ts';
import { parseScript, type ScriptInput } from './script.ts';

/**
 * A frame whose control points did not move starts from the last frame's warp (render.ts `warped`): the picture must
 * be the one a fresh phantom draws for that frame, both when the warp is reused (only the eyes moved) and when it
 * is not (the head turned, a smile began).
 */
const script: ScriptInput = {
  name: 'reuse',
  description: 'eyes sweeping across the screen over a still head, then a turn and a smile',
  source: 'astronaut',
  durationMs: 1000,
  gaze: [
    {
      kind: 'pursuit',
      startMs: 0,
      endMs: 1000,
      path: [
        { x: 100, y: 300 },
        { x: 1800, y: 700 },
      ],
    },
  ],
  pose: [
    { t: 0, yaw: 0 },
    { t: 500, yaw: 0 },
    { t: 1000, yaw: 12 },
  ],
  expressions: [{ kind: 'smile', intensity: 1, onsetMs: 600, apexMs: 900, offsetMs: 950, endMs: 1000 }],
};

async function drawn(frames: readonly number[]) {
  const phantom = await preparePhantom(parseScript(script));
  const out = blank(640, 480);
  for (const i of frames) renderFrame(phantom, i, out);
  return { out, phantom };
}

describe('reusing the warp of a still head', () => {
  it('gives the picture a fresh phantom draws, whether the points stayed or moved', async () => {
    // Frames 0–9 (0–300 ms): only the eyes move; frame 10 the same; 27 (900 ms) turned and smiling.
    const warm = await drawn([0, 5, 9]);
    const reusedPoints = warm.phantom.warped?.points;
    const { out: fresh10 } = await drawn([10]);
    const { out: fresh27 } = await drawn([27]);
    const { out: again10 } = await drawn([9, 10]);
    expect(Buffer.compare(Buffer.from(again10.data), Buffer.from(fresh10.data))).toBe(0);
    // The eyes did move between frames 9 and 10: the two pictures differ somewhere.
    const { out: only9 } = await drawn([9]);
    expect(Buffer.compare(Buffer.from(only9.data), Buffer.from(fresh10.data))).not.toBe(0);
    renderFrame(warm.phantom, 10, warm.out);
    expect(warm.phantom.warped?.points).toBe(reusedPoints);
    expect(Buffer.compare(Buffer.from(warm.out.data), Buffer.from(fresh10.data))).toBe(0);
    // Turned and smiling: warped anew, not the kept picture.
    renderFrame(warm.phantom, 27, warm.out);
    expect(warm.phantom.warped?.points).not.toBe(reusedPoints);
    expect(Buffer.compare(Buffer.from(warm.out.data), Buffer.from(fresh27.data))).toBe(0);
  }, 60_000);

  it('warps again only the box of the triangles that moved (a blink on a still head), to the same picture', async () => {
    // A hand over the mouth throughout: outside the blinking eyes' box the kept warp, not the last frame's canvas
    // (with the hand painted on it), must be what the hand is painted over again.
    const blinking = parseScript({
      ...script,
      name: 'reuse-blink',
      pose: [{ t: 0, yaw: 0 }],
      expressions: [],
      blinks: [{ startMs: 200, durationMs: 150 }],
      occlusions: [{ region: 'mouth', startMs: 0, endMs: 1000 }],
    });
    const warm = await preparePhantom(blinking);
    const out = blank(640, 480);
    for (const i of [0, 5, 6, 7, 8, 9, 10, 12, 20]) {
      renderFrame(warm, i, out);
      const fresh = await preparePhantom(blinking);
      const alone = blank(640, 480);
      renderFrame(fresh, i, alone);
      expect(Buffer.compare(Buffer.from(out.data), Buffer.from(alone.data)), `frame ${i}`).toBe(0);
    }
  }, 60_000);
});
