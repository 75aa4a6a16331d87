import { describe, expect, it } from 'vitest';
import {
  decodeReadings,
  encodeReadings,
  type FrameReadings,
  mergeReadings,
  READINGS_MAX_CHUNK_BYTES,
} from '../readings.ts';
import { lightFactor, samplingFor } from '../sampling.ts';
import type { FrameData } from '../types.ts';
import { FrameSchedule, LiveReader, liveSampling, MAX_IN_FLIGHT } from './live-reader.ts';

const frameOf = (index: number, time: number): FrameData => ({
  index,
  time,
  faceCount: 0,
  face: null,
  brightness: 0.5,
  flags: ['no_face'],
});

/** A worker that answers each frame after `delayMs` of its own, one at a time, in order. */
function fakeEngine(delayMs: number, clock: { now: number }) {
  const sent: { index: number; time: number; light: boolean; fresh: boolean; tag: number }[] = [];
  let queue = Promise.resolve();
  let resets = 0;
  return {
    sent,
    get resets() {
      return resets;
    },
    reset: () => {
      resets++;
    },
    analyse(frame: {
      data: Uint8Array;
      width: number;
      height: number;
      index: number;
      time: number;
      light?: boolean;
      fresh?: boolean;
    }) {
      sent.push({
        index: frame.index,
        time: frame.time,
        light: frame.light === true,
        fresh: frame.fresh === true,
        tag: frame.data[0] as number,
      });
      const result = queue.then(async () => {
        if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
        clock.now += delayMs;
        return { frame: frameOf(frame.index, frame.time), ms: delayMs, data: frame.data };
      });
      queue = result.then(() => undefined);
      return result;
    },
  };
}

const pixels = () => ({ data: new Uint8Array(4), width: 1, height: 1 });
const SAMPLING = { fps: 10, gazeFps: 30, width: 640, height: 480 };

/** A reader on a worker answering at once, `k` slots a full frame, whose chunks go nowhere (what it sends is the test). */
function chunklessReader(k: number) {
  const clock = { now: 0 };
  const engine = fakeEngine(0, clock);
  const reader = new LiveReader({
    engine,
    sampling: SAMPLING,
    k,
    now: () => clock.now,
    encode: () => new Uint8Array(),
    onChunk: () => {},
  });
  return { engine, reader };
}

