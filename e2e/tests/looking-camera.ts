import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserContext } from '@playwright/test';
import { ASTRONAUT } from './support.ts';

/**
 * A webcam that films a respondent who looks where they are asked to: Chromium's fake camera can only loop a
 * still photograph, whose eyes never follow the calibration dot, so no gaze model can be fitted from it. This
 * camera draws the astronaut's face (640×480) on a canvas and, while a calibration dot is on the screen, turns
 * the irises and, a little, the head towards it: the irises are redrawn shifted inside each eye opening, and the
 * face is rolled by a few degrees. The engine then measures what it would measure on a real respondent: the
 * accuracy figure it reports is its own fit on these frames, not a value the test chose.
 *
 * The eye openings are where the engine found them on this picture (the face crop below, 640×480):
 * centres, widths and heights in pixels.
 */
const EYES = [
  { x: 272, y: 192, rx: 15, ry: 11 },
  { x: 370, y: 197, rx: 15, ry: 11 },
] as const;
/** How far the irises move (in eye radii) and the head rolls (degrees) between the screen's centre and edge. */
const IRIS_SHIFT = { x: 6, y: 9 } as const;
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
  const setup = { face: faceDataUrl(tmp), eyes: EYES, shift: IRIS_SHIFT, roll: ROLL_DEGREES };
  await context.addInitScript({ content: `(${install.replace(/;$/, '')})(${JSON.stringify(setup)});` });
}
