/** Shapes of the engine's output. Every result carries ENGINE_VERSION so old data can be reprocessed and compared. */

export const EXPRESSIONS = ['neutral', 'happy', 'surprise', 'sad', 'angry', 'disgust', 'fear'] as const;
export type Expression = (typeof EXPRESSIONS)[number];
export type ExpressionScores = Record<Expression, number>;

/** Pixels of the decoded frame. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Why a frame is distracted (the motion series), or null. */
export type Distraction = 'head_turned' | 'eyes_closed';

/** Degrees, as Human estimates them from the 3-D mesh; roll > 0 turns the face clockwise in the image. */
export interface HeadPose {
  yaw: number;
  pitch: number;
  roll: number;
}

/**
 * Iris centre relative to the eye's corners, per eye: `x` runs along the corner-to-corner axis
 * (0 at the outer corner, 1 at the inner one), `y` across it, in eye widths (positive downwards).
 */
export interface EyePoint {
  x: number;
  y: number;
}
/** `left` is the subject's left eye (on the image's right for a camera facing them). */
export interface EyeFeatures {
  left: EyePoint;
  right: EyePoint;
}

/**
 * Per-frame quality flags, in the order `qualityFlags` writes them. `face_cut`, `face_small` and `too_bright`
 * come from the recording analysis only (they need the frame's size and the landmarks); the browser face check
 * does not raise them.
 */
export const QUALITY_FLAGS = [
  'no_face',
  'several_faces',
  'head_turned',
  'too_dark',
  /** The main face's landmarks reach past the frame's edge. */
  'face_cut',
  /** The main face is narrower than `SMALL_FACE_PX`: landmarks and expressions are coarse. */
  'face_small',
  /** Mean luma above `BRIGHT_LUMA`: overexposed. */
  'too_bright',
] as const;
export type QualityFlag = (typeof QUALITY_FLAGS)[number];

/** Facial action units from the mesh's geometry (`actionUnits` in action-units.ts; formulas in docs/engine.md). */
export const ACTION_UNITS = [
  'lipCornerPull',
  'lipCornerDepression',
  'browRaiseInner',
  'browRaiseOuter',
  'browLowering',
  'eyeClosure',
  'jawDrop',
  'lipPress',
] as const;
export type ActionUnit = (typeof ACTION_UNITS)[number];
/** One value per action unit; larger means more of the action. */
export type ActionUnits = Record<ActionUnit, number>;

/** Per face: the action units plus the eye aspect ratio they use (for blink detection). */
export interface FrameActionUnits {
  units: ActionUnits;
  /** Mean eye aspect ratio of the two eyes (lid gap / eye width, yaw-corrected), 0.34 open (median of the face-api samples), near 0 shut. */
  eyeAspectRatio: number;
  /**
   * The distance between the mouth's corners in the face frame (IOD), which a smile widens (`smileIndex`); absent in
   * frames stored before it.
   */
  mouthWidth?: number;
}

export interface FaceData {
  box: Box;
  /** Detection confidence 0..1. */
  score: number;
  /** 478 points [x, y, z] in frame pixels (468 face mesh + 10 iris). */
  landmarks: [number, number, number][];
  pose: HeadPose;
  expressions: ExpressionScores;
  eyes: EyeFeatures | null;
  /** Null without a full mesh (computed while the landmarks are still there; a session keeps these, not the landmarks). */
  actionUnits?: FrameActionUnits | null;
  /** The iris's diameter in frame pixels (`irisDiameterPx`, decision 043), null without iris landmarks. */
  irisPx?: number | null;
  /** Multi-face mode: the person's stable id across frames (`FaceTracker`), from 1. */
  track?: number;
}

export interface FrameData {
  /** Index among the sampled frames. */
  index: number;
  /** Seconds on the recording's clock. */
  time: number;
  faceCount: number;
  /** The main face (the largest), or null. */
  face: FaceData | null;
  /** Every face, in multi-face mode only. */
  faces?: FaceData[];
  /** Mean luma of the frame, 0..1. */
  brightness: number;
  flags: QualityFlag[];
}

/** A point on the respondent's screen, CSS pixels. */
export interface ScreenPoint {
  x: number;
  y: number;
}

export interface Screen {
  width: number;
  height: number;
}

/**
 * The stimulus event log the respondent's browser writes. `t` is milliseconds on the recording's
 * clock (0 = first recorded frame). Only the events the engine reads are typed here.
 */
export type StimulusEvent =
  | { type: 'calibration_start'; t: number }
  /** The calibration dot jumped to (x, y) and stays there until the next dot event. */
  | { type: 'calibration_dot'; t: number; x: number; y: number; validation?: boolean }
  | { type: 'calibration_end'; t: number }
  | { type: string; t: number; [key: string]: unknown };

export interface EventLog {
  screen: Screen;
  events: StimulusEvent[];
}

export type GazeResult =
  | {
      status: 'calibrated';
      /** Mean error on held-out validation points. */
      accuracyPx: number;
      accuracyPercentOfDiagonal: number;
      trainingSamples: number;
      validationSamples: number;
      /** Fitted on every calibration frame, validation dots included: the model gaze is read with. */
      model: GazeModel;
      /** Fitted on the training dots alone: the model the accuracy figures measure on the validation dots. */
      heldOutModel: GazeModel;
    }
  | { status: 'calibration_failed'; reason: string };

export interface GazeModel {
  kind: 'ridge';
  lambda: number;
  /** Feature means and scales used to standardise inputs. */
  mean: number[];
  scale: number[];
  weightsX: number[];
  weightsY: number[];
  screen: Screen;
}

export interface FrameGaze {
  time: number;
  /** Null when no eye features were found in the frame. */
  point: ScreenPoint | null;
  onScreen: boolean;
}
