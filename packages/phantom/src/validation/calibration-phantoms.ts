/**
 * Two phantom respondents for the calibration check before the content (issue 31, item 3; decision 050): one whose
 * eyes follow the page's calibration and validation dots (a good calibration), and one whose face is a still photo
 * looking at the screen's centre the whole time (the face does not follow the dots: a poor calibration). Both log the
 * same page events; only the eyes differ. A short research follows, so the recording runs past the validation.
 */
import { generate } from '../generate.ts';
import { parseScript } from '../script.ts';
import { LAPTOP_SCREEN, type PlannedSession, planSession } from './session-plan.ts';
import { sessionScript } from './to-script.ts';

export interface CalibrationPhantom {
  video: string;
  plan: PlannedSession;
}

const FPS = 15;

/** The plan both share: the page's 12 s moving dot, its five validation dots, then 1.5 s at the centre. */
export function calibrationCheckPlan(): PlannedSession {
  const centre = { x: LAPTOP_SCREEN.width / 2, y: LAPTOP_SCREEN.height / 2 };
  return planSession({ content: [{ t: 0, ...centre }], researchMs: 1500 });
}

/** The two phantoms drawn into `dir` (kept there and reused while their inputs are the same). */
export async function calibrationPhantoms(
  dir: string,
  source = 'astronaut',
): Promise<{ following: CalibrationPhantom; still: CalibrationPhantom }> {
  const plan = calibrationCheckPlan();
  const script = sessionScript(plan);
  const following = parseScript({
    name: 'calibration-following',
    description: 'the eyes follow the calibration and validation dots',
    source,
    seed: 1,
    fps: FPS,
    ...script,
  });
  const centre = { x: plan.screen.width / 2, y: plan.screen.height / 2 };
  const still = parseScript({
    name: 'calibration-still',
    description: 'a still face looking at the centre: it does not follow the dots',
    source,
    seed: 1,
    fps: FPS,
    ...script,
    gaze: [{ kind: 'fixation', startMs: 0, endMs: plan.durationMs, at: centre }],
  });
  const [a, b] = [await generate(following, dir, { reuse: true }), await generate(still, dir, { reuse: true })];
  return { following: { video: a.video, plan }, still: { video: b.video, plan } };
}
