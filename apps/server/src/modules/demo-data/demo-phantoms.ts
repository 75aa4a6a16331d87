import { letterbox, prng } from '@emolens/engine';
import { type GazeItem, gazeItems, LOOK_AWAY, parseScript, type Script } from '@emolens/phantom';
import type { RecordedJourney } from './demo-respondent.ts';
import {
  DEMO_FIXATIONS,
  type DemoPersona,
  type LookAway,
  type Reaction,
  SLIDE_SECONDS,
  SLIDES,
  type Slide,
} from './demo-script.ts';

/**
 * A demo respondent as a phantom (packages/phantom, decision 030; decision 034): the persona's behaviour
 * (demo-script.ts) laid on their recorded journey — the page's countdown, the calibration dot (followed, or not),
 * the validation dots, then the video, whose slides they look at, smile at, are surprised by or look away from —
 * as a phantom script on the recording's clock. The phantom draws it; the engine measures it like any recording.
 */

/** The webcam's picture: what the phantom draws. */
export const WEBCAM = { width: 640, height: 480, fps: 15 } as const;

/** The eyes reach a still dot about this long after it appears (a saccade's latency). */
const SACCADE_LATENCY_MS = 200;
/** How far respondents' fixations differ from one another: a share of the content's size, and seconds. */
const SPREAD = { place: 0.04, time: 0.25 } as const;
/** A turn of the head to a phone or a window takes this long each way. */
const TURN_MS = 400;
/** A surprise lifts the head a little (pitch − is up), at full intensity by this much. */
const SURPRISE_LIFT = -4;

type Point = { x: number; y: number };
type Pose = { yaw: number; pitch: number; roll: number };
type PoseKey = Pose & { t: number };

/** The moment (ms on the recording's clock) of `at` seconds into `slide`, given the video's start. */
const slideMs = (play: number, slide: Slide, at: number) => play + (SLIDES.indexOf(slide) * SLIDE_SECONDS + at) * 1000;

/** The journey's event times the script hangs on. */
function timesOf(journey: RecordedJourney) {
  const at = (type: string) => {
    const event = journey.events.find((e) => e.type === type);
    if (!event) throw new Error(`the demo journey has no ${type}`);
    return event.t;
  };
  return {
    calibrationStart: at('calibration_start'),
    calibrationEnd: at('calibration_end'),
    validationEnd: at('validation_end'),
    play: at('video_play'),
    ended: at('video_ended'),
  };
}

/** The calibration as the eyes do it: following the dot, or at the phone with one look up at the screen. */
function calibrationGaze(journey: RecordedJourney, persona: DemoPersona, screen: Point): GazeItem[] {
  const { calibrationStart: start, calibrationEnd: end } = timesOf(journey);
  if (persona.behaviour.followsDot) {
    const keys = journey.events.flatMap((e) => (e.type === 'calibration_dot' ? [{ t: e.t, x: e.x, y: e.y }] : []));
    return gazeItems([...keys, { ...(keys.at(-1) ?? { x: 0, y: 0 }), t: end }]);
  }
  const phone = { x: LOOK_AWAY.phone.at.x * screen.x, y: LOOK_AWAY.phone.at.y * screen.y };
  const glance = start + 0.45 * (end - start);
  return [
    { kind: 'away', startMs: start, endMs: glance, at: phone },
    { kind: 'fixation', startMs: glance, endMs: glance + 900, at: { x: screen.x / 2, y: screen.y / 2 } },
    { kind: 'away', startMs: glance + 1100, endMs: end, at: phone },
  ];
}

/** Each still validation dot, fixated after the eyes' latency until the next one. */
function validationGaze(journey: RecordedJourney): GazeItem[] {
  const dots = journey.events.flatMap((e) => (e.type === 'validation_dot' ? [e] : []));
  const { validationEnd } = timesOf(journey);
  return dots.map((dot, i) => ({
    kind: 'fixation',
    startMs: dot.t + SACCADE_LATENCY_MS,
    endMs: dots[i + 1]?.t ?? validationEnd,
    at: { x: dot.x, y: dot.y },
  }));
}

/** A number in [−1, 1] from the respondent's own seeded sequence. */
const wobble = (rand: () => number) => 2 * rand() - 1;

/**
 * The video's fixations (DEMO_FIXATIONS, each respondent a little apart in place and time) on the letterboxed
 * content, with the look-aways cut in: the eyes leave for the phone or the window and come back to where the slide's
 * fixations have got to by then.
 */
