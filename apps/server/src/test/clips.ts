import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { ffmpegPaths } from '@emolens/engine';
import { ASTRONAUT } from './harness.ts';

// Recorder chunks are cut as the demo project's seeding cuts them.
export { chunksOf } from '../modules/demo-data/demo-media.ts';

/**
 * Webcam-like recordings made with ffmpeg from real photographs, for the tests that run the engine:
 * one face (scikit-image's astronaut), no face (its coffee cup), four people (face-api's sample).
 * Cached between runs by name under .tmp.
 */
const require = createRequire(import.meta.url);
const DIR = resolve(import.meta.dirname, '../../../../.tmp/server-clips');
const SKIMAGE = dirname(ASTRONAUT);

export const CLIP_PHOTOS = {
  astronaut: ASTRONAUT,
  coffee: join(SKIMAGE, 'coffee.png'),
  // Four people facing the camera (|yaw| ≤ 23°). Not sample 4: three of its four are turned 32–36°, past the
  // head-turned limit of 30°, so its frames are bad in any mode (decision 037).
  fourPeople: join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', 'sample6.jpg'),
};

/** A still photo as a webm (VP8) of `seconds`, like a recorder's file. */
export function photoClip(photo: keyof typeof CLIP_PHOTOS, seconds: number, width = 480, fps = 10): Buffer {
  mkdirSync(DIR, { recursive: true });
  const out = join(DIR, `${photo}-${seconds}s-${width}${fps === 10 ? '' : `-${fps}fps`}.webm`);
  if (!existsSync(out)) {
    execFileSync(
      ffmpegPaths().ffmpeg,
      [
        ...['-v', 'error', '-y', '-loop', '1', '-i', CLIP_PHOTOS[photo], '-t', String(seconds), '-r', String(fps)],
        // One encoder thread: libvpx's threads wait for each other busily, many times the CPU on a loaded machine.
        ...['-vf', `scale=${width}:-2`, '-c:v', 'libvpx', '-threads', '1', '-deadline', 'realtime', '-b:v', '1M', out],
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  }
  return readFileSync(out);
}
