/** One phantom recording: every frame drawn, encoded to VP8, and its truth file written beside it. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { vp8Encoder } from './encode.ts';
import { blank, writePng } from './image.ts';
import { type FrameTruth, preparePhantom, renderFrame } from './render.ts';
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
}

/** The recording's file name (without extension): the face source, then the script's name. */
export const recordingName = (script: Script) => `${script.source}--${script.name}`;

/** `snapshots`: frame numbers also written as PNGs beside the recording (to look at). */
export async function generate(script: Script, dir: string, snapshots: readonly number[] = []): Promise<Generated> {
  const started = performance.now();
  mkdirSync(dir, { recursive: true });
  const name = recordingName(script);
  const video = join(dir, `${name}.webm`);
  const truthPath = join(dir, `${name}.truth.json`);
  const phantom = await preparePhantom(script);
  const { width, height } = script.frame;
  const encoder = vp8Encoder(video, { width, height }, script.fps, script.encode.bitrateKbps);
  const out = blank(width, height);
  const frames: FrameTruth[] = [];
  let drawMs = 0;
  const n = frameCount(script);
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    frames.push(renderFrame(phantom, i, out));
    drawMs += performance.now() - t;
    if (snapshots.includes(i)) writePng(out, join(dir, `${name}.${i}.png`));
    await encoder.write(out);
  }
  await encoder.close();
  const truth: TruthFile = truthFile(phantom, basename(video), frames);
  writeFileSync(truthPath, `${JSON.stringify(truth)}\n`);
  return { video, truth: truthPath, frames: n, elapsedMs: performance.now() - started, drawMs };
}
