import { describe, expect, it } from 'vitest';
import { PHOTOS, photoFrame, requirePhotos } from '../../test/fixtures.ts';
import { toFaceData } from '../face.ts';
import { eyeClosures } from '../motion.ts';
import { gaussian, prng } from '../random.ts';
import { lightFactor } from './analyze.ts';
import { createOnnxEngine } from './onnx/model.ts';
import { researchEyes } from './session-eyes.ts';
import { DEFAULT_GAZE_FPS } from './session-gaze.ts';

const OPEN = 0.3;
/** How far the engine's eye aspect ratio falls, as a share of the open one, with the lids shut. */
const SHUT = 0.45;

/**
 * A 120 ms blink's eye aspect ratio at `ms`: down in 40 ms, up in 80, as the engine reads a shut eye (its mesh's lids
 * never meet: 0.40–0.53 of the open ratio on the phantoms), under 0.8 of the open ratio for about 50 ms.
 */
function blinkEar(ms: number, starts: number[]): number {
  let closure = 0;
  for (const s of starts) {
    const x = ms - s;
    if (x <= 0 || x >= 120) continue;
    closure = Math.max(closure, x < 40 ? x / 40 : (120 - x) / 80);
  }
  return OPEN * (1 - SHUT * closure);
}

/** `seconds` of eye aspect ratios at `fps`, with landmark jitter (σ `noise` of the open ratio; 0.02 on the phantoms). */
function series(seconds: number, fps: number, starts: number[], noise = 0.02, seed = 1) {
  const rand = prng(seed);
  const ms = Array.from({ length: Math.round(seconds * fps) }, (_, i) => (1000 * i) / fps);
  return { ms, ear: ms.map((t) => blinkEar(t, starts) * (1 + noise * gaussian(rand))) };
}

const fullFrames = (seconds: number) => Array.from({ length: seconds * 10 }, (_, i) => i * 100);

describe('blinks from the eyes at the recording rate', () => {
  // Six blinks, each placed so that no 10 fps frame falls in its most shut 50 ms.
  const starts = [1005, 2405, 3805, 5205, 6605, 8005];

  it('finds every short blink at 30 fps that 10 fps frames miss, at the full frame before its start', () => {
    const eyes = series(10, 30, starts);
    const frames = fullFrames(10);
    const found = researchEyes(
      eyes,
      0,
      10_000,
      frames,
      frames.map(() => null),
    );
    expect(found.closures.map((c) => c.blink)).toEqual(starts.map(() => true));
    const marked = frames.filter((_, i) => found.blinkStarts[i]);
    expect(marked).toEqual(starts.map((s) => 100 * Math.floor(s / 100)));
    // The same eyes read only at the full frames: not one blink.
    const at10 = eyes.ms.map((t, i) => (Math.round(t) % 100 === 0 ? i : -1)).filter((i) => i >= 0);
    const closure10 = at10.map((i) => 1 - (eyes.ear[i] as number) / OPEN);
    expect(
      eyeClosures(
        at10.map((i) => (eyes.ms[i] as number) / 1000),
        closure10,
      ),
    ).toEqual([]);
  });

  it('finds them at 15 fps too, and nothing in open eyes with jitter', () => {
    const found = researchEyes(
      series(10, 15, starts),
      0,
      10_000,
      fullFrames(10),
      fullFrames(10).map(() => null),
    );
    expect(found.closures.filter((c) => c.blink)).toHaveLength(6);
    for (const seed of [1, 2, 3]) {
      const quiet = researchEyes(
        series(60, 30, [], 0.04, seed),
        0,
        60_000,
        fullFrames(60),
        fullFrames(60).map(() => null),
      );
      expect(quiet.closures).toEqual([]);
      expect(quiet.blinksPerMinute).toBe(0);
    }
  });

  it('keeps to the research window, and flags eyes closed over 1 s on the full frames', () => {
    const eyes = series(10, 30, [1005, 8005]);
    // Eyes shut from 4.0 to 5.5 s.
    eyes.ms.forEach((t, i) => {
      if (t >= 4000 && t < 5500) eyes.ear[i] = OPEN * (1 - SHUT);
    });
    const frames = fullFrames(10).filter((t) => t >= 2000 && t < 9000);
    const found = researchEyes(
      eyes,
      2000,
      9000,
      frames,
      frames.map(() => null),
    );
    expect(found.closures.map((c) => c.blink)).toEqual([false, true]);
    expect(frames.filter((_, i) => found.blinkStarts[i])).toEqual([8000]);
    const closed = frames.filter((_, i) => found.distraction[i] === 'eyes_closed');
    expect(closed[0]).toBe(4000);
    expect(closed.at(-1)).toBe(5400);
    expect(closed).toHaveLength(15);
  });

  it('skips frames without a reading', () => {
    const eyes = series(10, 30, starts);
    // No face for the third blink.
    eyes.ms.forEach((t, i) => {
      if (t > 3700 && t < 4100) eyes.ear[i] = Number.NaN;
    });
    const found = researchEyes(
      eyes,
      0,
      10_000,
      fullFrames(10),
      fullFrames(10).map(() => null),
    );
    expect(found.closures.map((c) => Math.round(c.start * 1000))).toHaveLength(5);
  });
});

