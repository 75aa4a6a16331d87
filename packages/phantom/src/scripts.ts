/**
 * Named phantom scripts: each one condition, 10 s at 30 fps on a 640 × 480 frame unless it says otherwise, built for
 * a face source and a seed (the seed orders points and places blinks; the same seed gives the same script).
 */
import { seeded, shuffled } from './random.ts';
import { parseScript, type Script, type ScriptInput } from './script.ts';

const SCREEN = { widthPx: 1920, heightPx: 1080 };
const centre = { x: SCREEN.widthPx / 2, y: SCREEN.heightPx / 2 };
const lookAtCentre = (endMs: number) => [{ kind: 'fixation' as const, startMs: 0, endMs, at: centre }];

type Builder = (rand: () => number, source: string) => Omit<ScriptInput, 'name' | 'source' | 'seed' | 'description'>;

/** A few blinks at seeded times between `fromMs` and `toMs`, at least 1 s apart. */
function blinksBetween(rand: () => number, fromMs: number, toMs: number, count: number) {
  const span = (toMs - fromMs) / count;
  return Array.from({ length: count }, (_, i) => ({
    startMs: Math.round(fromMs + i * span + rand() * Math.max(0, span - 1000)),
    durationMs: 150,
  }));
}

/**
 * Where a viewer looks away, in shares of the screen (off it), and the head turn that goes with it (decision 037's
 * convention: yaw + to the image's left, pitch + down, roll + clockwise): a phone under the screen, a window on the
 * viewer's left (the head turns to the image's right). The look-away phantom and the demo's respondents
 * (apps/server demo-phantoms.ts) look at these.
 */
export const LOOK_AWAY = {
  phone: { at: { x: 0.45, y: 1.45 }, pose: { yaw: -3, pitch: 16, roll: 0 } },
  window: { at: { x: -0.6, y: 0.35 }, pose: { yaw: -20, pitch: -2, roll: 2 } },
} as const;

const smileAt = (onsetMs: number, intensity: number) => ({
  kind: 'smile' as const,
  intensity,
  onsetMs,
  apexMs: onsetMs + 600,
  offsetMs: onsetMs + 2600,
  endMs: onsetMs + 3400,
});