function videoGaze(persona: DemoPersona, play: number, ended: number, content: Size, rand: () => number): GazeItem[] {
  const screen = persona.screen;
  const rect = letterbox(content, screen);
  const onScreen = (f: Point) => ({
    x: rect.x + Math.min(1, Math.max(0, f.x + SPREAD.place * wobble(rand))) * rect.width,
    y: rect.y + Math.min(1, Math.max(0, f.y + SPREAD.place * wobble(rand))) * rect.height,
  });
  const fixations = DEMO_FIXATIONS.flatMap((slide, s) =>
    slide.map((f, i) => ({
      t: play + (s * SLIDE_SECONDS + Math.max(0, f.at + (i > 0 ? SPREAD.time * wobble(rand) : 0))) * 1000,
      at: onScreen(f),
    })),
  );
  const aways = persona.behaviour.lookAways.map((a) => awayWindow(a, play, screen));
  const starts = [...fixations.map((f) => f.t), ...aways.map((a) => a.t), ...aways.map((a) => a.end)];
  const until = (t: number) => Math.min(ended, ...starts.filter((s) => s > t));
  const items: GazeItem[] = fixations
    .filter((f) => !aways.some((a) => f.t >= a.t && f.t < a.end))
    .map((f) => ({ kind: 'fixation', startMs: f.t, endMs: until(f.t), at: f.at }));
  for (const a of aways) {
    items.push({ kind: 'away', startMs: a.t, endMs: a.end, at: a.at });
    // Back to where the slide's fixations have got to by then.
    const current = fixations.filter((f) => f.t <= a.end).at(-1);
    if (current && a.end < ended) items.push({ kind: 'fixation', startMs: a.end, endMs: until(a.end), at: current.at });
  }
  return items.sort((a, b) => a.startMs - b.startMs);
}

interface Size {
  width: number;
  height: number;
}

/** A look away on the recording's clock: from when to when the eyes are off the screen, and where. */
function awayWindow(a: LookAway, play: number, screen: Size) {
  const t = slideMs(play, a.slide, a.at);
  const { x, y } = LOOK_AWAY[a.where].at;
  return { t, end: t + a.seconds * 1000, at: { x: x * screen.width, y: y * screen.height } };
}

/** The head: still while the dots are on, swaying a little over the video, turned with each look away. */
function headPose(persona: DemoPersona, times: ReturnType<typeof timesOf>, rand: () => number): PoseKey[] {
  const rest: Pose = { yaw: 3 * wobble(rand), pitch: 2 * wobble(rand), roll: 2 * wobble(rand) };
  const keys: PoseKey[] = [{ t: 0, ...rest }];
  const shift = (p: Pose, by: Partial<Pose>): Pose => ({
    yaw: p.yaw + (by.yaw ?? 0),
    pitch: p.pitch + (by.pitch ?? 0),
    roll: p.roll + (by.roll ?? 0),
  });
  if (!persona.behaviour.followsDot) {
    // Looking down at the phone through the calibration, up at the screen once and for the validation dots.
    const phone = shift(rest, LOOK_AWAY.phone.pose);
    const glance = times.calibrationStart + 0.45 * (times.calibrationEnd - times.calibrationStart);
    keys.push(
      { t: times.calibrationStart, ...rest },
      { t: times.calibrationStart + TURN_MS, ...phone },
      { t: glance - 100, ...phone },
      { t: glance + 300, ...rest },
      { t: glance + 900, ...rest },
      { t: glance + 1100 + TURN_MS, ...phone },
      { t: times.calibrationEnd, ...phone },
      { t: times.calibrationEnd + TURN_MS, ...rest },
    );
  }
  keys.push({ t: times.play, ...rest });
  // Over the video the head shifts a few degrees every 2 s or so, each shift taking 300 ms (held between: a still
  // head is warped once, render.ts).
  let held: Pose = rest;
  for (let t = times.play + 1500 + 1000 * rand(); t < times.ended - 500; t += 1600 + 1000 * rand()) {
    keys.push({ t, ...held });
    held = shift(rest, { yaw: 3 * wobble(rand), pitch: 2 * wobble(rand), roll: 1.5 * wobble(rand) });
    keys.push({ t: t + 300, ...held });
  }
  keys.push({ t: times.ended, ...held }, { t: times.ended + 300, ...rest });
  // A surprise lifts the head a little; a look away turns it, and the sway stops meanwhile.
  let out = keys;
  for (const r of persona.behaviour.reactions.filter((x) => x.kind === 'surprise')) {
    const apex = slideMs(times.play, r.slide, r.apex);
    const around = out.filter((k) => k.t <= apex).at(-1) ?? { t: 0, ...rest };
    out = [
      ...out.filter((k) => Math.abs(k.t - apex) > 600),
      { ...shift(around, { pitch: SURPRISE_LIFT * r.intensity }), t: apex },
    ];
    out.sort((a, b) => a.t - b.t);
  }
  for (const a of persona.behaviour.lookAways) {
    const w = awayWindow(a, times.play, persona.screen);
    const turned = shift(rest, LOOK_AWAY[a.where].pose);
    out = [
      ...out.filter((k) => k.t < w.t - 200 || k.t > w.end + TURN_MS + 200),
      { t: w.t - 200, ...rest },
      { t: w.t + TURN_MS, ...turned },
      { t: w.end - 100, ...turned },
      { t: w.end + TURN_MS, ...rest },
    ];
    out.sort((a, b) => a.t - b.t);
  }
  const clamp = (v: number) => Math.round(Math.min(25, Math.max(-25, v)) * 100) / 100;
  return out.map((k) => ({ t: k.t, yaw: clamp(k.yaw), pitch: clamp(k.pitch), roll: clamp(k.roll) }));
}

