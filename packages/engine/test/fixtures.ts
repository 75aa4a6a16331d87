import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ffmpegPaths } from '../src/node/ffmpeg.ts';

/**
 * Test videos made with ffmpeg from real photographs: face-api's demo samples (3 to 5 people
 * each), scikit-image's astronaut (one smiling face) and coffee cup (no face).
 */
const require = createRequire(import.meta.url);
export const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../../.tmp/engine-fixtures');
const FACE_API_DEMO = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');
const SKIMAGE = '/usr/lib/python3/dist-packages/skimage/data';

export const PHOTOS = {
  astronaut: join(SKIMAGE, 'astronaut.png'),
  coffee: join(SKIMAGE, 'coffee.png'),
  fourPeople: join(FACE_API_DEMO, 'sample4.jpg'),
  fivePeople: join(FACE_API_DEMO, 'sample5.jpg'),
};

/** Missing photos fail the run with the command that installs them (`npm run test:unit` runs it). */
export function requirePhotos(): void {
  const missing = Object.values(PHOTOS).filter((p) => !existsSync(p));
  if (missing.length) {
    throw new Error(`Test photos missing: ${missing.join(', ')}. Install them: apt-get install -y python3-skimage`);
  }
}

function ffmpeg(args: string[]): void {
  execFileSync(ffmpegPaths().ffmpeg, ['-v', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A still photo as a short video. Cached between runs by file name. */
export function stillVideo(
  photo: string,
  name: string,
  options: { seconds?: number; fps?: number; width?: number; keyframeEvery?: number } = {},
) {
  mkdirSync(FIXTURES, { recursive: true });
  const out = join(FIXTURES, name);
  if (existsSync(out)) return out;
  const codec = name.endsWith('.mp4')
    ? ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']
    : name.endsWith('.vp9.webm')
      ? ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1M']
      : ['-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '2M'];
  ffmpeg([
    '-loop',
    '1',
    '-i',
    photo,
    '-t',
    String(options.seconds ?? 2),
    '-r',
    String(options.fps ?? 10),
    '-vf',
    `scale=${options.width ?? 640}:-2`,
    ...codec,
    ...(options.keyframeEvery ? ['-g', String(options.keyframeEvery)] : []),
    out,
  ]);
  return out;
}

export function audioOnly(): string {
  const out = join(FIXTURES, 'tone.webm');
  if (!existsSync(out)) ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:a', 'libopus', out]);
  return out;
}

export function writeFixture(name: string, bytes: Uint8Array | string): string {
  mkdirSync(FIXTURES, { recursive: true });
  const out = join(FIXTURES, name);
  writeFileSync(out, bytes);
  return out;
}