describe('the decoding rate for light frames', () => {
  const info = (fps: number | null) => ({
    width: 640,
    height: 480,
    durationSeconds: 10,
    fps,
    codec: 'vp8',
    startTime: 0,
  });
  const sampling = { fps: 10, width: 640, height: 480 };

  it('reads the eyes at the source rate up to the gaze rate, a whole number of frames per full frame', () => {
    expect(DEFAULT_GAZE_FPS).toBe(30);
    expect(lightFactor(sampling, info(30), DEFAULT_GAZE_FPS)).toBe(3);
    expect(lightFactor(sampling, info(29.97), DEFAULT_GAZE_FPS)).toBe(3);
    // 15 fps decoded at 20: every source frame is seen, the repeats are skipped.
    expect(lightFactor(sampling, info(15), DEFAULT_GAZE_FPS)).toBe(2);
    expect(lightFactor(sampling, info(60), DEFAULT_GAZE_FPS)).toBe(3);
    expect(lightFactor(sampling, info(30), 20)).toBe(2);
    // The source's rate unknown (a streamed webm): the gaze rate.
    expect(lightFactor(sampling, info(null), DEFAULT_GAZE_FPS)).toBe(3);
    expect(lightFactor(sampling, info(null), 20)).toBe(2);
  });

  it('adds none at or below the rate of the full frames, or when not asked', () => {
    expect(lightFactor(sampling, info(10), DEFAULT_GAZE_FPS)).toBe(1);
    expect(lightFactor(sampling, info(8), DEFAULT_GAZE_FPS)).toBe(1);
    expect(lightFactor({ ...sampling, fps: 30 }, info(30), DEFAULT_GAZE_FPS)).toBe(1);
    expect(lightFactor(sampling, info(30), undefined)).toBe(1);
  });
});

describe('a light frame', () => {
  it('gives the tracked face its mesh and iris, the same as a full frame, without expressions or the detector', async () => {
    requirePhotos();
    const engine = await createOnnxEngine();
    const frame = photoFrame(PHOTOS.astronaut, 640);
    // Nothing tracked yet: a light frame does not look for faces.
    expect(await engine.detect(frame, { light: true })).toEqual([]);
    const [full] = await engine.detect(frame);
    const [light] = await engine.detect(frame, { light: true });
    expect(full?.emotion?.length).toBeGreaterThan(0);
    expect(light?.emotion).toBeUndefined();
    expect(light?.mesh).toHaveLength(478);
    // The same picture, the box carried from the full frame's mesh: the same eyes within a pixel.
    const ear = (f: typeof full) => (f ? toFaceData(f).actionUnits?.eyeAspectRatio : undefined);
    expect(ear(light)).toBeCloseTo(ear(full) as number, 1);
    const eyePoints = [33, 133, 159, 145, 263, 362, 386, 374, 468, 473];
    for (const i of eyePoints) {
      expect(Math.abs((light?.mesh[i]?.[0] ?? 0) - (full?.mesh[i]?.[0] ?? 0))).toBeLessThanOrEqual(1.5);
      expect(Math.abs((light?.mesh[i]?.[1] ?? 0) - (full?.mesh[i]?.[1] ?? 0))).toBeLessThanOrEqual(1.5);
    }
  }, 60_000);
});
