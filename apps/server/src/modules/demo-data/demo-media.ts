import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { runFfmpeg } from '@emolens/engine';

/**
 * The demo project's files, made with ffmpeg (a child process: nothing here runs on the event loop) from real
 * photographs that ship with the installation: the research's content (a slideshow) and each respondent's webcam
 * recording (a photo cropped to one face, swaying a little as a head does).
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

/** ffmpeg writing over its output file, for at most two minutes. */
async function ffmpeg(args: string[]): Promise<void> {
  await runFfmpeg(['-y', ...args], { timeoutMs: 120_000 });
}

const SLIDE = { width: 960, height: 540, fps: 25, fadeSeconds: 0.4 } as const;

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
    ...['-c:v', 'libvpx', '-deadline', 'good', '-cpu-used', '5', '-b:v', '1500k', '-auto-alt-ref', '0', out],
  ]);
}

const WEBCAM = { width: 640, height: 480, fps: 10, margin: 1.1 } as const;

/**
 * A webcam recording of `seconds`: the crop of the photo (4:3, with a tenth to spare) at 640×480, 10 frames a
 * second, moving slowly within the spare tenth (`phase` varies the motion between respondents), as VP8 webm —
 * what Chromium's recorder sends. `cpu-used 16`: encoded many times faster than it plays.
 */
export async function makeWebcamClip(
  photo: string,
  crop: Crop,
  seconds: number,
  phase: number,
  out: string,
): Promise<void> {
  const outer = { width: Math.round(WEBCAM.width * WEBCAM.margin), height: Math.round(WEBCAM.height * WEBCAM.margin) };
  const spare = { x: (outer.width - WEBCAM.width) / 2, y: (outer.height - WEBCAM.height) / 2 };
  const frames = Math.ceil(seconds * WEBCAM.fps);
  const sway =
    `crop=${WEBCAM.width}:${WEBCAM.height}:` +
    `'${spare.x}+${spare.x * 0.8}*sin(2*PI*t/6.5+${phase.toFixed(2)})':` +
    `'${spare.y}+${spare.y * 0.8}*sin(2*PI*t/4.3+${(phase * 1.7).toFixed(2)})'`;
  await ffmpeg([
    ...['-i', photo, '-vf'],
    [
      `crop=${crop.width}:${crop.height}:${crop.x}:${crop.y}`,
      `scale=${outer.width}:${outer.height}`,
      `loop=loop=${frames - 1}:size=1:start=0`,
      `setpts=N/${WEBCAM.fps}/TB`,
      sway,
      'format=yuv420p',
    ].join(','),
    ...['-r', String(WEBCAM.fps), '-frames:v', String(frames)],
    ...['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '16', '-b:v', '1M', out],
  ]);
}

/** Bytes cut in `count` parts as a recorder's chunks (the first holds the file's header). */
export function chunksOf(bytes: Buffer, count = 3): Buffer[] {
  const size = Math.ceil(bytes.length / count);
  return Array.from({ length: count }, (_, i) => bytes.subarray(i * size, (i + 1) * size)).filter((c) => c.length);
}
