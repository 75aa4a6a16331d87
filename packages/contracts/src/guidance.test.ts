import { describe, expect, it } from 'vitest';
import { guidanceSummary } from './guidance.ts';
import { eventBatchInput } from './respondent-events.ts';

const g = (t: number, state: string) => ({ type: 'guidance', t, state });

describe('guidanceSummary', () => {
  it('is null for a log without guidance', () => {
    expect(guidanceSummary([])).toBeNull();
    expect(
      guidanceSummary([
        { type: 'step', t: 0 },
        { type: 'calibration_start', t: 100 },
      ]),
    ).toBeNull();
  });

  it('adds up each problem from one state to the next, and the time guided', () => {
    const s = guidanceSummary([
      g(1000, 'ok'),
      g(3000, 'too_far'),
      { type: 'calibration_dot', t: 3500 },
      g(5500, 'ok'),
      g(6000, 'too_dark'),
      g(6400, 'too_far'),
      g(7000, 'off'),
      { type: 'research_end', t: 9000 },
    ]);
    expect(s?.guided_seconds).toBe(6);
    expect(s?.problems).toEqual({
      too_dark: 0.4,
      no_face: 0,
      face_cut: 0,
      too_far: 3.1,
      too_near: 0,
      head_turned: 0,
    });
  });

  it('ends a state the page never closed at a new page, a lost camera or the last event', () => {
    const s = guidanceSummary([
      g(0, 'no_face'),
      { type: 'segment_start', t: 2000 },
      { type: 'calibration_start', t: 2500 },
      g(3000, 'head_turned'),
      { type: 'camera_lost', t: 4000 },
      { type: 'step', t: 5000 },
      g(6000, 'face_cut'),
      { type: 'video_time', t: 6700 },
    ]);
    expect(s?.problems.no_face).toBe(2);
    expect(s?.problems.head_turned).toBe(1);
    expect(s?.problems.face_cut).toBe(0.7);
    expect(s?.guided_seconds).toBe(3.7);
  });

  it('passes over states it does not know and never counts time backwards', () => {
    const s = guidanceSummary([g(1000, 'too_near'), g(500, 'ok'), g(1500, 'sleepy'), { type: 'x', t: Number.NaN }]);
    expect(s?.problems.too_near).toBe(0);
    expect(s?.guided_seconds).toBe(1);
  });
});

describe('the guidance event', () => {
  it('takes a known state only, with nothing beside it', () => {
    const batch = (event: object) => eventBatchInput.safeParse({ seq: 0, events: [event] }).success;
    expect(batch({ type: 'guidance', t: 10, state: 'too_far' })).toBe(true);
    expect(batch({ type: 'guidance', t: 10, state: 'off' })).toBe(true);
    expect(batch({ type: 'guidance', t: 10, state: 'sleepy' })).toBe(false);
    expect(batch({ type: 'guidance', t: 10, state: 'ok', ms: 5 })).toBe(false);
    expect(batch({ type: 'guidance', t: -1, state: 'ok' })).toBe(false);
  });
});
