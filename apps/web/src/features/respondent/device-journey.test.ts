import type { RespondentAnalysis } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { analysedOnDevice, needsFaceCheck } from './device-journey.ts';

const analysis = (onDevice: boolean, site: RespondentAnalysis['site']): RespondentAnalysis => ({
  onDevice,
  site,
  slowDeviceAction: 'offer_upload',
  fps: 10,
  minFramesPerSecond: 8,
});

describe('privacy mode in the journey', () => {
  it("checks the face on the device's engine while the analysis may stay there, not after a fallback", () => {
    expect(analysedOnDevice({ analysis: analysis(true, 'undecided') })).toBe(true);
    expect(analysedOnDevice({ analysis: analysis(true, 'device') })).toBe(true);
    expect(analysedOnDevice({ analysis: analysis(true, 'server') })).toBe(false);
    expect(analysedOnDevice({ analysis: analysis(false, 'server') })).toBe(false);
    expect(analysedOnDevice(null)).toBe(false);
  });

  it('runs the face check to measure the device even where the link turns the face check off', () => {
    expect(needsFaceCheck({ use_face_checker: false, analysis: analysis(true, 'undecided') })).toBe(true);
    expect(needsFaceCheck({ use_face_checker: false, analysis: analysis(false, 'server') })).toBe(false);
    expect(needsFaceCheck({ use_face_checker: true, analysis: analysis(false, 'server') })).toBe(true);
  });
});
