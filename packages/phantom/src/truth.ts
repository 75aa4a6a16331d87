/**
 * The truth file written beside each recording: the conditions and the geometry assumed, then every frame's state
 * as the generator put it in. Nothing in it is measured from the picture.
 */
import { EYE_MODEL } from './eyes.ts';
import type { FrameTruth, Phantom } from './render.ts';
import { frameCount, type Script } from './script.ts';

export const TRUTH_FORMAT = 'emolens-phantom-truth/1';

export interface TruthFile {
  format: typeof TRUTH_FORMAT;
  script: Script;
  recording: {
    file: string;
    width: number;
    height: number;
    fps: number;
    frames: number;
    durationMs: number;
    codec: string;
    bitrateKbps: number;
  };
  source: { id: string; photo: string; cropOrigin: { x: number; y: number }; landmarks: string };
  geometry: {
    screen: Script['screen'];
    camera: string;
    eyes: string;
    eyeModel: typeof EYE_MODEL & { pxPerMmAtSource: number };
    faceWidth: string;
    head: string;
    gaze: string;
  };
  expressions: string;
  frames: FrameTruth[];
}

export function truthFile(phantom: Phantom, file: string, frames: FrameTruth[]): TruthFile {
  const { script, rig, eyes } = phantom;
  return {
    format: TRUTH_FORMAT,
    script,
    recording: {
      file,
      width: script.frame.width,
      height: script.frame.height,
      fps: script.fps,
      frames: frameCount(script),
      durationMs: (frameCount(script) * 1000) / script.fps,
      codec: script.encode.codec,
      bitrateKbps: script.encode.bitrateKbps,
    },
    source: {
      id: rig.source.id,
      photo: rig.source.photo,
      cropOrigin: rig.source.origin,
      landmarks:
        "the engine's face mesh (468 points) and iris model, run once on the photo; its head axes (x: landmark 234 → 454, y: 10 → 152) are the phantom's frontal pose",
    },
    geometry: {
      screen: script.screen,
      camera: `centred horizontally on the screen, ${script.screen.cameraAboveCm} cm above its top edge, looking at the respondent`,
      eyes: `the eyes' midpoint ${script.screen.distanceCm} cm in front of the camera on its axis; each eye a ball turning about its centre ${EYE_MODEL.irisDepthMm} mm behind the iris; millimetres from the iris (${2 * EYE_MODEL.irisRadiusMm} mm across)`,
      eyeModel: { ...EYE_MODEL, pxPerMmAtSource: Math.round(eyes.perMm * 1000) / 1000 },
      faceWidth:
        'pixels between the cheeks’ outer edges (landmarks 234, 454) as if the head were frontal; the picture is a weak-perspective projection',
      head: 'degrees from the face’s own axes (the engine’s `faceAxes`, the photo’s own pose undone); right-handed about the camera’s axes (x right, y down, z away): yaw + turns the face to the image’s left, pitch + down, roll + clockwise on the image; applied as roll · yaw · pitch',
      gaze: 'the screen point (px, origin top left) both eyes look at; eyes[k].yaw/pitch: each eye’s rotation in the head (degrees, yaw + to the image’s left, pitch + down, as the head’s); irisPx: the iris centre in the frame',
    },
    expressions:
      'intensities 0–1 of the movements the generator adds to the photo; the photo’s own expression (often a smile) is the 0 of every scale',
    frames,
  };
}
