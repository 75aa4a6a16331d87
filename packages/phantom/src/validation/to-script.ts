/**
 * A planned session as a phantom's gaze: the calibration's moving dot as short pursuits between the logged dot
 * positions (the page logs the dot every 100 ms and the eyes follow it), each still target as a fixation after a
 * saccade, so the recording's eyes and the event log agree as a real respondent's do.
 */
import { type GazeItem, parseScript, type Script, type ScriptInput } from '../script.ts';
import { type GazeKey, LAPTOP_SCREEN, type PlannedSession, planSession } from './session-plan.ts';

/** The plan's gaze keys as the script's gaze items (a still stretch is a fixation, a moving one a pursuit). */
export function gazeItems(keys: readonly GazeKey[]): GazeItem[] {
  const items: GazeItem[] = [];
  for (let i = 1; i < keys.length; i++) {
    const a = keys[i - 1] as GazeKey;
    const b = keys[i] as GazeKey;
    if (b.t <= a.t) continue;
    const still = a.x === b.x && a.y === b.y;
    items.push(
      still
        ? { kind: 'fixation', startMs: a.t, endMs: b.t, at: { x: a.x, y: a.y } }
        : {
            kind: 'pursuit',
            startMs: a.t,
            endMs: b.t,
            path: [
              { x: a.x, y: a.y },
              { x: b.x, y: b.y },
            ],
          },
    );
  }
  return items;
}

/** The script fields a planned session sets: its length, its screen and its gaze. */
export function sessionScript(plan: PlannedSession): Pick<ScriptInput, 'durationMs' | 'screen' | 'gaze'> {
  return {
    durationMs: plan.durationMs,
    screen: {
      widthPx: plan.screen.width,
      heightPx: plan.screen.height,
      widthCm: plan.screen.widthCm,
      heightCm: plan.screen.heightCm,
      distanceCm: plan.screen.distanceCm,
      cameraAboveCm: 1,
    },
    gaze: gazeItems(plan.gaze),
  };
}

/**
 * A named script played as the research of a full respondent session: the page's calibration (the moving dot) and
 * validation dots first, with a still, neutral face whose eyes follow the dots, then the script's own timeline shifted
 * to the research's start. The engine takes the respondent's resting face from that calibration, as it does for
 * every real respondent, so a face that smiles at rest is measured against itself.
 */
export function inCalibratedSession(script: Script): { script: Script; plan: PlannedSession } {
  const centre = { x: LAPTOP_SCREEN.width / 2, y: LAPTOP_SCREEN.height / 2 };
  const plan = planSession({ content: [{ t: 0, ...centre }], researchMs: script.durationMs });
  const at = plan.research.start;
  const keys = <K extends { t: number }>(list: readonly K[]) => list.map((k) => ({ ...k, t: k.t + at }));
  const shifted = parseScript({
    ...script,
    ...sessionScript(plan),
    expressions: script.expressions.map((e) => ({
      ...e,
      onsetMs: e.onsetMs + at,
      apexMs: e.apexMs + at,
      offsetMs: e.offsetMs + at,
      endMs: e.endMs + at,
    })),
    blinks: script.blinks.map((b) => ({ ...b, startMs: b.startMs + at })),
    pose: keys(script.pose),
    faceWidth: keys(script.faceWidth),
    light: keys(script.light),
    occlusions: script.occlusions.map((o) => ({ ...o, startMs: o.startMs + at, endMs: o.endMs + at })),
    absences: script.absences.map((o) => ({ ...o, startMs: o.startMs + at, endMs: o.endMs + at })),
    companions: script.companions.map((o) => ({ ...o, startMs: o.startMs + at, endMs: o.endMs + at })),
  });
  return { script: shifted, plan };
}
