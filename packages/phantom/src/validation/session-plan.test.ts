import {
  CALIBRATION_TIMING,
  calibrationPathAt,
  DRIFT_CHECKPOINT_TIMING,
  respondentEventSchema,
  VALIDATION_POINTS,
} from '@emolens/contracts';
import { checkpointDots } from '@emolens/engine';
import { describe, expect, it } from 'vitest';
import { driftCase } from './drift-case.ts';
import { gazeAt, gridFixations, LAPTOP_SCREEN, planSession } from './session-plan.ts';

describe('a phantom session plan', () => {
  const grid = gridFixations(LAPTOP_SCREEN);
  const plan = planSession({ content: grid.keys, researchMs: grid.durationMs });

  it('logs what the respondent page logs, each event valid for the /r API', () => {
    for (const e of plan.events) expect(respondentEventSchema.safeParse(e).success, JSON.stringify(e)).toBe(true);
    const types = plan.events.map((e) => e.type);
    expect(types.filter((t) => t === 'calibration_dot')).toHaveLength(12_000 / CALIBRATION_TIMING.dotLogMs);
    expect(types.filter((t) => t === 'validation_dot')).toHaveLength(VALIDATION_POINTS.length);
    expect(types.indexOf('calibration_end')).toBeLessThan(types.indexOf('research_start'));
  });

  it('the eyes follow the moving dot and rest on each validation dot', () => {
    const mid = plan.calibration.start + 6000;
    const dot = calibrationPathAt(0.5, LAPTOP_SCREEN.width, LAPTOP_SCREEN.height);
    const g = gazeAt(plan.gaze, mid);
    expect(Math.hypot(g.x - dot.x, g.y - dot.y)).toBeLessThan(1);
    for (const d of plan.validation.dots) {
      const seen = gazeAt(plan.gaze, d.t + 700);
      expect([Math.round(seen.x), Math.round(seen.y)]).toEqual([d.x, d.y]);
    }
  });

  it('the research window holds the grid fixations, on the session clock', () => {
    const target = grid.targets[4];
    if (!target) throw new Error('a 3 × 3 grid has a centre');
    const seen = gazeAt(plan.gaze, plan.research.start + target.t + 500);
    expect([seen.x, seen.y]).toEqual([target.x, target.y]);
    expect(plan.research.end - plan.research.start).toBe(grid.durationMs);
    expect(plan.durationMs).toBeGreaterThan(plan.research.end);
  });

  it("ends each drift checkpoint dot as the page's overlay does, so the engine reads it only while it is looked at", () => {
    const drift = driftCase('astronaut', 'undrifted').plan;
    for (const e of drift.events) expect(respondentEventSchema.safeParse(e).success, JSON.stringify(e)).toBe(true);
    const dots = checkpointDots(drift.events, drift.research.start, drift.research.end);
    expect(dots).toHaveLength(3);
    for (const dot of dots) {
      // The engine's reading of the log: the dot until the next event, here the overlay's \`video_time\` as it goes.
      expect(dot.endMs - dot.startMs).toBe(DRIFT_CHECKPOINT_TIMING.overlayDotMs);
      // The phantom looks at the dot from its saccade until the dot goes (not at the next round's grid after it).
      for (let ms = dot.startMs + 100; ms < dot.endMs; ms += 100) {
        const seen = gazeAt(drift.gaze, ms);
        expect([Math.round(seen.x), Math.round(seen.y)]).toEqual([dot.x, dot.y]);
      }
    }
  });
});
