/** One phantom recording: every frame drawn, encoded to VP8, and its truth file written beside it. */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { vp8Encoder } from './encode.ts';
import { blank, writePng } from './image.ts';
import { type FrameTruth, type Phantom, preparePhantom, renderFrame } from './render.ts';
import { frameCount, type Script } from './script.ts';
import { type TruthFile, truthFile } from './truth.ts';

export interface Generated {
  video: string;
  truth: string;
  frames: number;
  /** Wall-clock time (ms): drawing, encoding (in parallel, in ffmpeg) and writing. */
  elapsedMs: number;
  /** Of which drawing the frames in this process. */
  drawMs: number;
  /** The recording was already in `dir`, made from the same inputs (`reuse`), and was not drawn again. */
  reused: boolean;
}

/** The engine's code the drawing uses (the face's axes and their angles, the seeded noise). */
const ENGINE_CODE_DRAWN_WITH = ['head-pose.ts', 'random.ts'].map((f) =>
  join(import.meta.dirname, '../../engine/src', f),
);

/**
 * The phantom's own code (not its tests, validation or upload tools) and the engine's it draws with: a change to
 * either may change every recording.
 */
let codeDigest: string | null = null;
function phantomCodeDigest(): string {
  if (codeDigest) return codeDigest;
  const hash = createHash('sha256');
  const src = import.meta.dirname;
  const files = readdirSync(src)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort()
    .map((f) => join(src, f));
  for (const f of [...files, ...ENGINE_CODE_DRAWN_WITH]) hash.update(f).update(readFileSync(f));
  codeDigest = hash.digest('hex');
  return codeDigest;
}

/**
 * What a recording is made from: the script, the phantom's code, and the face sources as the engine located them
 * (the rig, the companions' pictures). Equal inputs draw the same recording to the bit.
 */
function inputsDigest(phantom: Phantom): string {
  const { rig } = phantom;
  const hash = createHash('sha256')
    .update(phantomCodeDigest())
    .update(JSON.stringify(phantom.script))
    .update(JSON.stringify([rig.source.id, rig.width, rig.centre, rig.axes, rig.landmarks, rig.from, rig.extras]));
  for (const c of phantom.companions) hash.update(new Uint8Array(c.rgb.buffer, c.rgb.byteOffset, c.rgb.byteLength));
  return hash.digest('hex');
}

/** The recording's file name (without extension): the face source, then the script's name. */
export const recordingName = (script: Script) => `${script.source}--${script.name}`;

/**
 * `snapshots`: frame numbers also written as PNGs beside the recording (to look at). `reuse`: keep a recording already
 * in `dir` that was made from the same inputs (its digest in `<name>.inputs`) instead of drawing it again.
 */
export async function generate(
  script: Script,
  dir: string,
  { snapshots = [], reuse = false }: { snapshots?: readonly number[]; reuse?: boolean } = {},
): Promise<Generated> {
  const started = performance.now();
  mkdirSync(dir, { recursive: true });
  const name = recordingName(script);
  const video = join(dir, `${name}.webm`);
  const truthPath = join(dir, `${name}.truth.json`);
  const inputsPath = join(dir, `${name}.inputs`);
  const phantom = await preparePhantom(script);
  const digest = inputsDigest(phantom);
  const n = frameCount(script);
  if (
    reuse &&
    snapshots.length === 0 &&
    existsSync(video) &&
    existsSync(truthPath) &&
    existsSync(inputsPath) &&
    readFileSync(inputsPath, 'utf8') === digest
  )
    return { video, truth: truthPath, frames: n, elapsedMs: performance.now() - started, drawMs: 0, reused: true };
  // Until the new recording is whole, nothing in `dir` claims to be it, and a reader of the old one (another run
  // reusing it) keeps reading whole files: the new ones are written beside and renamed into place.
  rmSync(inputsPath, { force: true });
  const partial = join(dir, `${name}.${process.pid}.partial`);
  const { width, height } = script.frame;
  const encoder = vp8Encoder(`${partial}.webm`, { width, height }, script.fps, script.encode.bitrateKbps);
  const out = blank(width, height);
  const frames: FrameTruth[] = [];
  let drawMs = 0;
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    frames.push(renderFrame(phantom, i, out));
    drawMs += performance.now() - t;
    if (snapshots.includes(i)) writePng(out, join(dir, `${name}.${i}.png`));
    await encoder.write(out);
  }
  await encoder.close();
  const truth: TruthFile = truthFile(phantom, basename(video), frames);
  writeFileSync(`${partial}.json`, `${JSON.stringify(truth)}\n`);
  renameSync(`${partial}.webm`, video);
  renameSync(`${partial}.json`, truthPath);
  writeFileSync(inputsPath, digest);
  return { video, truth: truthPath, frames: n, elapsedMs: performance.now() - started, drawMs, reused: false };
}