export const SCRIPTS: Record<string, { description: string; build: Builder }> = {
  neutral: {
    description: 'no expression, eyes on the screen centre, no blink: the false-alarm baseline',
    build: () => ({ durationMs: 10_000, gaze: lookAtCentre(10_000) }),
  },
  'smile-moderate': {
    description: 'two smiles of intensity 0.5 (onset 2.0 s and 6.0 s, 0.6 s to apex, 2 s held), neutral between',
    build: () => ({
      durationMs: 10_000,
      gaze: lookAtCentre(10_000),
      expressions: [smileAt(2000, 0.5), smileAt(6000, 0.5)],
    }),
  },
  'smile-strong': {
    description: 'one smile of intensity 1 from 3 s',
    build: () => ({ durationMs: 10_000, gaze: lookAtCentre(10_000), expressions: [smileAt(3000, 1)] }),
  },
  surprise: {
    description: 'surprise (brows up, eyes and mouth open) at 3 s: 0.25 s to apex, held 1.5 s',
    build: () => ({
      durationMs: 10_000,
      gaze: lookAtCentre(10_000),
      expressions: [{ kind: 'surprise', intensity: 1, onsetMs: 3000, apexMs: 3250, offsetMs: 4750, endMs: 5500 }],
    }),
  },
  frown: {
    description: 'frown (brows down and together) of intensity 0.8 at 3 s, held 3 s',
    build: () => ({
      durationMs: 10_000,
      gaze: lookAtCentre(10_000),
      expressions: [{ kind: 'frown', intensity: 0.8, onsetMs: 3000, apexMs: 3800, offsetMs: 6000, endMs: 7000 }],
    }),
  },
  'gaze-9-points': {
    description:
      'fixations of 1 s on a 3 × 3 grid (10 %, 50 %, 90 % of the screen) in a seeded order, saccades between',
    build: (rand) => {
      const grid = [0.1, 0.5, 0.9].flatMap((fy) =>
        [0.1, 0.5, 0.9].map((fx) => ({ x: fx * SCREEN.widthPx, y: fy * SCREEN.heightPx })),
      );
      const points = [centre, ...shuffled(grid, rand)];
      return {
        durationMs: 10_000,
        gaze: points.map((at, i) => ({ kind: 'fixation' as const, startMs: i * 1000, endMs: (i + 1) * 1000, at })),
      };
    },
  },
  pursuit: {
    description:
      'smooth pursuit: a circle of radius 0.35 of the screen height in 6 s, then a left-to-right sweep in 3 s',
    build: () => {
      const circle = Array.from({ length: 65 }, (_, k) => ({
        x: centre.x + 0.35 * SCREEN.heightPx * Math.cos((2 * Math.PI * k) / 64),
        y: centre.y + 0.35 * SCREEN.heightPx * Math.sin((2 * Math.PI * k) / 64),
      }));
      return {
        durationMs: 10_000,
        gaze: [
          { kind: 'fixation', startMs: 0, endMs: 500, at: circle[0] as { x: number; y: number } },
          { kind: 'pursuit', startMs: 500, endMs: 6500, path: circle },
          { kind: 'fixation', startMs: 6500, endMs: 7000, at: { x: 0.1 * SCREEN.widthPx, y: centre.y } },
          {
            kind: 'pursuit',
            startMs: 7000,
            endMs: 10_000,
            path: [
              { x: 0.1 * SCREEN.widthPx, y: centre.y },
              { x: 0.9 * SCREEN.widthPx, y: centre.y },
            ],
          },
        ],
      };
    },
  },
  blinks: {
    description: 'six blinks of 150 ms at seeded times, eyes on the centre',
    build: (rand) => ({ durationMs: 10_000, gaze: lookAtCentre(10_000), blinks: blinksBetween(rand, 500, 9500, 6) }),
  },
  'pose-sweep': {
    description: 'yaw −25° → 25°, pitch −20° → 20°, roll −20° → 20°, eyes kept on the screen centre',
    build: () => ({
      durationMs: 10_000,
      gaze: lookAtCentre(10_000),
      pose: [
        { t: 0, yaw: 0 },
        { t: 1500, yaw: -25 },
        { t: 3500, yaw: 25 },
        { t: 4500, yaw: 0 },
        { t: 5500, pitch: -20 },
        { t: 6500, pitch: 20 },
        { t: 7300, pitch: 0 },
        { t: 8100, roll: -20 },
        { t: 9200, roll: 20 },
        { t: 10_000, roll: 0 },
      ],
    }),
  },
  sizes: {
    description: 'face width 120, 240 and 400 px (3 s each, 0.3 s between), a smile of 0.6 in the middle of each',
    build: () => ({
      durationMs: 10_000,
      gaze: lookAtCentre(10_000),
      faceWidth: [
        { t: 0, px: 120 },
        { t: 3000, px: 120 },
        { t: 3300, px: 240 },
        { t: 6300, px: 240 },
        { t: 6600, px: 400 },
      ],
      expressions: [500, 3800, 7100].map((onsetMs) => ({
        kind: 'smile' as const,
        intensity: 0.6,
        onsetMs,
        apexMs: onsetMs + 500,
        offsetMs: onsetMs + 1700,
        endMs: onsetMs + 2200,
      })),
    }),
  },
  dim: {
    description: 'a dim room (light level 0.25, noisier) with a smile of 0.6 at 4 s',
    build: () => ({
      durationMs: 10_000,
      gaze: lookAtCentre(10_000),
      light: [{ t: 0, level: 0.25, side: 0 }],
      expressions: [smileAt(4000, 0.6)],
    }),
  },
  'side-light': {
    description: 'light from the image’s left (side 0.8 → the right half darker) with a smile of 0.6 at 4 s',
    build: () => ({
      durationMs: 10_000,
      gaze: lookAtCentre(10_000),
      light: [{ t: 0, level: 0.9, side: -0.8 }],
      expressions: [smileAt(4000, 0.6)],
    }),
  },
  occluded: {
    description: 'a smile of 0.6 at 1 s; a hand over the mouth 4.5–6.5 s and over the right eye 7.5–9.5 s',
    build: () => ({
      durationMs: 10_000,
      gaze: lookAtCentre(10_000),
      expressions: [{ kind: 'smile', intensity: 0.6, onsetMs: 1000, apexMs: 1600, offsetMs: 3000, endMs: 3800 }],
      occlusions: [
        { startMs: 4500, endMs: 6500, region: 'mouth' },
        { startMs: 7500, endMs: 9500, region: 'right-eye' },
      ],
    }),
  },
  away: {
    description: 'eyes on the screen centre; the respondent steps out of view 3–6 s (the room only) and comes back',
    build: () => ({ durationMs: 10_000, gaze: lookAtCentre(10_000), absences: [{ startMs: 3000, endMs: 6000 }] }),
  },
  'turned-away': {
    description:
      'eyes on the screen centre; the head turns 40° aside 3–6 s (past the 30° "head turned" limit) and back',
    build: () => ({
      durationMs: 10_000,
      gaze: lookAtCentre(10_000),
      pose: [
        { t: 0, yaw: 0 },
        { t: 2600, yaw: 0 },
        { t: 3000, yaw: 40 },
        { t: 6000, yaw: 40 },
        { t: 6400, yaw: 0 },
        { t: 10_000, yaw: 0 },
      ],
    }),
  },
  'look-away': {
    description:
      'a neutral face that looks away as viewers do: down at a phone below the screen 2–5 s (head 16° down), then ' +
      'out of a window on the left 6.5–9 s (head 20° aside), the eyes off the screen both times',
    build: () => {
      const rest = { yaw: 0, pitch: 0, roll: 0 };
      const at = ({ x, y }: { x: number; y: number }) => ({ x: x * SCREEN.widthPx, y: y * SCREEN.heightPx });
      const { phone, window } = LOOK_AWAY;
      const look = (startMs: number, endMs: number) => ({ kind: 'fixation' as const, startMs, endMs, at: centre });
      const away = (startMs: number, endMs: number, share: { x: number; y: number }) => ({
        kind: 'away' as const,
        startMs,
        endMs,
        at: at(share),
      });
      return {
        durationMs: 10_000,
        gaze: [
          look(0, 1800),
          away(1800, 5200, phone.at),
          look(5200, 6300),
          away(6300, 9200, window.at),
          look(9200, 10_000),
        ],
        pose: [
          { t: 0, ...rest },
          { t: 1800, ...rest },
          { t: 2200, ...phone.pose },
          { t: 4800, ...phone.pose },
          { t: 5200, ...rest },
          { t: 6300, ...rest },
          { t: 6700, ...window.pose },
          { t: 8800, ...window.pose },
          { t: 9200, ...rest },
          { t: 10_000, ...rest },
        ],
      };
    },
  },
  'second-person': {
    description: 'eyes on the screen centre; a second person (another face) beside the respondent 3–6.5 s',
    build: (_rand, source) => ({
      durationMs: 10_000,
      gaze: lookAtCentre(10_000),
      companions: [{ source: otherFace(source), startMs: 3000, endMs: 6500, x: 0.87, y: 0.45, widthPx: 130 }],
    }),
  },
};