describe('FrameSchedule', () => {
  it('takes a 30 fps camera as the server decodes a 30 fps recording: every 3rd frame full, on the grid', () => {
    const schedule = new FrameSchedule(10, 3);
    const picks = Array.from({ length: 9 }, (_, i) => schedule.pick(i / 30 + 0.004));
    expect(picks.map((p) => p?.full)).toEqual([true, false, false, true, false, false, true, false, false]);
    expect(picks.map((p) => p?.time.toFixed(4))).toEqual(Array.from({ length: 9 }, (_, i) => (i / 30).toFixed(4)));
  });

  it('skips a frame whose slot is taken and lets the next frame stand for a full slot the camera jumped over', () => {
    const schedule = new FrameSchedule(10, 3);
    expect(schedule.pick(0)).toEqual({ slot: 0, full: true, jumped: false, time: 0 });
    // A 60 fps camera: the frame between two slots stands for the nearest one, taken already.
    expect(schedule.pick(0.01)).toBeNull();
    expect(schedule.pick(1 / 30)?.slot).toBe(1);
    // A stall from slot 1 to slot 4: slot 3 (full) was jumped over, the frame stands for it (read from the picture
    // before it, which the decoder repeats there).
    expect(schedule.pick(4 / 30)).toEqual({ slot: 3, full: true, jumped: true, time: 0.1 });
    expect(schedule.pick(5 / 30)).toEqual({ slot: 5, full: false, jumped: false, time: 5 / 30 });
    expect(schedule.pick(-1)).toBeNull();
  });

  it('starts on the first frame itself, whatever slot it falls in: the decoder starts on the first picture', () => {
    const schedule = new FrameSchedule(10, 3);
    expect(schedule.pick(2 / 30)).toEqual({ slot: 0, full: true, jumped: false, time: 0 });
  });

  it('with k = 1 takes full frames only, at the analysis rate', () => {
    const schedule = new FrameSchedule(10, 1);
    const picks = Array.from({ length: 28 }, (_, i) => schedule.pick(i / 30)).filter((p) => p !== null);
    // Up to 27/30 s: the slots nearest to each frame, 0.9 s the last.
    expect(picks.map((p) => p.slot)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(picks.every((p) => p.full)).toBe(true);
  });
});

describe('liveSampling', () => {
  it('uses the server analysis rules: at most 640 wide, even, and the same light factor', () => {
    const hd = liveSampling({ width: 1280, height: 720, fps: 30 }, { fps: 10, gazeFps: 30 });
    expect(hd.sampling).toEqual(samplingFor({ width: 1280, height: 720, fps: 30 }, { fps: 10 }));
    expect(hd.readings).toEqual({ fps: 10, gazeFps: 30, width: 640, height: 360 });
    expect(hd.k).toBe(3);
    const slow = liveSampling({ width: 640, height: 480, fps: 15 }, { fps: 10, gazeFps: 30 });
    expect(slow.k).toBe(lightFactor(slow.sampling, { fps: 15 }, 30));
    expect(slow.k).toBe(2);
    expect(liveSampling({ width: 640, height: 480, fps: null }, { fps: 10, gazeFps: 10 }).k).toBe(1);
  });
});

describe('LiveReader', () => {
  it('reads a fast device every slot, numbers frames as the server does and sends chunks in time order', async () => {
    const clock = { now: 0 };
    const engine = fakeEngine(0, clock);
    const chunks: { index: number; readings: FrameReadings }[] = [];
    const encoded = new Map<number, FrameReadings>();
    let id = 0;
    const reader = new LiveReader({
      engine,
      sampling: SAMPLING,
      k: 3,
      chunkSeconds: 5,
      now: () => clock.now,
      encode: (r) => {
        encoded.set(++id, r);
        return Uint8Array.of(id);
      },
      onChunk: (index, data) => {
        chunks.push({ index, readings: encoded.get(data[0] as number) as FrameReadings });
      },
    });
    expect(engine.resets).toBe(1);
    // 12 s of a 30 fps camera, the worker answering before the next frame.
    for (let i = 0; i < 360; i++) {
      reader.offer(i / 30, pixels);
      await new Promise((r) => setTimeout(r, 0));
    }
    await reader.finish();
    expect(chunks.map((c) => c.index)).toEqual([0, 1, 2]);
    const full = chunks.flatMap((c) => c.readings.full);
    const light = chunks.flatMap((c) => c.readings.light);
    expect(full).toHaveLength(120);
    expect(light).toHaveLength(240);
    expect(full.map((f) => f.index)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    // A light frame carries the next full frame's number (node/analyze.ts).
    expect(light.slice(0, 4).map((f) => f.index)).toEqual([1, 1, 2, 2]);
    // Each chunk is its own stretch of about 5 s, starting at a full frame.
    expect(chunks[0]?.readings.full.at(-1)?.time).toBeLessThan(5);
    expect(chunks[1]?.readings.full[0]?.time).toBeCloseTo(5, 6);
    for (const c of chunks) {
      expect(c.readings.sampling).toEqual(SAMPLING);
      const times = [...c.readings.full, ...c.readings.light].map((f) => f.time);
      expect(Math.min(...times)).toBeGreaterThanOrEqual(c.readings.full[0]?.time as number);
    }
    const stats = reader.stats();
    expect(stats.dropped).toEqual({ full: 0, light: 0 });
    expect(stats.analysed).toEqual({ full: 120, light: 240 });
    expect(stats.chunks).toBe(3);
    expect(stats.backlog).toBe(0);
  });

  it('drops frames on a slow device instead of queueing them, light ones first, and counts them', async () => {
    const clock = { now: 0 };
    const engine = fakeEngine(5, clock);
    const reader = new LiveReader({
      engine,
      sampling: SAMPLING,
      k: 3,
      now: () => clock.now,
      encode: () => new Uint8Array(10),
      onChunk: () => {},
    });
    const outcomes: string[] = [];
    // Frames offered all at once: the worker cannot answer in between.
    for (let i = 0; i < 30; i++) outcomes.push(reader.offer(i / 30, pixels));
    expect(reader.stats().backlog).toBe(MAX_IN_FLIGHT);
    await reader.finish();
    // The first full frame and the next full one went in; everything else was dropped.
    expect(outcomes.slice(0, 4)).toEqual(['full', 'dropped', 'dropped', 'full']);
    const stats = reader.stats();
    expect(stats.analysed).toEqual({ full: 2, light: 0 });
    expect(stats.dropped).toEqual({ full: 8, light: 20 });
    expect(engine.sent.map((s) => s.index)).toEqual([0, 1]);
    expect(stats.framesPerSecond).toBeGreaterThan(0);
  });

  it('splits a chunk over the byte limit in two stretches, and slices on demand', async () => {
    const clock = { now: 0 };
    const engine = fakeEngine(0, clock);
    const sizes: number[] = [];
    const received: number[] = [];
    const reader = new LiveReader({
      engine,
      sampling: SAMPLING,
      k: 1,
      now: () => clock.now,
      encode: (r) => new Uint8Array(100 * (r.full.length + r.light.length)),
      maxChunkBytes: 1000,
      onChunk: (index, data) => {
        received.push(index);
        sizes.push(data.byteLength);
      },
    });
    for (let i = 0; i < 16; i++) {
      reader.offer(i / 10, pixels);
      await new Promise((r) => setTimeout(r, 0));
    }
    await reader.slice();
    expect(sizes).toEqual([800, 800]);
    reader.offer(1.6, pixels);
    await reader.finish();
    expect(received).toEqual([0, 1, 2]);
    expect(sizes.at(-1)).toBe(100);
    expect(reader.offer(2, pixels)).toBe('skipped');
  });

  it('reads a full slot a 15 fps camera jumps over from the frame before, as the decoder repeats it', async () => {
    const { engine, reader } = chunklessReader(2);
    // Camera frame i carries i in its first byte.
    const frame = (i: number) => () => ({ data: Uint8Array.of(i, 0, 0, 0), width: 1, height: 1 });
    for (let i = 0; i < 12; i++) {
      reader.offer(i / 15, frame(i), i > 0 ? frame(i - 1) : undefined);
      await new Promise((r) => setTimeout(r, 0));
    }
    await reader.finish();
    // Slots of 50 ms: camera frames 0, 1, 2, 3 … fall in slots 0, 1, 3, 4, 5, 7 …; full slots 2 and 6 are jumped over
    // and read from frames 1 and 4, as the decoder repeats them there.
    const full = engine.sent.filter((f) => !f.light).map((f) => [Math.round(f.time * 20), f.tag]);
    expect(full.slice(0, 5)).toEqual([
      [0, 0],
      [2, 1],
      [4, 3],
      [6, 4],
      [8, 6],
    ]);
  });

  it("starts the engine afresh at the first frame analysed at a restart's time or after, pixels taken late or not", async () => {
    const { engine, reader } = chunklessReader(1);
    reader.restartAt(0.3);
    // Between two slots: the next slot's frame (1.1 s) is the fresh one.
    reader.restartAt(1.05);
    // Planes copied out asynchronously, every other frame's only after the next one's were taken: sent in the order
    // taken anyway.
    const late = () => new Promise<ReturnType<typeof pixels>>((resolve) => setTimeout(() => resolve(pixels()), 12));
    for (let i = 0; i < 15; i++) {
      expect(reader.offer(i / 10, i % 2 ? late : pixels)).toBe('full');
      await new Promise((r) => setTimeout(r, 8));
    }
    await reader.finish();
    expect(engine.sent.map((f) => Math.round(f.time * 10))).toEqual(Array.from({ length: 15 }, (_, i) => i));
    expect(engine.sent.filter((f) => f.fresh).map((f) => Math.round(f.time * 10))).toEqual([3, 11]);
  });
});

describe('LiveReader with the readings codec', () => {
  it('sends chunks the codec decodes back into the segment, in order', async () => {
    const clock = { now: 0 };
    const engine = fakeEngine(0, clock);
    const chunks: Uint8Array[] = [];
    const reader = new LiveReader({
      engine,
      sampling: SAMPLING,
      k: 3,
      now: () => clock.now,
      encode: encodeReadings,
      maxChunkBytes: READINGS_MAX_CHUNK_BYTES,
      onChunk: (_index, data) => {
        chunks.push(data);
      },
    });
    for (let i = 0; i < 330; i++) {
      reader.offer(i / 30, pixels);
      await new Promise((r) => setTimeout(r, 0));
    }
    await reader.finish();
    const decoded = mergeReadings(await Promise.all(chunks.map((c) => decodeReadings(c))));
    expect(chunks).toHaveLength(3);
    expect(decoded.sampling).toEqual(SAMPLING);
    expect(decoded.full.map((f) => f.time)).toEqual(Array.from({ length: 110 }, (_, i) => expect.closeTo(i / 10, 4)));
    expect(decoded.light).toHaveLength(220);
  });
});
