import type { GazeDrift } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { driftView } from './gaze-drift-view.ts';

const measured: GazeDrift = {
  checkpoints: 2,
  mean_px: 40,
  max_px: 50,
  mean_percent: 2.65,
  mean_degrees: 1.03,
  corrected: true,
};

describe("a respondent's drift as shown", () => {
  it('is none without a checkpoint (null, or a report built before drift was measured)', () => {
    expect(driftView(null, 60)).toEqual({ state: 'none' });
    expect(driftView(undefined, 60)).toEqual({ state: 'none' });
  });

  it('is not measured when checkpoints were shown but none was used', () => {
    const shown = { ...measured, checkpoints: 0, mean_px: null, max_px: null, mean_percent: null, mean_degrees: null };
    expect(driftView({ ...shown, corrected: false }, 60)).toEqual({ state: 'unmeasured' });
  });

  it('has px, %, degrees, the largest offset, the checkpoints used and the correction', () => {
    expect(driftView(measured, 58.6)).toEqual({
      state: 'measured',
      px: 40,
      percent: 2.65,
      degrees: 1.03,
      maxPx: 50,
      checkpoints: 2,
      corrected: true,
    });
  });

  it('has no degrees without a distance, whatever the result says', () => {
    expect(driftView(measured, null)).toMatchObject({ state: 'measured', px: 40, degrees: null });
    expect(driftView({ ...measured, mean_degrees: null, corrected: false }, 60)).toMatchObject({
      degrees: null,
      corrected: false,
    });
  });
});
