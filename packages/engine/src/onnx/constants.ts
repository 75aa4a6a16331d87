/** The face pipeline's settings after Human 3.3, and the face-mesh indices of the eye regions. */

export type P2 = [number, number];
export type P3 = [number, number, number];

/** A face region in frame pixels, with the detector keypoints its rotation comes from. */
export interface FaceBox {
  start: P2;
  end: P2;
  /** BlazeFace's six keypoints (eyes, nose, mouth, ears) from the last detector run. */
  keypoints: P2[];
  confidence: number;
}

// Human's detector settings (human-config.ts): boxes enlarged 1.4x, squared; overlap limit 0.1.
export const DETECTOR_SIZE = 256;
export const MESH_SIZE = 192;
export const IRIS_SIZE = 64;
export const EMOTION_SIZE = 64;
export const MIN_CONFIDENCE = 0.5;
export const IOU_THRESHOLD = 0.1;
export const BOX_ENLARGE = 1.4;
export const EYE_BOX_ENLARGE = 2.3;
/** Rotations below this (radians) are not corrected, as in Human. */
export const MIN_ROTATION = 0.2;
/** Mean grey change (0..255) between frames above which the detector runs whatever `skipFrames` says: a cut. */
export const SCENE_CHANGE = 16;
/** Order of the expression model's seven outputs. */
export const EMOTIONS = ['angry', 'disgust', 'fear', 'happy', 'sad', 'surprise', 'neutral'] as const;

// Face-mesh indices (MediaPipe): eye outlines whose ends bound the iris model's crop, and where the
// iris model's 71 eye-region points go in the mesh (iris index list -> mesh index list).
export const LEFT_EYE_LOWER0 = [263, 249, 390, 373, 374, 380, 381, 382, 362];
export const RIGHT_EYE_LOWER0 = [33, 7, 163, 144, 145, 153, 154, 155, 133];
export const LEFT_EYE_UPPER0 = [466, 388, 387, 386, 385, 384, 398];
export const RIGHT_EYE_UPPER0 = [246, 161, 160, 159, 158, 157, 173];
export const EYE_REGIONS: { key: string; iris: number[]; left: number[]; right: number[] }[] = [
  { key: 'EyeUpper0', iris: [9, 10, 11, 12, 13, 14, 15], left: LEFT_EYE_UPPER0, right: RIGHT_EYE_UPPER0 },
  {
    key: 'EyeUpper1',
    iris: [25, 26, 27, 28, 29, 30, 31],
    left: [467, 260, 259, 257, 258, 286, 414],
    right: [247, 30, 29, 27, 28, 56, 190],
  },
  {
    key: 'EyeUpper2',
    iris: [41, 42, 43, 44, 45, 46, 47],
    left: [342, 445, 444, 443, 442, 441, 413],
    right: [113, 225, 224, 223, 222, 221, 189],
  },
  { key: 'EyeLower0', iris: [0, 1, 2, 3, 4, 5, 6, 7, 8], left: LEFT_EYE_LOWER0, right: RIGHT_EYE_LOWER0 },
  {
    key: 'EyeLower1',
    iris: [16, 17, 18, 19, 20, 21, 22, 23, 24],
    left: [359, 255, 339, 254, 253, 252, 256, 341, 463],
    right: [130, 25, 110, 24, 23, 22, 26, 112, 243],
  },
  {
    key: 'EyeLower2',
    iris: [32, 33, 34, 35, 36, 37, 38, 39, 40],
    left: [446, 261, 448, 449, 450, 451, 452, 453, 464],
    right: [226, 31, 228, 229, 230, 231, 232, 233, 244],
  },
  {
    key: 'EyeLower3',
    iris: [54, 55, 56, 57, 58, 59, 60, 61, 62],
    left: [372, 340, 346, 347, 348, 349, 350, 357, 465],
    right: [143, 111, 117, 118, 119, 120, 121, 128, 245],
  },
  {
    key: 'EyebrowUpper',
    iris: [63, 64, 65, 66, 67, 68, 69, 70],
    left: [383, 300, 293, 334, 296, 336, 285, 417],
    right: [156, 70, 63, 105, 66, 107, 55, 193],
  },
  {
    key: 'EyebrowLower',
    iris: [48, 49, 50, 51, 52, 53],
    left: [265, 353, 276, 283, 282, 295],
    right: [35, 124, 46, 53, 52, 65],
  },
];
export const IRIS_POINTS = 76;
export const IRIS_FIRST = 71;
/**
 * Where each eye's crop is moved for its readings, in crop pixels (decision 041): half a pixel up and down about the
 * eye's box, the iris model's points averaged over the two. Vertical only: the per-picture offset that the shifts
 * dither out is the vertical gaze's error, and on the gaze phantoms two vertical shifts did as well as a 2×2 grid
 * (mean median 4.6% of the diagonal both) for half its iris crops.
 */
export const IRIS_SHIFTS: readonly (readonly [number, number])[] = [
  [0, -0.5],
  [0, 0.5],
];