export const SCRIPT_NAMES = Object.keys(SCRIPTS);

/** Another face than `source`'s, for a second person in the frame. */
const otherFace = (source: string) => (source === 'sample6-0' ? 'sample3-0' : 'sample6-0');

/** A named script for a face source and seed; `overrides` (fps, frame) replace the defaults. */
export function namedScript(name: string, source: string, seed = 1, overrides: Partial<ScriptInput> = {}): Script {
  const entry = SCRIPTS[name];
  if (!entry) throw new Error(`unknown script ${name}: ${SCRIPT_NAMES.join(', ')}`);
  const built = entry.build(seeded(seed), source);
  const fps = overrides.fps ?? 30;
  return parseScript({
    ...built,
    ...overrides,
    name: fps === 30 ? name : `${name}-${fps}fps`,
    description: entry.description,
    source,
    seed,
    blinks: overrides.blinks ?? built.blinks ?? [],
  });
}

/**
 * The fixed set a validation run generates: every script on three faces, the gaze and blink scripts also at 15 fps.
 * The photos' own poses (the engine's face axes and convention, yaw/pitch/roll): astronaut 1°/−5°/4°, sample3-0
 * 15°/−9°/1°, sample6-0 −12°/1°/−11° (the 23 faces' median pitch −6°). The further a photo is from frontal, the more a
 * phantom turned the other way stretches its far cheek (saw-toothed at the outline).
 */
export const VALIDATION_SOURCES = ['astronaut', 'sample3-0', 'sample6-0'] as const;

/**
 * The demo's other faces (apps/server demo-script.ts; its test checks every demo face is here or above): the full
 * validation set runs the look-away phantom on them too, since looking away reads differently from face to face
 * (decision 079).
 */
export const LOOK_AWAY_SOURCES = ['sample1-2', 'sample2-1', 'sample2-2', 'sample4-3', 'sample5-0'] as const;

export function validationSet(seed = 1): Script[] {
  const scripts: Script[] = [];
  for (const source of VALIDATION_SOURCES) {
    for (const name of SCRIPT_NAMES) scripts.push(namedScript(name, source, seed));
    for (const name of ['gaze-9-points', 'blinks']) scripts.push(namedScript(name, source, seed, { fps: 15 }));
  }
  return scripts;
}
