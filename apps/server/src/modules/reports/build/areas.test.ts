import { describe, expect, it } from 'vitest';
import { areaMetrics } from './areas.ts';
import type { Fixation } from './gaze.ts';

describe('areas of interest', () => {
  const fix = (start: number, end: number, x: number, y: number): Fixation => ({ start, end, x, y, samples: 1 });
  const A = { id: 'logo', x: 0, y: 0, width: 500, height: 500 };
  const B = { id: 'pack', x: 1000, y: 500, width: 400, height: 400 };

  it('give who looked, when first, for how long, how often back, and how many fixations, by hand', () => {
    const first = [fix(0, 0.5, 100, 100), fix(0.6, 1.3, 1200, 700), fix(1.5, 2.0, 200, 200)];
    const second = [fix(0.2, 0.8, 1100, 600)];
    const [logo, pack] = areaMetrics([A, B], [first, second]);
    expect(logo).toEqual({
      id: 'logo',
      respondents: 2,
      looked: 1,
      lookedShare: 0.5,
      timeToFirstFixation: 0,
      dwellTime: expect.closeTo(0.5, 12), // (0.5 + 0.5 + 0) / 2
      dwellShare: expect.closeTo(1 / 1.7 / 2, 12), // 1.0 of 1.7 s, and 0
      revisits: 1, // two visits
      fixationCount: 1,
    });
    expect(pack).toEqual({
      id: 'pack',
      respondents: 2,
      looked: 2,
      lookedShare: 1,
      timeToFirstFixation: expect.closeTo(0.4, 12), // (0.6 + 0.2) / 2
      dwellTime: expect.closeTo(0.65, 12),
      dwellShare: expect.closeTo((0.7 / 1.7 + 1) / 2, 12),
      revisits: 0,
      fixationCount: 1,
    });
  });

  it('are empty, not broken, without respondents or looks', () => {
    expect(areaMetrics([A], [])).toEqual([
      {
        id: 'logo',
        respondents: 0,
        looked: 0,
        lookedShare: 0,
        timeToFirstFixation: null,
        dwellTime: 0,
        dwellShare: 0,
        revisits: null,
        fixationCount: 0,
      },
    ]);
  });

  it("on a video, count only the fixation time inside the area's window, timed from its start", () => {
    // Window 1–2 s on the logo: the first respondent's 1.5–2.0 s fixation and the part 1.0–1.2 s of one from 0.8 s.
    const first = [fix(0, 0.5, 100, 100), fix(0.8, 1.2, 150, 150), fix(1.5, 2.4, 200, 200)];
    const second = [fix(0.2, 0.8, 100, 100)];
    const [logo] = areaMetrics([{ ...A, from: 1, to: 2 }], [first, second]);
    expect(logo).toEqual({
      id: 'logo',
      respondents: 2,
      looked: 1,
      lookedShare: 0.5,
      timeToFirstFixation: 0,
      dwellTime: expect.closeTo((0.2 + 0.5) / 2, 12),
      // All of the first respondent's in-window fixation time is on the logo; the second had none in the window.
      dwellShare: 0.5,
      revisits: 0,
      fixationCount: 1,
    });
  });
});
