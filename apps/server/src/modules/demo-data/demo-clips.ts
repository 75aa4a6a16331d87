import { fork } from 'node:child_process';
import { join } from 'node:path';
import { childExecArgv } from '@emolens/engine/pool';
import { generate } from '@emolens/phantom';
import { demoPhantomScript } from './demo-phantoms.ts';
import { recordedJourney } from './demo-respondent.ts';
import { DEMO_PERSONAS } from './demo-script.ts';

/** What the demo respondents' webcam clips are made from: plain data, sent to the child process. */
export interface ClipsInput {
  dir: string;
  /** The respondents (DEMO_PERSONAS' participant ids). */
  participants: string[];
  link: { researchId: string; calibrationSeconds: number; videoSeconds: number };
  /** The content's frame (the slideshow's), which the respondents' gaze is placed on. */
  content: { width: number; height: number };
  seconds: number;
}

/** One respondent's phantom recording (VP8 webm) and its truth file (JSON, packages/phantom truth.ts). */
export interface Clip {
  participant: string;
  video: string;
  truth: string;
}

const CHILD = join(import.meta.dirname, 'demo-clips-child.ts');

/** Children drawing at once: the machine's two cores (the server is otherwise idle while the clips are made). */
const CHILDREN = 2;

/**
 * Each respondent's webcam recording: a phantom (packages/phantom) of their face doing what demo-script.ts says
 * over their journey, handed to `onClip` as soon as it is written (that respondent can start while the others are
 * still being drawn). Drawing is CPU work, which never runs on the server's event loop: two child
 * processes, one a core, each drawing every other respondent, exit when their clips are written.
 */
export async function makeWebcamClips(input: ClipsInput, onClip: (clip: Clip) => void): Promise<void> {
  const shares = Array.from({ length: Math.min(CHILDREN, input.participants.length) }, (_, k) =>
    input.participants.filter((_, i) => i % CHILDREN === k),
  );
  await Promise.all(shares.map((participants) => inChild({ ...input, participants }, onClip)));
}

/** What a child says: each clip as it is written, then that it is done (or why it failed). */
export type ChildMessage = { clip: Clip } | { done: true } | { error: string };

function inChild(input: ClipsInput, onClip: (clip: Clip) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], { execArgv: childExecArgv(1500), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let ended: ChildMessage | undefined;
    child.on('message', (message: ChildMessage) => {
      if ('clip' in message) onClip(message.clip);
      else ended = message;
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (ended && 'error' in ended) reject(new Error(`demo clips: ${ended.error}`));
      else if (!ended) reject(new Error(`demo clips: the child process ended (${signal ?? code}) before its answer`));
      else resolve();
    });
    child.send(input);
  });
}

/** In the child process: every respondent's phantom drawn and encoded in turn, its truth file beside it. */
export async function writeWebcamClips(input: ClipsInput, onClip: (clip: Clip) => Promise<void>): Promise<void> {
  const { researchId, calibrationSeconds, videoSeconds } = input.link;
  for (const participant of input.participants) {
    const index = DEMO_PERSONAS.findIndex((p) => p.participant === participant);
    const persona = DEMO_PERSONAS[index];
    if (!persona) throw new Error(`no demo persona ${participant}`);
    const journey = recordedJourney(researchId, persona.screen, calibrationSeconds, videoSeconds);
    // Seeded by the persona, so a respondent tried again looks as before.
    const script = demoPhantomScript(persona, journey, input.content, input.seconds * 1000, 101 + index);
    const made = await generate(script, input.dir);
    await onClip({ participant, video: made.video, truth: made.truth });
  }
}
