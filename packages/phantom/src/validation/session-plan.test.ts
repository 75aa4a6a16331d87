import { CALIBRATION_TIMING, calibrationPathAt, respondentEventSchema, VALIDATION_POINTS } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
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
});
