import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserContext } from '@playwright/test';
import { ASTRONAUT } from './support.ts';

/**
 * A webcam that films a respondent who looks where they are asked to: Chromium's fake camera can only loop a
 * still photograph, whose eyes never follow the calibration dot, so no gaze model can be fitted from it. This
 * camera draws the astronaut's face (640×480) on a canvas and, while a calibration dot is on the screen, turns
 * the eyes and, a little, the head towards it: each eye opening is painted with the white of the eye and an iris
 * where the gaze puts it, the lids follow the iris up and down, and the face is rolled by a few degrees. The
 * engine then measures what it would measure on a real respondent: the accuracy figure it reports is its own fit
 * on these frames, not a value the test chose.
 *
 * Frames follow the dot, not a clock: the canvas is drawn and pushed to the stream (captureStream(0),
 * requestFrame) as soon as the dot's element appears, jumps or goes, and while it glides at most 15 times a
 * second; otherwise 10 times a second. On a starved machine the page's timers come late and bunched, and the
 * recorder drops frames it cannot encode in time: a camera drawn on a timer then shows the dot where it was
 * long before, and a new dot's first frame can come hundreds of milliseconds late. Drawn when the dot moves,
 * each frame shows the dot the page has just placed and logged; the modest rates keep the encoder's work low.
 *
 * The eyes are where the engine's face mesh finds them on this picture (the face crop below, 640×480, pixels):
 * the outer and inner corners, the height of the upper and lower lid at the middle, the iris centre.
 */
const EYES = [
  { outer: [254, 195], inner: [292, 194], upper: 184, lower: 199, iris: [273, 192] },
  { outer: [392, 199], inner: [350, 200], upper: 189, lower: 205, iris: [371, 197] },
] as const;
/**
 * The iris's radius, and how far its centre moves (pixels) between the screen's centre and its edge: at the
 * screen's left and right edges the iris reaches the eye's corners (the eyes are 38 and 42 px wide).
 */
const IRIS = { radius: 9, x: 11, y: 8 } as const;
/** How far the upper and lower lids follow the iris up and down, as a share of its movement. */
const LIDS = { upper: 0.6, lower: 0.3 } as const;
/** How far the head rolls (degrees) between the screen's centre and its left or right edge. */
const ROLL_DEGREES = 6;

/** The astronaut's face, cropped so it fills most of a 640×480 frame, as a JPEG data URL. */
function faceDataUrl(tmp: string): string {
  mkdirSync(tmp, { recursive: true });
  const file = resolve(tmp, 'looking-face.jpg');
  execFileSync('ffmpeg', [
    ...['-y', '-loglevel', 'error', '-i', ASTRONAUT],
    ...['-vf', 'crop=280:210:84:17,scale=640:480', '-q:v', '3', file],
  ]);
  return `data:image/jpeg;base64,${readFileSync(file).toString('base64')}`;
}

/** Every page of `context` films the looking face. */
export async function useLookingCamera(context: BrowserContext, tmp: string): Promise<void> {
  const install = readFileSync(resolve(import.meta.dirname, 'looking-camera.page.js'), 'utf8').trim();
  const setup = { face: faceDataUrl(tmp), eyes: EYES, iris: IRIS, lids: LIDS, roll: ROLL_DEGREES };
  await context.addInitScript({ content: `(${install.replace(/;$/, '')})(${JSON.stringify(setup)});` });
}
