import { describe, expect, it } from 'vitest';
import { STALLING_CAMERA, stallingCameraWebm } from '../../test/fixtures.ts';
import { decodeFrames, probeVideo } from './ffmpeg.ts';

/** The time a frame of the stalling camera was filmed at, read from its grey (RGB of luma 16 + 100 · t). */
const filmedAt = (data: Uint8Array) => (data[0] ?? 0) / 1.164 / 100;

async function decode(range?: { start: number; duration: number }): Promise<{ time: number; filmed: number }[]> {
  const file = stallingCameraWebm();
  const info = await probeVideo(file);
  const frames: { time: number; filmed: number }[] = [];
  for await (const f of decodeFrames(file, { fps: 10, width: 64, height: 48, startTime: info.startTime, range })) {
    frames.push({ time: f.time - info.startTime, filmed: filmedAt(f.data) });
  }
  return frames;
}

describe('decoding at a fixed rate', () => {
  it('gives each frame the time it was filmed at, on a camera with a variable frame rate', async () => {
    const frames = await decode();
    expect(frames.length).toBeGreaterThanOrEqual(20);
    // Each frame shows the last picture filmed by its time (ffmpeg takes the nearest: up to half a step later).
    for (const f of frames) expect(f.filmed, `frame at ${f.time} s`).toBeLessThanOrEqual(f.time + 0.05 + 0.02);
  });

  it('keeps the times of a stretch that starts while the camera stalls (no frame at its start)', async () => {
    const { gap } = STALLING_CAMERA;
    const frames = await decode({ start: gap.from, duration: 0.8 });
    expect(frames[0]?.time).toBeCloseTo(gap.from, 3);
    for (const f of frames) {
      // Neither a picture filmed after the frame's time (the stretch shifted to its first picture) …
      expect(f.filmed, `frame at ${f.time} s`).toBeLessThanOrEqual(f.time + 0.05 + 0.02);
      // … nor one older than the stall: until the camera films again, the last picture before it.
      expect(f.filmed, `frame at ${f.time} s`).toBeGreaterThan(gap.from - 0.1);
    }
    const stalled = frames.filter((f) => f.time < gap.to);
    expect(stalled.length).toBeGreaterThanOrEqual(4);
    expect(stalled.every((f) => f.filmed < gap.from)).toBe(true);
    expect(frames.at(-1)?.filmed).toBeGreaterThan(gap.to);
  });
});
