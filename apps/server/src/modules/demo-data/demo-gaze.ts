import { letterbox } from '@emolens/engine';
import type { Look } from './demo-eyes.ts';
import type { RecordedJourney } from './demo-respondent.ts';

/**
 * Where a demo respondent looks during their recording, as the page shows things: the countdown in the middle,
 * the calibration dot followed as it moves, each validation dot after the eyes' reaction time, then the video's
 * points of interest one fixation after another. Turned into the irises' movement by `drawEyes`; the engine then
 * measures it like any respondent's.
 */

/** A fixation on a slide of the content: when it starts (seconds into the slide) and where (fractions of the slide). */
export interface Fixation {
  at: number;
  x: number;
  y: number;
}

/** The content as the page plays it: its size, each slide's length and the fixations on each slide. */
export interface ViewedContent {
  width: number;
  height: number;
  slideSeconds: number;
  fixations: readonly (readonly Fixation[])[];
}

type Screen = { width: number; height: number };
type Target = { t: number; x: number; y: number };

/** The eyes trail a moving dot by about this much (smooth pursuit), and jump to a new one after a reaction time. */
const PURSUIT_LAG_MS = 80;
const SACCADE_LATENCY_MS = 220;
/** How far respondents' fixations differ from one another: a share of the content's size, and seconds. */
const SPREAD = { place: 0.04, time: 0.25 } as const;

/** A deterministic number in [−1, 1] for (`seed`, `n`): respondents differ, a retried seeding does not. */
function wobble(seed: number, n: number): number {
  const s = Math.sin(seed * 12.9898 + n * 78.233) * 43_758.5453;
  return 2 * (s - Math.floor(s)) - 1;
}

function dotTargets(journey: RecordedJourney): Target[] {
  const targets: Target[] = [];
  for (const e of journey.events) {
    if (e.type === 'calibration_dot') targets.push({ t: e.t + PURSUIT_LAG_MS, x: e.x, y: e.y });
    if (e.type === 'validation_dot') targets.push({ t: e.t + SACCADE_LATENCY_MS, x: e.x, y: e.y });
  }
  return targets;
}

function contentTargets(start: number, screen: Screen, content: ViewedContent, seed: number): Target[] {
  const rect = letterbox(content, screen);
  return content.fixations.flatMap((slide, s) =>
    slide.map((f, i) => {
      const n = s * 16 + i;
      const x = Math.min(1, Math.max(0, f.x + SPREAD.place * wobble(seed, n)));
      const y = Math.min(1, Math.max(0, f.y + SPREAD.place * wobble(seed, n + 7)));
      const at = s * content.slideSeconds + Math.max(0, f.at + (i > 0 ? SPREAD.time * wobble(seed, n + 11) : 0));
      return { t: start + at * 1000, x: rect.x + x * rect.width, y: rect.y + y * rect.height };
    }),
  );
}

/**
 * The respondent's look over the recording of `journey` on `screen`: the screen point they fixate at each moment,
 * as −1 … 1 from the screen's centre. `seed` varies the fixations on the content between respondents.
 */
export function lookPath(journey: RecordedJourney, screen: Screen, content: ViewedContent, seed: number) {
  const centre = { x: screen.width / 2, y: screen.height / 2 };
  const at = (type: string) => journey.events.find((e) => e.type === type)?.t;
  const validated = at('validation_end');
  const play = at('video_play');
  const ended = at('video_ended');
  const targets: Target[] = [
    { t: 0, ...centre },
    ...dotTargets(journey),
    ...(validated === undefined ? [] : [{ t: validated + SACCADE_LATENCY_MS, ...centre }]),
    ...(play === undefined ? [] : contentTargets(play, screen, content, seed)),
    ...(ended === undefined ? [] : [{ t: ended + SACCADE_LATENCY_MS, ...centre }]),
  ].sort((a, b) => a.t - b.t);
  return (ms: number): Look => {
    let target = targets[0] as Target;
    for (const candidate of targets) {
      if (candidate.t > ms) break;
      target = candidate;
    }
    const clamp = (v: number) => Math.min(1, Math.max(-1, v));
    return { x: clamp((2 * target.x) / screen.width - 1), y: clamp((2 * target.y) / screen.height - 1) };
  };
}
