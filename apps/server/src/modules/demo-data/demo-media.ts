import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type FaceEngine, ffmpegPaths, runFfmpeg } from '@emolens/engine';
import { drawEyes, findMovingEyes, type Look } from './demo-eyes.ts';

/**
 * The demo project's files, made with ffmpeg (a child process: decoding and encoding never run on the event loop)
 * from real photographs that ship with the installation: the research's content (a slideshow) and each
 * respondent's webcam recording (a photo cropped to one face, its irises redrawn in each frame — a few hundred
 * pixels — to turn to what the page shows: demo-eyes.ts).
 */
const require = createRequire(import.meta.url);

/** face-api's demo photographs, installed with the engine (npm). */
export const FACE_API_PHOTOS = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');
/** scikit-image's sample data (Debian's python3-skimage): used when installed. */
export const SKIMAGE_PHOTOS = '/usr/lib/python3/dist-packages/skimage/data';

/** A region of a photo in its own pixels. */
export interface Crop {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The content's pictures: a cat, a coffee cup and a rocket when scikit-image is there, else face-api's photos. */
export function contentPhotos(): string[] {
  const skimage = ['chelsea.png', 'coffee.png', 'rocket.jpg'].map((f) => join(SKIMAGE_PHOTOS, f));
  if (skimage.every((f) => existsSync(f))) return skimage;
  return ['sample3.jpg', 'sample6.jpg', 'sample1.jpg'].map((f) => join(FACE_API_PHOTOS, f));
}

/**
 * VP8 on one encoder thread: with more, libvpx's threads wait for each other busily, and on a busy machine the
 * slideshow took 14 s of CPU instead of 0.8 s, a webcam clip 20 s instead of 0.9 s (decision 029).
 */
const ONE_THREAD = ['-threads', '1'];

/** ffmpeg writing over its output file, for at most two minutes. */
async function ffmpeg(args: string[]): Promise<void> {
  await runFfmpeg(['-y', ...args], { timeoutMs: 120_000 });
}

/** The slideshow's frame: its size is the content's, which the respondents' gaze is placed on. */
export const SLIDE = { width: 960, height: 540, fps: 25, fadeSeconds: 0.4 } as const;

/**
 * A slideshow of the photos (each `seconds` long, faded in and out) as a VP8 webm: every browser the cabinet runs
 * in plays it (Chromium builds without the H.264 decoder, such as Debian's, show an mp4 as a black box).
 */
export async function makeSlideshow(photos: readonly string[], seconds: number, out: string): Promise<void> {
  const frames = Math.round(seconds * SLIDE.fps);
  const fadeOut = (seconds - SLIDE.fadeSeconds).toFixed(2);
  const slides = photos.map(
    (_, i) =>
      `[${i}:v]scale=${SLIDE.width}:${SLIDE.height}:force_original_aspect_ratio=decrease,` +
      `pad=${SLIDE.width}:${SLIDE.height}:(ow-iw)/2:(oh-ih)/2:color=0x101418,setsar=1,` +
      `loop=loop=${frames - 1}:size=1:start=0,setpts=N/${SLIDE.fps}/TB,` +
      `fade=t=in:st=0:d=${SLIDE.fadeSeconds},fade=t=out:st=${fadeOut}:d=${SLIDE.fadeSeconds}[s${i}]`,
  );
  const concat = `${photos.map((_, i) => `[s${i}]`).join('')}concat=n=${photos.length}:v=1:a=0,format=yuv420p[v]`;
  await ffmpeg([
    ...photos.flatMap((p) => ['-i', p]),
    ...['-filter_complex', [...slides, concat].join(';'), '-map', '[v]', '-r', String(SLIDE.fps)],
    ...[
      '-c:v',
      'libvpx',
      ...ONE_THREAD,
      '-deadline',
      'good',
      '-cpu-used',
      '5',
      '-b:v',
      '1500k',
      '-auto-alt-ref',
      '0',
      out,
    ],
  ]);
}

const WEBCAM = { width: 640, height: 480, fps: 10 } as const;

/** The crop of the photo (4:3) at the webcam's size, as raw RGB24. */
async function webcamPhoto(photo: string, crop: Crop): Promise<Buffer> {
  const scale = `crop=${crop.width}:${crop.height}:${crop.x}:${crop.y},scale=${WEBCAM.width}:${WEBCAM.height}`;
  return runFfmpeg(['-i', photo, '-vf', scale, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], {
    timeoutMs: 120_000,
  });
}

/**
 * Raw RGB24 webcam frames encoded as VP8 webm in `out`, as Chromium's recorder sends it (`cpu-used 16`: encoded
 * many times faster than it plays). Frames go to ffmpeg's stdin as they are made (`runFfmpeg` takes no input),
 * waiting whenever its pipe is full, so only one frame is held at a time.
 */
async function encodeWebcam(frames: Iterable<Buffer>, out: string): Promise<void> {
  const args = [
    ...['-hide_banner', '-v', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgb24'],
    ...['-s', `${WEBCAM.width}x${WEBCAM.height}`, '-r', String(WEBCAM.fps), '-i', 'pipe:0', '-pix_fmt', 'yuv420p'],
    ...['-c:v', 'libvpx', ...ONE_THREAD, '-deadline', 'realtime', '-cpu-used', '16', '-b:v', '1M', out],
  ];
  const child = spawn(ffmpegPaths().ffmpeg, args, { stdio: ['pipe', 'ignore', 'pipe'], timeout: 120_000 });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString()).slice(-4000);
  });
  const closed = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`ffmpeg ended with ${code ?? signal}: ${err.trim()}`)),
    );
  });
  // A write after ffmpeg died fails with EPIPE; `closed` says why.
  child.stdin.on('error', () => {});
  for (const frame of frames) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    if (!child.stdin.write(frame)) await Promise.race([once(child.stdin, 'drain'), closed]);
  }
  child.stdin.end();
  await closed;
}

/**
 * A webcam recording of `seconds`: the crop of the photo (4:3) at 640×480, 10 frames a second, its eyes turning
 * as `look` says at each moment (ms from the start; irises redrawn by `drawEyes` where the engine finds them on
 * the photo — a still head otherwise), as VP8 webm. The head keeps still: the engine's gaze fit on a recording
 * this short is measurably worse when the face also sways.
 */
export async function makeWebcamClip(
  photo: string,
  crop: Crop,
  seconds: number,
  look: (ms: number) => Look,
  engine: FaceEngine,
  out: string,
): Promise<void> {
  const still = await webcamPhoto(photo, crop);
  const eyes = await findMovingEyes({ data: still, width: WEBCAM.width, height: WEBCAM.height }, engine);
  const count = Math.ceil(seconds * WEBCAM.fps);
  function* frames() {
    for (let i = 0; i < count; i++) {
      const frame = Buffer.from(still);
      if (eyes) drawEyes(frame, WEBCAM.width, eyes, look((i * 1000) / WEBCAM.fps));
      yield frame;
    }
  }
  await encodeWebcam(frames(), out);
}

/** Bytes cut in `count` parts as a recorder's chunks (the first holds the file's header). */
export function chunksOf(bytes: Buffer, count = 3): Buffer[] {
  const size = Math.ceil(bytes.length / count);
  return Array.from({ length: count }, (_, i) => bytes.subarray(i * size, (i + 1) * size)).filter((c) => c.length);
}
