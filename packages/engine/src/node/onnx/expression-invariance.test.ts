import { beforeAll, describe, expect, it } from 'vitest';
import { faceOnCanvas, PHOTOS, type PhotoRegion, requirePhotos, SAMPLES } from '../../../test/fixtures.ts';
import { type DetectedFace, frameData } from '../../face.ts';
import type { ExpressionInput, FaceEngine, RgbFrame } from '../../face-engine.ts';
import { EXPRESSIONS, type Expression, type FrameData } from '../../types.ts';
import { analyzeFrames } from '../analyze.ts';
import { probeVideo, type VideoInfo } from '../ffmpeg.ts';
import { createOnnxEngine } from './model.ts';

/**
 * The same face at three sizes, three places in a 640x480 frame and two bitrates must read the same.
 * Each face is a square region of a real photo (the face and some surroundings, ~1.3x its box), scaled
 * to 120, 200 or 400 pixels wide (the face itself ~90, ~150, ~300), put top-left, centred or
 * bottom-right on grey, and encoded as VP8 at 150 kbit/s and 2 Mbit/s: 18 versions of each face, each
 * read as the mean of its four frames.
 *
 * Measured with the aligned expression input (2026-11), largest spread of any of the seven scores across
 * the 18 versions: astronaut 0.000, the smiling faces of samples 1, 3 and 4 0.008, 0.012, 0.116, the
 * neutral face of sample 3 0.140, all with the same top expression everywhere; the borderline face of
 * sample 2 (neutral over sad) 0.414, reading sad at 120 px and 150 kbit/s. Human's own expression input
 * on the same videos: 0.005, 0.000, 0.075, 0.858 (sample 4's smile reads "sad" in some versions),
 * 0.249 (sample 2: 0.505 in a first trial on single frames). Faces whose top two scores are near each other everywhere (sample 1's
 * first person: happy, neutral, sad all ~0.4) cannot have a stable top expression and are not used.
 */
const TOLERANCE = 0.2;
const BORDERLINE_TOLERANCE = 0.45;

/** `expected` null: a borderline face (its two top scores close), whose scores are held to the tolerance only. */
const FACES: { name: string; photo: string; region: PhotoRegion; expected: Expression | null }[] = [
  { name: 'astronaut', photo: PHOTOS.astronaut, region: { x: 130, y: 10, width: 300, height: 300 }, expected: 'happy' },
  {
    name: 's1-right',
    photo: SAMPLES[0] as string,
    region: { x: 1392, y: 147, width: 361, height: 361 },
    expected: 'happy',
  },
  {
    name: 's3-right',
    photo: SAMPLES[2] as string,
    region: { x: 942, y: 132, width: 480, height: 480 },
    expected: 'happy',
  },
  {
    name: 's4-right',
    photo: SAMPLES[3] as string,
    region: { x: 1171, y: 90, width: 395, height: 395 },
    expected: 'happy',
  },
  {
    name: 's3-left',
    photo: SAMPLES[2] as string,
    region: { x: 462, y: 242, width: 467, height: 467 },
    expected: 'neutral',
  },
  {
    name: 's2-right',
    photo: SAMPLES[1] as string,
    region: { x: 1325, y: 54, width: 450, height: 450 },
    // Neutral over sad, narrowly: at 120 px and 150 kbit/s its mean reads sad 0.50, neutral 0.47.
    expected: null,
  },
];
const WIDTHS = [120, 200, 400];
const BITRATES = ['150k', '2M'];
const places = (w: number) => [
  [10, 10],
  [(640 - w) / 2, (480 - w) / 2],
  [630 - w, 470 - w],
];

const engines = {} as Record<ExpressionInput, FaceEngine>;
beforeAll(async () => {
  requirePhotos();
  engines.aligned = await createOnnxEngine({ expressionInput: 'aligned' });
  engines.human = await createOnnxEngine({ expressionInput: 'human' });
}, 120_000);

/**
 * Both expression inputs on each decoded frame, so a clip is probed and decoded once (ffmpeg's start and decode
 * cost more than the four frames' models): `detect` answers with the aligned engine's faces, which the analysis
 * reads as usual, and keeps the human engine's faces of the same frame, which are read as the analysis reads them.
 */
