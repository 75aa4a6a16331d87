import { GAZE_DEGREE_ASSUMPTIONS } from '@emolens/contracts';
import { CAMERA_HORIZONTAL_FOV_DEGREES, IRIS_DIAMETER_MM } from '@emolens/engine';
import { describe, expect, it } from 'vitest';

describe('the degrees note (decision 043)', () => {
  it("states the engine's own assumptions: the iris's size and the camera's field of view", () => {
    expect(GAZE_DEGREE_ASSUMPTIONS.irisMm).toBe(IRIS_DIAMETER_MM);
    expect(GAZE_DEGREE_ASSUMPTIONS.cameraHorizontalFovDegrees).toBe(CAMERA_HORIZONTAL_FOV_DEGREES);
  });
});
