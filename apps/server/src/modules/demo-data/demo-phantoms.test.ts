import { LOOK_AWAY_SOURCES, VALIDATION_SOURCES } from '@emolens/phantom';
import { describe, expect, it } from 'vitest';
import { SLIDE } from './demo-media.ts';
import { demoPhantomScript } from './demo-phantoms.ts';
import { recordedJourney } from './demo-respondent.ts';
import { DEMO_PERSONAS, SLIDE_SECONDS, SLIDES } from './demo-script.ts';

/**
 * The demo respondents' phantom scripts (decision 034) against their journey: what each phantom is told to do, when,
 * on the recording's clock. The engine's reading of it is demo-data.test.ts's.
 */
const scriptOf = (index: number) => {
  const persona = DEMO_PERSONAS[index] ?? DEMO_PERSONAS[0];
  if (!persona) throw new Error('no personas');
  const journey = recordedJourney('research', persona.screen, 12, SLIDES.length * SLIDE_SECONDS);
  const play = journey.events.find((e) => e.type === 'video_play')?.t ?? Number.NaN;
  const script = demoPhantomScript(persona, journey, SLIDE, journey.recordingMs + 500, 101 + index);
  return { persona, journey, play, script };
};
const videoSecond = (play: number, ms: number) => (ms - play) / 1000;
const itemAt = <T extends { startMs: number }>(items: readonly T[], t: number) =>
  items.filter((i) => i.startMs <= t).at(-1);

describe('the demo phantoms', () => {
  it('smile at the cat and are surprised by the rocket, on the video clock', () => {
    let smiles = 0;
    for (const [i] of DEMO_PERSONAS.entries()) {
      const { script, play } = scriptOf(i);
      for (const e of script.expressions) {
        const slide = SLIDES[Math.floor(videoSecond(play, e.apexMs) / SLIDE_SECONDS)];
        if (e.kind === 'smile') {
          smiles++;
          expect(slide).toBe('cat');
        }
        if (e.kind === 'surprise') expect(slide).toBe('rocket');
      }
    }
    expect(smiles).toBeGreaterThanOrEqual(DEMO_PERSONAS.length - 1);
  });

  it('wear faces the validation measures looking away on (LOOK_AWAY_SOURCES, decision 079)', () => {
    const validated: readonly string[] = [...VALIDATION_SOURCES, ...LOOK_AWAY_SOURCES];
    for (const p of DEMO_PERSONAS) expect(validated, p.participant).toContain(p.source);
  });

  it('follow the calibration dot, but for the one who looks at a phone', () => {
    for (const [i] of DEMO_PERSONAS.entries()) {
      const { script, journey, persona } = scriptOf(i);
      const dots = journey.events.flatMap((e) => (e.type === 'calibration_dot' ? [e] : []));
      const middle = dots[Math.floor(dots.length / 3)];
      if (!middle) throw new Error('no dots');
      const item = itemAt(script.gaze, middle.t + 50);
      if (persona.behaviour.followsDot) {
        expect(item?.kind).toBe('pursuit');
        if (item?.kind === 'pursuit') expect(item.path[0]).toEqual({ x: middle.x, y: middle.y });
      } else {
        expect(item?.kind).toBe('away');
        if (item?.kind === 'away') expect(item.at.y).toBeGreaterThan(persona.screen.height);
      }
    }
  });

  it('look at the slides, bar the two who get bored and look away (head turned) during the coffee', () => {
    const bored = DEMO_PERSONAS.filter((p) => p.behaviour.lookAways.length > 0);
    expect(bored).toHaveLength(2);
    for (const [i] of DEMO_PERSONAS.entries()) {
      const { script, play, persona } = scriptOf(i);
      const video = script.gaze.filter((g) => g.startMs >= play && videoSecond(play, g.startMs) < 12);
      const away = video.filter((g) => g.kind === 'away');
      expect(away.length).toBe(persona.behaviour.lookAways.length);
      for (const g of away) {
        expect(SLIDES[Math.floor(videoSecond(play, g.startMs) / SLIDE_SECONDS)]).toBe('coffee');
        const inside = (p: { x: number; y: number }) =>
          p.x >= 0 && p.y >= 0 && p.x <= persona.screen.width && p.y <= persona.screen.height;
        if (g.kind === 'away') expect(inside(g.at)).toBe(false);
        const mid = (g.startMs + g.endMs) / 2;
        const pose = script.pose.filter((k) => k.t <= mid).at(-1);
        expect(Math.max(Math.abs(pose?.yaw ?? 0), Math.abs(pose?.pitch ?? 0))).toBeGreaterThan(10);
      }
      // Everyone else's video gaze is on the screen, every fixation.
      for (const g of video.filter((v) => v.kind === 'fixation'))
        if (g.kind === 'fixation') {
          expect(g.at.x).toBeGreaterThanOrEqual(0);
          expect(g.at.x).toBeLessThanOrEqual(persona.screen.width);
        }
    }
  });

  it('blink now and then, and the same seed gives the same script', () => {
    for (const [i] of DEMO_PERSONAS.entries()) {
      const { script, persona } = scriptOf(i);
      const expected = (persona.behaviour.blinksPerMinute * script.durationMs) / 60_000;
      expect(script.blinks.length).toBeGreaterThanOrEqual(0.5 * expected);
      expect(script.blinks.length).toBeLessThanOrEqual(1.6 * expected);
    }
    expect(scriptOf(2).script).toEqual(scriptOf(2).script);
    expect(scriptOf(2).script.blinks).not.toEqual(scriptOf(3).script.blinks);
  });
});
