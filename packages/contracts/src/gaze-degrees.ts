/**
 * Gaze accuracy in degrees of visual angle (issue 31 item 2, decision 043): screen pixels to degrees at the
 * respondent's distance, the one conversion the server, the cabinet and the validation share. The distance is the
 * engine's estimate from the iris's size (`distanceFromIris`: iris 11.7 mm, a 60° horizontal camera field of view);
 * the size of a CSS pixel is not known to the browser, so the CSS reference pixel (96 to the inch) is assumed.
 */

/** The assumptions behind the degrees, as the cabinet's "how estimated" note states them. */
export const GAZE_DEGREE_ASSUMPTIONS = {
  /** The adult iris's diameter, mm (the engine's `IRIS_DIAMETER_MM`). */
  irisMm: 11.7,
  /** The camera's horizontal field of view, degrees (the engine's `CAMERA_HORIZONTAL_FOV_DEGREES`). */
  cameraHorizontalFovDegrees: 60,
  /** CSS pixels to the inch: the CSS reference pixel (a 1280 CSS px wide 15.6-inch laptop screen has 94). */
  cssPxPerInch: 96,
} as const;

/** One CSS pixel, mm: 25.4 / 96 = 0.265 mm. */
export const CSS_PX_MM = 25.4 / GAZE_DEGREE_ASSUMPTIONS.cssPxPerInch;

/**
 * `px` screen pixels as degrees of visual angle seen from `distanceCm` (atan of the length over the distance, as
 * the validation has always converted), with pixels `pxMm` mm wide (default `CSS_PX_MM`). Null when either is
 * missing or not a finite, non-negative number (a distance must be positive).
 */
export function pxToDegrees(
  px: number | null | undefined,
  distanceCm: number | null | undefined,
  pxMm: number = CSS_PX_MM,
): number | null {
  if (px === null || px === undefined || !Number.isFinite(px) || px < 0) return null;
  if (distanceCm === null || distanceCm === undefined || !Number.isFinite(distanceCm) || distanceCm <= 0) return null;
  return (Math.atan((px * pxMm) / (distanceCm * 10)) * 180) / Math.PI;
}

/** Degrees rounded for showing and exporting (two decimals), null stays null. */
export function roundedDegrees(degrees: number | null): number | null {
  return degrees === null ? null : Math.round(degrees * 100) / 100;
}
