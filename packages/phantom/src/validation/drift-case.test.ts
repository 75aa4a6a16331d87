import { describe, expect, it } from 'vitest';
import type { CaseResult } from './cases.ts';
import { type DriftArm, driftCase, driftGoal, driftRows } from './drift-case.ts';
import type { GazeMeasurement } from './measure.ts';

/** A drift case's result with only what the drift rows read: the median error and the checkpoints' mean offset. */
function result(arm: DriftArm, seed: number, medianPercent: number): CaseResult {
  return {
    case: driftCase('astronaut', arm, seed),
    source: 'astronaut',
    generateMs: 0,
    reused: true,
    frames: 0,
    gaze: { overall: { medianPercent } } as GazeMeasurement,
    drift: { checkpoints: [], meanPx: 60, maxPx: 80, meanPercent: 4, corrected: arm === 'drifted, corrected' },
  };
}

/** Three draws: [undrifted, not corrected, corrected] median errors, % of the diagonal. */
function draws(first: number, errors: [number, number, number][]): CaseResult[] {
  return errors.flatMap(([undrifted, uncorrected, corrected], i) => [
    result('drifted, not corrected', first + i, uncorrected),
    result('undrifted', first + i, undrifted),
    result('drifted, corrected', first + i, corrected),
  ]);
}

describe('the drift goal over draws', () => {
  it('is judged on the median of the draws, each draw kept in its row', () => {
    // One draw over the goal (5.2 > 3.7 + 1), the median within it (4.9 ≤ 4.0 + 1).
    const rows = driftRows(
      draws(1, [
        [3.7, 7.5, 5.2],
        [4.0, 6.3, 4.1],
        [4.2, 6.4, 4.9],
      ]),
    );
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row?.draws.map((d) => [d.seed, d.undrifted, d.corrected])).toEqual([
      [1, 3.7, 5.2],
      [2, 4.0, 4.1],
      [3, 4.2, 4.9],
    ]);
    expect([row?.undrifted, row?.uncorrected, row?.corrected, row?.ok]).toEqual([4.0, 6.4, 4.9, true]);
  });

  it('fails when the draws’ median misses, whatever the best draw does', () => {
    const goal = driftGoal(
      draws(5, [
        [3.0, 7.0, 4.5],
        [3.1, 7.0, 3.2],
        [2.9, 7.0, 4.4],
      ]),
    );
    expect(goal.ok).toBe(false);
    expect(goal.figure).toBe('astronaut: 7.0% → 4.4% (undrifted 3.0%)');
    expect(goal.goal).toContain('the median of its 3 draws');
  });
});
