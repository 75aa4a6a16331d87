import { fork } from 'node:child_process';
import { join } from 'node:path';
import { createHuman } from '@emolens/engine';
import { childExecArgv } from '@emolens/engine/pool';
import { lookPath } from './demo-gaze.ts';
import { makeWebcamClip, SLIDE } from './demo-media.ts';
import { recordedJourney } from './demo-respondent.ts';
import { DEMO_FIXATIONS, DEMO_PERSONAS, SLIDE_SECONDS } from './demo-script.ts';

/** What the demo respondents' webcam clips are made from: plain data, sent to the child process. */
export interface ClipsInput {
  dir: string;
  /** The respondents (DEMO_PERSONAS' participant ids), each clip written to `dir/<participant>.webm`. */
  participants: string[];
  link: { researchId: string; calibrationSeconds: number; videoSeconds: number };
  seconds: number;
}

const CHILD = join(import.meta.dirname, 'demo-clips-child.ts');

/**
 * Each respondent's webcam recording, made from their photo, their eyes following the journey on their screen (one
 * ffmpeg at a time). The engine finds the eyes on each photo: a few detections, but its models (~150 MB of native
 * memory that is never given back) would stay in the server for good, so this runs in a child process that exits
 * when the clips are written (decision 024).
 */
export function makeWebcamClips(input: ClipsInput): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], { execArgv: childExecArgv(1500), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let answer: { error?: string } | undefined;
    child.once('message', (message: { error?: string }) => {
      answer = message;
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (answer?.error) reject(new Error(`demo clips: ${answer.error}`));
      else if (!answer) reject(new Error(`demo clips: the child process ended (${signal ?? code}) before its answer`));
      else resolve();
    });
    child.send(input);
  });
}

/** In the child process: writes every clip. */
export async function writeWebcamClips(input: ClipsInput): Promise<void> {
  const engine = await createHuman({ skipFrames: 0 });
  const content = { ...SLIDE, slideSeconds: SLIDE_SECONDS, fixations: DEMO_FIXATIONS };
  for (const participant of input.participants) {
    const index = DEMO_PERSONAS.findIndex((p) => p.participant === participant);
    const persona = DEMO_PERSONAS[index];
    if (!persona) throw new Error(`no demo persona ${participant}`);
    const { researchId, calibrationSeconds, videoSeconds } = input.link;
    const journey = recordedJourney(researchId, persona.screen, calibrationSeconds, videoSeconds);
    // Seeded by the persona, so a respondent tried again looks as before.
    const look = lookPath(journey, persona.screen, content, index + 1);
    await makeWebcamClip(
      persona.photo,
      persona.crop,
      input.seconds,
      look,
      engine,
      join(input.dir, `${participant}.webm`),
    );
  }
}
