import { describe, expect, it } from 'vitest';
import {
  CheckCost,
  GUIDANCE_INTERVAL_MS,
  GUIDANCE_MAX_SHARE,
  GUIDANCE_STEADY_CHECKS,
  GuidanceNotice,
  guidanceProblem,
  nextCheckDelay,
} from './live-guidance.ts';

const check = (over: Partial<Parameters<typeof guidanceProblem>[0]> = {}) => ({
  flags: [] as Parameters<typeof guidanceProblem>[0]['flags'],
  faceCount: 1,
  distance: 'ok' as const,
  faceCut: false,
  ...over,
});

describe('guidanceProblem', () => {
  it('is null when the face is fine, and tells the most basic problem first', () => {
    expect(guidanceProblem(check())).toBeNull();
    expect(guidanceProblem(check({ flags: ['too_dark', 'no_face'], faceCount: 0, distance: null }))).toBe('too_dark');
    expect(guidanceProblem(check({ flags: ['no_face'], faceCount: 0, distance: null }))).toBe('no_face');
    expect(guidanceProblem(check({ faceCut: true, distance: 'too_near', flags: ['head_turned'] }))).toBe('face_cut');
    expect(guidanceProblem(check({ distance: 'too_far', flags: ['head_turned'] }))).toBe('too_far');
    expect(guidanceProblem(check({ distance: 'too_near' }))).toBe('too_near');
    expect(guidanceProblem(check({ flags: ['head_turned'] }))).toBe('head_turned');
  });

  it('leaves a second face to the analysis', () => {
    expect(guidanceProblem(check({ flags: ['several_faces'], faceCount: 2 }))).toBeNull();
  });
});

describe('GuidanceNotice', () => {
  it('shows the first check at once and a change once it holds', () => {
    const notice = new GuidanceNotice();
    expect(notice.next(null)).toBe('ok');
    for (let i = 1; i < GUIDANCE_STEADY_CHECKS; i++) expect(notice.next('too_far')).toBeNull();
    expect(notice.next('too_far')).toBe('too_far');
    expect(notice.state).toBe('too_far');
    expect(notice.next('too_far')).toBeNull();
  });

  it('does not change on a problem that flickers', () => {
    const notice = new GuidanceNotice();
    notice.next(null);
    const changes = ['too_dark', null, 'too_dark', 'too_near', 'too_dark', null].map((p) =>
      notice.next(p as Parameters<GuidanceNotice['next']>[0]),
    );
    expect(changes.every((c) => c === null)).toBe(true);
    expect(notice.state).toBe('ok');
  });

  it('stops once, and starts again at once', () => {
    const notice = new GuidanceNotice();
    expect(notice.stop()).toBeNull();
    notice.next('no_face');
    expect(notice.stop()).toBe('off');
    expect(notice.stop()).toBeNull();
    expect(notice.next('head_turned')).toBe('head_turned');
  });
});

describe('CheckCost', () => {
  it('tells the checks’ rate and their share of the main thread', () => {
    const cost = new CheckCost();
    expect(cost.summary(0)).toEqual({ checks: 0, elapsedMs: 0, meanMs: 0, rate: 0, share: 0 });
    // Four checks of 40 ms, one every 333 ms.
    for (let i = 0; i < 4; i++) cost.add(40, 40 + i * 333);
    const s = cost.summary(40 + 3 * 333);
    expect(s.checks).toBe(4);
    expect(s.meanMs).toBe(40);
    expect(s.rate).toBeCloseTo(4000 / 1039, 3);
    expect(s.share).toBeCloseTo(160 / 1039, 3);
  });
});

describe('nextCheckDelay', () => {
  it('waits the interval after a quick check, longer after a slow one so the checks keep within their share', () => {
    expect(nextCheckDelay(30)).toBe(GUIDANCE_INTERVAL_MS);
    for (const ms of [100, 400, 1500]) {
      const delay = nextCheckDelay(ms);
      expect(delay).toBeGreaterThanOrEqual(GUIDANCE_INTERVAL_MS);
      expect(ms / (ms + delay)).toBeLessThanOrEqual(GUIDANCE_MAX_SHARE + 1e-9);
    }
  });
});
