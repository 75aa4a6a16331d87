import { VALIDATION_POINTS } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import {
  checkpointDue,
  checkpointPlace,
  countContent,
  DRIFT_INTERVAL_MS,
  newDriftClock,
  playedMs,
  takeCheckpoint,
} from './drift-checkpoints.ts';

describe('drift checkpoints: when', () => {
  it('are due once the content has run 60 s since the calibration, and only when the research keeps them on', () => {
    expect(DRIFT_INTERVAL_MS).toBe(60_000);
    const clock = newDriftClock();
    expect(checkpointDue(clock, true)).toBe(false);
    // Twelve 5 s pictures: due at the break after the twelfth, not before.
    for (let i = 0; i < 11; i += 1) countContent(clock, 5000);
    expect(checkpointDue(clock, true)).toBe(false);
    countContent(clock, 5000);
    expect(checkpointDue(clock, true)).toBe(true);
    expect(checkpointDue(clock, false)).toBe(false);
  });

  it('count again from zero after each checkpoint, across researches (one clock per page)', () => {
    const clock = newDriftClock();
    countContent(clock, 45_000); // a 45 s video
    expect(checkpointDue(clock, true)).toBe(false);
    countContent(clock, 20_000); // four pictures of the next research
    expect(checkpointDue(clock, true)).toBe(true);
    takeCheckpoint(clock, 1280, 720);
    expect(clock.sinceMs).toBe(0);
    expect(checkpointDue(clock, true)).toBe(false);
    countContent(clock, 59_999);
    expect(checkpointDue(clock, true)).toBe(false);
    countContent(clock, 1);
    expect(checkpointDue(clock, true)).toBe(true);
  });

  it('ignore negative and non-finite content times', () => {
    const clock = newDriftClock();
    countContent(clock, -5000);
    countContent(clock, Number.NaN);
    countContent(clock, Number.POSITIVE_INFINITY);
    expect(clock.sinceMs).toBe(0);
  });

  it("count a video's playback from its time reports, not its seeks", () => {
    expect(playedMs(10, 10.25)).toBe(250);
    expect(playedMs(10.25, 10.25)).toBe(0); // paused or stalled
    expect(playedMs(30, 12)).toBe(0); // seek back
    expect(playedMs(12, 30)).toBe(0); // seek forward
    expect(playedMs(Number.NaN, 1)).toBe(0);
  });
});

describe('drift checkpoints: where', () => {
  it('go to a validation place, a different one each time, round the five', () => {
    const clock = newDriftClock();
    const places = Array.from({ length: 6 }, () => takeCheckpoint(clock, 1000, 500));
    expect(places.slice(0, 5)).toEqual(VALIDATION_POINTS.map(([fx, fy]) => ({ x: fx * 1000, y: fy * 500 })));
    for (let i = 1; i < places.length; i += 1) expect(places[i]).not.toEqual(places[i - 1]);
    expect(places[5]).toEqual(places[0]);
    expect(clock.shown).toBe(6);
  });

  it('are whole CSS px of the screen, as the validation dots are logged', () => {
    expect(checkpointPlace(1, 390, 844)).toEqual({ x: Math.round(0.15 * 390), y: Math.round(0.15 * 844) });
    expect(checkpointPlace(0, 391, 845)).toEqual({ x: 196, y: 423 });
  });
});
