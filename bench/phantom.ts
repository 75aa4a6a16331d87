// npm run bench:phantom — drawing phantom frames in-process (no encoding): CPU ms per frame, split by stage, and a
// SHA-256 of every frame's bytes and of the truth, so a faster drawing can be seen to draw the same pictures.
// Scripts: BENCH_PHANTOM_SCRIPTS (comma-separated names of packages/phantom/src/scripts.ts; default smile-moderate
// and gaze-9-points), face BENCH_PHANTOM_SOURCE (default astronaut), seed 1. Times are the process's CPU time
// (process.cpuUsage: user + system), steadier than wall time on a busy machine. Prints figures; asserts nothing.
import { createHash } from 'node:crypto';
import { blank } from '../packages/phantom/src/image.ts';
import { type FrameTruth, preparePhantom, renderFrame, type Stage } from '../packages/phantom/src/render.ts';
import { frameCount } from '../packages/phantom/src/script.ts';
import { namedScript } from '../packages/phantom/src/scripts.ts';

const STAGES: Stage[] = ['state', 'warp', 'mouth', 'eyes', 'hand', 'companions', 'light'];
const names = (process.env.BENCH_PHANTOM_SCRIPTS ?? 'smile-moderate,gaze-9-points').split(',').filter(Boolean);
const source = process.env.BENCH_PHANTOM_SOURCE ?? 'astronaut';

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const pad = (s: string, n: number) => s.padEnd(n);

const allFrames = createHash('sha256');
const allTruth = createHash('sha256');
const total = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
let totalFrames = 0;
let totalMs = 0;

for (const name of names) {
  const script = namedScript(name, source, 1);
  const prepStart = cpuMs();
  const phantom = await preparePhantom(script);
  const prepMs = cpuMs() - prepStart;
  const out = blank(script.frame.width, script.frame.height);
  const n = frameCount(script);
  const stages = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  const frames = createHash('sha256');
  const truths: FrameTruth[] = [];
  let last = 0;
  const lap = (stage: Stage) => {
    const now = cpuMs();
    stages[stage] += now - last;
    last = now;
  };
  for (let i = 0; i < n; i++) {
    last = cpuMs();
    truths.push(renderFrame(phantom, i, out, lap));
    frames.update(out.data);
    allFrames.update(out.data);
  }
  // The drawing alone (the stages), not the hashing between frames.
  const ms = STAGES.reduce((sum, s) => sum + stages[s], 0);
  const truth = JSON.stringify(truths);
  allTruth.update(truth);
  totalFrames += n;
  totalMs += ms;
  for (const s of STAGES) total[s] += stages[s];
  const split = STAGES.filter((s) => stages[s] > 0)
    .map((s) => `${s} ${(stages[s] / n).toFixed(2)}`)
    .join('  ');
  console.log(
    `${pad(`${source}--${name}`, 34)} ${n} frames  prepare ${prepMs.toFixed(0)} ms  ${(ms / n).toFixed(2)} ms/frame (${split})`,
  );
  console.log(
    `${pad('', 34)} frames sha256 ${frames.digest('hex')}  truth sha256 ${createHash('sha256').update(truth).digest('hex').slice(0, 16)}`,
  );
}

const split = STAGES.map((s) => `${s} ${(total[s] / totalFrames).toFixed(2)}`).join('  ');
console.log(`all: ${totalFrames} frames, ${(totalMs / totalFrames).toFixed(2)} CPU ms/frame (${split})`);
console.log(`all frames sha256 ${allFrames.digest('hex')}`);
console.log(`all truth sha256  ${allTruth.digest('hex')}`);
