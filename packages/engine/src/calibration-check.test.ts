import { describe, expect, it } from 'vitest';
import { CALIBRATION_CHECK_RESEARCH, calibrationCheckTask, lastValidatedCalibration } from './calibration-check.ts';
import { sessionWindows } from './session-timeline.ts';
import type { SessionEvent } from './session-types.ts';

/** One calibration attempt as the page logs it, from `t0`. */
const attempt = (t0: number): SessionEvent[] => [
  { type: 'calibration_start', t: t0 },
  { type: 'calibration_dot', t: t0, x: 100, y: 100 },
  { type: 'calibration_dot', t: t0 + 1000, x: 1500, y: 800 },
  { type: 'calibration_end', t: t0 + 2000 },
  { type: 'validation_dot', t: t0 + 2000, x: 800, y: 450 },
  { type: 'validation_end', t: t0 + 3500 },
];

// Two attempts (the first failed its check), then the research: what a repeated calibration leaves in the log.
const events: SessionEvent[] = [
  { type: 'screen', t: 0, width: 1600, height: 900, device_pixel_ratio: 1 },
  ...attempt(1000),
  ...attempt(10_000),
  { type: 'research_start', t: 15_000, campaign_id: 'c1', index: 0 },
  { type: 'research_end', t: 20_000, campaign_id: 'c1' },
];
const video = {
  researchId: 'c1',
  kind: 'video' as const,
  items: [{ width: 1280, height: 720 }],
  durationSeconds: null,
};

describe('the calibration check before the content', () => {
  it("finds the log's last calibration that ended in a validation", () => {
    expect(lastValidatedCalibration(events)).toEqual({ calibrationStartMs: 10_000, validationEndMs: 13_500 });
    expect(lastValidatedCalibration(events.filter((e) => e.t <= 4500))).toEqual({
      calibrationStartMs: 1000,
      validationEndMs: 4500,
    });
    // A calibration not validated yet (the respondent left mid-way) is no attempt.
    expect(lastValidatedCalibration(events.filter((e) => e.t <= 12_000))).toEqual({
      calibrationStartMs: 1000,
      validationEndMs: 4500,
    });
    expect(lastValidatedCalibration([{ type: 'calibration_start', t: 0 }])).toBeNull();
  });

  it("analyses just one attempt's calibration and validation, whatever the log holds after it", () => {
    for (const [end, start] of [
      [4500, 1000],
      [13_500, 10_000],
    ] as const) {
      const task = calibrationCheckTask([{ file: 'r.webm', offsetMs: 0 }], events, end, 5);
      expect(task.research?.researchId).toBe(CALIBRATION_CHECK_RESEARCH);
      expect(task.gazeRequired).toBe(true);
      expect(task.events.some((e) => e.type === 'research_start' && e.campaign_id === 'c1')).toBe(false);
      const w = sessionWindows(task.events, task.research, 30_000, []);
      expect(w.calibration).toEqual({ start, end });
      expect(w.research.start).toBe(end);
      expect(w.research.end - w.research.start).toBeLessThan(1000);
    }
  });

  it("takes the last attempt for the research's own analysis", () => {
    const w = sessionWindows(events, video, 30_000, []);
    expect(w.calibration).toEqual({ start: 10_000, end: 13_500 });
    expect(w.research).toEqual({ start: 15_000, end: 20_000 });
  });
});
