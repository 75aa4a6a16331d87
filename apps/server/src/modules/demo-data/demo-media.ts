import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { runFfmpeg } from '@emolens/engine';

/**
 * The demo project's content, made with ffmpeg (a child process: decoding and encoding never run on the event loop)
 * from photographs that ship with the installation: a slideshow (the respondents' webcam recordings are phantoms,
 * demo-clips.ts), and the recorder's chunks of a recording.
 */
const require = createRequire(import.meta.url);

/** face-api's demo photographs, installed with the engine (npm). */
export const FACE_API_PHOTOS = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');
/** scikit-image's sample data (Debian's python3-skimage): used when installed. */
export const SKIMAGE_PHOTOS = '/usr/lib/python3/dist-packages/skimage/data';

/**
 * The content's pictures in the order of SLIDES (demo-script.ts): a cat, a coffee cup and a rocket when scikit-image
 * is there, else face-api's photos (the respondents then react to those as the script says they do to the cat…).
 */
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

/** Bytes cut in `count` parts as a recorder's chunks (the first holds the file's header). */
export function chunksOf(bytes: Buffer, count = 3): Buffer[] {
  const size = Math.ceil(bytes.length / count);
  return Array.from({ length: count }, (_, i) => bytes.subarray(i * size, (i + 1) * size)).filter((c) => c.length);
}