class BothInputs implements FaceEngine {
  readonly runtime = 'onnxruntime-node';
  human: { faces: DetectedFace[]; size: { width: number; height: number } }[] = [];
  async detect(frame: RgbFrame): Promise<DetectedFace[]> {
    this.human.push({ faces: await engines.human.detect(frame), size: { width: frame.width, height: frame.height } });
    return engines.aligned.detect(frame);
  }
  reset(): void {
    engines.aligned.reset();
    engines.human.reset();
  }
}

/** The mean scores of a clip's frames, as the engine's smoothed series would read a still face. */
function meanScores(frames: FrameData[], what: string): Record<Expression, number> {
  // A single frame of a borderline face flips with the codec's noise from one frame to the next.
  const sum = Object.fromEntries(EXPRESSIONS.map((e) => [e, 0])) as Record<Expression, number>;
  let n = 0;
  for (const frame of frames) {
    if (!frame.face) continue;
    for (const e of EXPRESSIONS) sum[e] += frame.face.expressions[e];
    n++;
  }
  expect(n, `${what}: frames with a face`).toBe(4);
  return Object.fromEntries(EXPRESSIONS.map((e) => [e, sum[e] / n])) as Record<Expression, number>;
}

/** The main face's mean scores in each version of a face, with each expression input. */
async function versions(face: (typeof FACES)[number]): Promise<Record<ExpressionInput, Record<Expression, number>[]>> {
  const out: Record<ExpressionInput, Record<Expression, number>[]> = { aligned: [], human: [] };
  let info: VideoInfo | undefined;
  for (const width of WIDTHS) {
    for (const [p, [left, top]] of places(width).entries()) {
      for (const bitrate of BITRATES) {
        const file = faceOnCanvas(face.photo, face.region, {
          width,
          left: Math.round(left as number),
          top: Math.max(0, Math.round(top as number)),
          bitrate,
          name: `invariance-${face.name}-${width}-${p}-${bitrate}.webm`,
        });
        // Every version is made by the same ffmpeg command (640x480, 10 fps, 1 s): probed once per face.
        info ??= await probeVideo(file);
        const both = new BothInputs();
        const aligned: FrameData[] = [];
        for await (const frame of analyzeFrames(file, { human: both, fps: 4, info })) aligned.push(frame);
        const human = both.human.map(({ faces, size }, i) =>
          frameData(i, 0, faces, 0.5, { multiFace: false, keepLandmarks: false, frameSize: size }),
        );
        const what = `${face.name} ${width}px place ${p} ${bitrate}`;
        out.aligned.push(meanScores(aligned, what));
        out.human.push(meanScores(human, `${what} (human input)`));
      }
    }
  }
  return out;
}

const top = (e: Record<Expression, number>) => EXPRESSIONS.reduce((a, b) => (e[a] >= e[b] ? a : b));
const spread = (all: Record<Expression, number>[]) =>
  Math.max(...EXPRESSIONS.map((e) => Math.max(...all.map((s) => s[e])) - Math.min(...all.map((s) => s[e]))));

describe('expressions hold under size, place and compression (aligned expression input)', () => {
  let alignedTotal = 0;
  let humanTotal = 0;
  for (const face of FACES) {
    const what = face.expected ? `the same top expression (${face.expected}) and scores` : 'scores';
    const tolerance = face.expected ? TOLERANCE : BORDERLINE_TOLERANCE;
    it(`${face.name}: ${what} within ${tolerance} in all 18 versions`, async () => {
      const { aligned, human } = await versions(face);
      expect(aligned).toHaveLength(18);
      if (face.expected) expect(aligned.map(top)).toEqual(Array(18).fill(face.expected));
      expect(spread(aligned)).toBeLessThanOrEqual(tolerance);
      alignedTotal += spread(aligned);
      humanTotal += spread(human);
    }, 300_000);
  }

  it('varies less than Human’s own expression input on the same videos', () => {
    expect(alignedTotal).toBeGreaterThan(0);
    expect(alignedTotal).toBeLessThan(humanTotal / 2);
  });
});
