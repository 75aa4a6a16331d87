/**
 * A planned session as a phantom's gaze: the calibration's moving dot as short pursuits between the logged dot
 * positions (the page logs the dot every 100 ms and the eyes follow it), each still target as a fixation after a
 * saccade, so the recording's eyes and the event log agree as a real respondent's do.
 */
import type { GazeItem, ScriptInput } from '../script.ts';
import type { GazeKey, PlannedSession } from './session-plan.ts';

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