/** Blinks at the persona's rate, at seeded times (0.5–1.5 of the mean interval apart), 130–220 ms each. */
function blinks(persona: DemoPersona, durationMs: number, rand: () => number) {
  const mean = 60_000 / persona.behaviour.blinksPerMinute;
  const out: { startMs: number; durationMs: number }[] = [];
  for (let t = 800 + rand() * mean; t < durationMs - 400; t += mean * (0.5 + rand()))
    out.push({ startMs: Math.round(t), durationMs: Math.round(130 + 90 * rand()) });
  return out;
}

const reactionOnClock = (r: Reaction, play: number) => ({
  kind: r.kind,
  intensity: r.intensity,
  onsetMs: slideMs(play, r.slide, r.onset),
  apexMs: slideMs(play, r.slide, r.apex),
  offsetMs: slideMs(play, r.slide, r.offset),
  endMs: slideMs(play, r.slide, r.end),
});

/** A screen of `inches` diagonal at the persona's CSS size: its physical width and height (cm). */
function screenCm(persona: DemoPersona) {
  const { width, height } = persona.screen;
  const diagonal = persona.display.inches * 2.54;
  const k = diagonal / Math.hypot(width, height);
  return { widthCm: width * k, heightCm: height * k };
}

/**
 * The phantom script of `persona`'s recording of `journey` (`durationMs` long), watching `content` (the slideshow's
 * frame size). `seed` makes respondents differ; the same seed gives the same recording and truth.
 */
export function demoPhantomScript(
  persona: DemoPersona,
  journey: RecordedJourney,
  content: Size,
  durationMs: number,
  seed: number,
): Script {
  const rand = prng(seed);
  const times = timesOf(journey);
  const { width, height } = persona.screen;
  const centre = { x: width / 2, y: height / 2 };
  const still = (startMs: number, endMs: number): GazeItem => ({ kind: 'fixation', startMs, endMs, at: centre });
  const gaze: GazeItem[] = [
    still(0, times.calibrationStart),
    ...calibrationGaze(journey, persona, { x: width, y: height }),
    ...validationGaze(journey),
    still(times.validationEnd + SACCADE_LATENCY_MS, times.play),
    ...videoGaze(persona, times.play, times.ended, content, rand),
    still(times.ended + SACCADE_LATENCY_MS, durationMs),
  ];
  return parseScript({
    name: persona.participant,
    description: `demo respondent ${persona.participant} watching the demo video (modules/demo-data/demo-script.ts)`,
    source: persona.source,
    seed,
    durationMs,
    fps: WEBCAM.fps,
    frame: { width: WEBCAM.width, height: WEBCAM.height },
    screen: {
      widthPx: width,
      heightPx: height,
      ...screenCm(persona),
      distanceCm: persona.display.distanceCm,
      cameraAboveCm: 1,
    },
    faceWidth: [{ t: 0, px: persona.face.widthPx }],
    position: { x: persona.face.x, y: persona.face.y },
    expressions: persona.behaviour.reactions.map((r) => reactionOnClock(r, times.play)),
    gaze,
    blinks: blinks(persona, durationMs, rand),
    pose: headPose(persona, times, rand),
  });
}
