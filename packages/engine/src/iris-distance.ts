/**
 * The respondent's distance to the camera from the size of the iris in the frame (decision 043). The human iris is
 * about 11.7 mm across whoever the adult (MediaPipe Iris: 11.7 ± 0.5 mm, < 10% depth error with a known focal length);
 * a pinhole camera sees it `f · 11.7 / d` pixels wide, so d = f · 11.7 / diameter. The focal length in pixels comes
 * from the frame's width and an assumed horizontal field of view: the browser does not tell the camera's lens, so the
 * figure is an estimate of the distance to the camera, which sits at the screen's top edge on a laptop.
 */

/** The adult iris's visible diameter, mm (MediaPipe Iris, Ablavatski et al. 2020: 11.7 ± 0.5 mm). */
export const IRIS_DIAMETER_MM = 11.7;

/**
 * The assumed horizontal field of view of the frame as the browser delivers it, degrees. Laptop and USB webcams are
 * sold at 55–78° diagonal (Logitech C270 55°, Microsoft LifeCam 68.5°, Dell laptops 74.9–78°, Logitech C920 78°), that
 * is about 48–68° horizontal at 16:9; 60° horizontal is ≈ 68° diagonal at 16:9. Each ±8° moves the distance by
 * about ∓15%.
 */
export const CAMERA_HORIZONTAL_FOV_DEGREES = 60;

/** Frames whose iris is narrower than this (frame pixels) are too coarse to measure (a landmark is ±0.5 px). */
export const MIN_IRIS_PX = 4;

/** Fewer measured frames than this give no estimate. */
export const MIN_IRIS_FRAMES = 10;

// MediaPipe's iris landmarks: centre, then four points on the iris's edge (a horizontal pair, a vertical pair).
const IRISES = [
  [468, 469, 470, 471, 472],
  [473, 474, 475, 476, 477],
] as const;

type Point = readonly number[];

/**
 * The iris's diameter in one frame, frame pixels: per eye the larger of its horizontal and vertical extents (a turned
 * head narrows one of them, a lid never moves the model's circle), the two eyes averaged; null without iris landmarks
 * or below `MIN_IRIS_PX`.
 */
export function irisDiameterPx(landmarks: readonly Point[]): number | null {
  if (landmarks.length < 478) return null;
  const sizes: number[] = [];
  for (const [, a, b, c, d] of IRISES) {
    const pa = landmarks[a];
    const pb = landmarks[b];
    const pc = landmarks[c];
    const pd = landmarks[d];
    if (!pa || !pb || !pc || !pd) return null;
    const across = Math.hypot((pa[0] ?? 0) - (pc[0] ?? 0), (pa[1] ?? 0) - (pc[1] ?? 0));
    const down = Math.hypot((pb[0] ?? 0) - (pd[0] ?? 0), (pb[1] ?? 0) - (pd[1] ?? 0));
    sizes.push(Math.max(across, down));
  }
  const mean = ((sizes[0] ?? 0) + (sizes[1] ?? 0)) / 2;
  return Number.isFinite(mean) && mean >= MIN_IRIS_PX ? mean : null;
}

/** The focal length in pixels of a frame `frameWidth` px wide seen through `fovDegrees` horizontally. */
export function focalLengthPx(frameWidth: number, fovDegrees: number = CAMERA_HORIZONTAL_FOV_DEGREES): number {
  return frameWidth / 2 / Math.tan((fovDegrees * Math.PI) / 360);
}

export interface DistanceEstimate {
  /** Eyes to camera, cm. */
  cm: number;
  /** The median iris diameter behind it, frame pixels. */
  irisPx: number;
  /** Frames measured. */
  frames: number;
  /** The assumptions: the frame's width, the horizontal field of view, the iris's size. */
  frameWidth: number;
  fovDegrees: number;
  irisMm: number;
}

/**
 * The distance from the iris diameters of a session's good frames (frame pixels, null where not measured): their
 * median (a blink or a misread frame moves it little), through `focalLengthPx`. Null below `MIN_IRIS_FRAMES` frames
 * or without a frame width.
 */
export function distanceFromIris(
  diameters: readonly (number | null)[],
  frameWidth: number,
  options: { fovDegrees?: number; irisMm?: number; minFrames?: number } = {},
): DistanceEstimate | null {
  const fovDegrees = options.fovDegrees ?? CAMERA_HORIZONTAL_FOV_DEGREES;
  const irisMm = options.irisMm ?? IRIS_DIAMETER_MM;
  const measured = diameters.filter((d): d is number => d !== null && Number.isFinite(d) && d >= MIN_IRIS_PX);
  if (!(frameWidth > 0) || measured.length < (options.minFrames ?? MIN_IRIS_FRAMES)) return null;
  const sorted = [...measured].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const irisPx =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  const cm = (focalLengthPx(frameWidth, fovDegrees) * irisMm) / irisPx / 10;
  return { cm, irisPx, frames: measured.length, frameWidth, fovDegrees, irisMm };
}
