import { describe, expect, it } from 'vitest';
import { decodeFramesTable, encodeFrames, type FrameRow, framesTable, type GazeRow } from './frames-codec.ts';
import { MIN_PRECISION_PAIRS, storedGazePrecision, validationPrecision } from './gaze-precision.ts';
import type { SessionEvent } from './session-types.ts';

const research = { researchId: 'r1' };

/** A calibration of two training dots and two validation dots (2 s each, from 1 s), then the research at 10 s. */
function log(validation = true): SessionEvent[] {
  const dot = validation ? 'validation_dot' : 'calibration_dot';
  return [
    { type: 'screen', t: 0, width: 1600, height: 1200 },
    { type: 'calibration_start', t: 500 },
    { type: 'calibration_dot', t: 1000, x: 100, y: 100 },
    { type: 'calibration_dot', t: 3000, x: 1500, y: 100 },
    { type: 'calibration_end', t: 5000 },
    { type: dot, t: 5000, x: 800, y: 600 },
    { type: dot, t: 7000, x: 100, y: 1100 },
    { type: 'validation_end', t: 9000 },
    { type: 'research_start', t: 10_000, campaign_id: 'r1', index: 0 },
    { type: 'research_end', t: 20_000, campaign_id: 'r1' },
  ] as SessionEvent[];
}

/** Frames every 100 ms from 0 to 12 s; `at(ms)` gives the gaze (null: none). */
function frames(at: (ms: number, k: number) => { x: number; y: number } | null) {
  const time: number[] = [];
  const x: number[] = [];
  const y: number[] = [];
  for (let k = 0; k <= 120; k++) {
    const point = at(k * 100, k);
    time.push(k / 10);
    x.push(point?.x ?? Number.NaN);
    y.push(point?.y ?? Number.NaN);
  }
  return { time, x, y };
}

/** On each dot, 3 px either side of it in turn (6 px from sample to sample); elsewhere far away. */
const jitter = (ms: number, k: number) => {
  const side = k % 2 === 0 ? 3 : -3;
  if (ms >= 5000 && ms < 7000) return { x: 800 + side, y: 600 };
  if (ms >= 7000 && ms < 9000) return { x: 100, y: 1100 + side };
  return { x: (k * 397) % 1600, y: (k * 211) % 1200 };
};

describe('validationPrecision', () => {
  it('is the RMS of sample-to-sample distances on the validation dots after their settling time', () => {
    const p = validationPrecision(frames(jitter), log(), research);
    // Each dot: 5400..6900 and 7400..8900 ms are 16 samples, 15 pairs; the jump between the dots is not a pair.
    expect(p?.pairs).toBe(30);
    expect(p?.px).toBeCloseTo(6, 9);
    expect(p?.percentOfDiagonal).toBeCloseTo((6 / 2000) * 100, 9);
  });

  it('leaves out the eyes travelling to a dot, frames without gaze and the training dots', () => {
    const travel = frames((ms, k) => (ms >= 5000 && ms < 5400 ? { x: 0, y: 0 } : jitter(ms, k)));
    expect(validationPrecision(travel, log(), research)?.px).toBeCloseTo(6, 9);
    const gaps = frames((ms, k) => (k % 4 === 0 ? null : jitter(ms, k)));
    const p = validationPrecision(gaps, log(), research);
    expect(p?.px).toBeCloseTo(6, 9);
    expect(p?.pairs).toBeLessThan(30);
  });

  it('measures a wider spread as a larger figure (RMS, not mean)', () => {
    // Offsets 0, 6, -12 in turn: steps of 6, 18 and 12 px (15 pairs a dot, five of each), RMS √168 = 12.96, not
    // their mean of 12.
    const uneven = frames((ms, k) => {
      const offsets = [0, 6, -12];
      if (ms >= 5000 && ms < 9000) return { x: 800 + (offsets[k % 3] as number), y: 600 };
      return jitter(ms, k);
    });
    expect(validationPrecision(uneven, log(), research)?.px).toBeCloseTo(Math.sqrt(168), 9);
  });

  it('without validation dots, the still calibration dots', () => {
    const p = validationPrecision(frames(jitter), log(false), research);
    // The four dots are all calibration dots now; the first two (1.4–3 s, 3.4–5 s) are far-away noise.
    expect(p?.pairs).toBe(60);
    expect(p?.px).toBeGreaterThan(100);
  });

  it('no figure without a calibration, a research start or enough pairs', () => {
    const noCalibration = log().filter((e) => !e.type.startsWith('calibration') && !e.type.startsWith('validation'));
    expect(validationPrecision(frames(jitter), noCalibration, research)).toBeNull();
    expect(validationPrecision(frames(jitter), log(), { researchId: 'another' })).toBeNull();
    const few = frames((ms, k) => (ms >= 5400 && ms < 5400 + MIN_PRECISION_PAIRS * 100 ? jitter(ms, k) : null));
    expect(validationPrecision(few, log(), research)).toBeNull();
  });

  it("stored frames: the gaze track's rows when the data has one, else the frame table's", () => {
    const { time, x, y } = frames(jitter);
    const point = (k: number) => ({ x: x[k] as number, y: y[k] as number });
    const row = (k: number, gaze: { x: number; y: number } | null): FrameRow => ({
      time: time[k] as number,
      faceCount: 1,
      flags: [],
      bad: false,
      face: null,
      gaze,
      item: -1,
      content: null,
    });
    // Every other frame in the frame table (5 a second), every frame in the track (10 a second).
    const full = time.flatMap((_, k) => (k % 2 === 0 ? [row(k, point(k))] : []));
    const track: GazeRow[] = time.map((t, k) => ({ time: t, gaze: point(k), item: -1, content: null }));
    const withTrack = decodeFramesTable(encodeFrames(framesTable(full, null, track)));
    expect(storedGazePrecision(withTrack, log(), research)?.pairs).toBe(30);
    expect(storedGazePrecision(withTrack, log(), research)?.px).toBeCloseTo(6, 5);
    // Without a track: the frame table's every other sample, 0 px apart (both on the same side), 7 pairs a dot.
    const tableOnly = decodeFramesTable(encodeFrames(framesTable(full)));
    expect(storedGazePrecision(tableOnly, log(), research)?.pairs).toBe(14);
    expect(storedGazePrecision(tableOnly, log(), research)?.px).toBeCloseTo(0, 5);
  });
});
