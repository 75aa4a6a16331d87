/**
 * A phantom's script: what the recording shows over time. Everything the truth file says comes from here (and from
 * the seed for the sensor noise), so the same script gives the same recording's truth.
 */
import { z } from 'zod';
import { EXPRESSION_KINDS } from './expressions.ts';

const ms = z.number().min(0);
const screenPoint = z.object({ x: z.number(), y: z.number() });

export const expressionEventSchema = z
  .object({
    kind: z.enum(EXPRESSION_KINDS),
    intensity: z.number().min(0).max(1),
    /** Starts rising. */
    onsetMs: ms,
    /** Reaches `intensity`. */
    apexMs: ms,
    /** Starts falling. */
    offsetMs: ms,
    /** Back to 0. */
    endMs: ms,
  })
  .refine((e) => e.onsetMs < e.apexMs && e.apexMs <= e.offsetMs && e.offsetMs < e.endMs, {
    message: 'expression times must be onset < apex ≤ offset < end',
  });

/** Gaze: fixations and pursuits in order; the eyes jump (a saccade) to each one's start from where the last left off. */
export const gazeItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fixation'), startMs: ms, endMs: ms, at: screenPoint }),
  /** Smooth pursuit along a polyline at a constant speed from startMs to endMs. */
  z.object({ kind: z.literal('pursuit'), startMs: ms, endMs: ms, path: z.array(screenPoint).min(2) }),
  /** Looking off the screen (the point may be outside it). */
  z.object({ kind: z.literal('away'), startMs: ms, endMs: ms, at: screenPoint }),
]);

/**
 * Up to ±25° the turned photo looks like a turned head; up to ±45° it is still drawn (the near side over the far one)
 * but the far cheek folds away with nothing behind it, so only the quality phantoms that must pass the engine's
 * "head turned" limits (30° of yaw, 25° of pitch) go there.
 */
const angle = z.number().min(-45).max(45).default(0);
const poseKey = z.object({ t: ms, yaw: angle, pitch: angle, roll: angle });

export const occlusionSchema = z.object({
  startMs: ms,
  endMs: ms,
  /** What the hand covers. */
  region: z.enum(['mouth', 'right-eye', 'left-cheek', 'chin']),
});

/** The respondent steps out of the camera's view: the frame shows the room only. */
export const absenceSchema = z.object({ startMs: ms, endMs: ms });

/** A second person comes into view beside the respondent: another face source, still, at a place and size. */
export const companionSchema = z.object({
  source: z.string(),
  startMs: ms,
  endMs: ms,
  /** The companion's face centre as a share of the frame's width and height. */
  x: z.number().min(0).max(1).default(0.85),
  y: z.number().min(0).max(1).default(0.45),
  widthPx: z.number().min(40).max(600).default(150),
});

/**
 * The phantoms' VP8 bitrate, kbit/s: a low-quality webcam recording, a third of what the respondent page's recorder asks
 * for (`RESPONDENT_LIMITS.videoBitsPerSecond`), so the phantoms are harder to read than a respondent's recording.
 */
export const PHANTOM_BITRATE_KBPS = 300;

export const scriptSchema = z.object({
  name: z.string().regex(/^[a-z0-9-]+$/),
  description: z.string(),
  /** Face source: `sample3-0` (face-api demo photo 3, first face from the left) … or `astronaut`. */
  source: z.string(),
  seed: z.number().int().default(1),
  durationMs: z.number().min(100),
  fps: z.union([z.literal(15), z.literal(30)]).default(30),
  frame: z
    .object({ width: z.number().int().min(160), height: z.number().int().min(120) })
    .default({ width: 640, height: 480 }),
  screen: z
    .object({
      widthPx: z.number().int().positive(),
      heightPx: z.number().int().positive(),
      widthCm: z.number().positive(),
      heightCm: z.number().positive(),
      distanceCm: z.number().positive(),
      cameraAboveCm: z.number().min(0),
    })
    .default({ widthPx: 1920, heightPx: 1080, widthCm: 34.5, heightCm: 19.4, distanceCm: 60, cameraAboveCm: 1 }),
  /** Face width (frame pixels, the cheeks' outer edges as if frontal) over time; linear between keys. */
  faceWidth: z
    .array(z.object({ t: ms, px: z.number().min(40).max(600) }))
    .min(1)
    .default([{ t: 0, px: 220 }]),
  /** The face's centre in the frame as a share of its width and height. */
  position: z.object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) }).default({ x: 0.5, y: 0.48 }),
  expressions: z.array(expressionEventSchema).default([]),
  gaze: z.array(gazeItemSchema).default([]),
  /**
   * Drift (issue 31 item 4): from `startMs` the eyes are drawn turned toward the gaze target plus an offset growing
   * by this many screen px a minute, while the truth keeps the target: what a calibration drifting since it was made
   * looks like to the gaze model (whatever moved: the head, the camera, the lighting). Null: none.
   */
  gazeDrift: z
    .object({ startMs: ms, xPerMinute: z.number().min(-2000).max(2000), yPerMinute: z.number().min(-2000).max(2000) })
    .nullable()
    .default(null),
  blinks: z.array(z.object({ startMs: ms, durationMs: z.number().min(50).max(600).default(150) })).default([]),
  pose: z
    .array(poseKey)
    .min(1)
    .default([{ t: 0, yaw: 0, pitch: 0, roll: 0 }]),
  /** Light level (1 as the photo, 0.25 dim) and side light (−1 lit from the image's left … 1 from its right). */
  light: z
    .array(z.object({ t: ms, level: z.number().min(0.05).max(1.5), side: z.number().min(-1).max(1) }))
    .min(1)
    .default([{ t: 0, level: 1, side: 0 }]),
  occlusions: z.array(occlusionSchema).default([]),
  absences: z.array(absenceSchema).default([]),
  companions: z.array(companionSchema).default([]),
  /** Sensor noise: standard deviation (0–255) at light level 1; it grows as the light falls (gain). */
  noise: z.number().min(0).max(30).default(2),
  encode: z
    .object({ codec: z.literal('vp8'), bitrateKbps: z.number().int().min(50).max(5000) })
    .default({ codec: 'vp8', bitrateKbps: PHANTOM_BITRATE_KBPS }),
});

export type Script = z.infer<typeof scriptSchema>;
export type ScriptInput = z.input<typeof scriptSchema>;
export type GazeItem = z.infer<typeof gazeItemSchema>;
export type Occlusion = z.infer<typeof occlusionSchema>;
export type Companion = z.infer<typeof companionSchema>;

export function parseScript(input: unknown): Script {
  return scriptSchema.parse(input);
}

/** Frame `i`'s time (ms) and the number of frames. */
export const frameTime = (script: Script, i: number) => (i * 1000) / script.fps;
export const frameCount = (script: Script) => Math.round((script.durationMs * script.fps) / 1000);
