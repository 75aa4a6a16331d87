import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ffmpegPaths } from '../src/node/ffmpeg.ts';
import type { SessionTask } from '../src/session-types.ts';

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

/** Where the calibration dot of a synthetic recording is, and how the picture encodes it. */
export interface MovingPattern {
  file: string;
  segmentSeconds: number;
  calibrationX: number[];
  laterX: number[];
}

/**
 * The astronaut's head rolled by an angle proportional to the dot's x: a recording whose frames move
 * with a known pattern, for checking gaze calibration end to end. Dots on one row (y = 540) of a
 * 1920x1080 screen, one every `segmentSeconds`; then `laterX` positions after calibration.
 */
export function rollingHeadVideo(): MovingPattern {
  const pattern = {
    file: join(FIXTURES, 'rolling-head.webm'),
    segmentSeconds: 1.2,
    calibrationX: [160, 1760, 560, 1360, 960, 360, 1560, 760, 1160],
    laterX: [400, 1500, 960],
  };
  if (existsSync(pattern.file)) return pattern;
  mkdirSync(FIXTURES, { recursive: true });
  const all = [...pattern.calibrationX, ...pattern.laterX];
  const angle = (x: number) => (((x - 960) / 960) * 20 * Math.PI) / 180;
  let expr = angle(all.at(-1) ?? 960).toFixed(5);
  for (let i = all.length - 1; i >= 0; i--) {
    expr = `if(lt(t,${((i + 1) * pattern.segmentSeconds).toFixed(2)}),${angle(all[i] ?? 960).toFixed(5)},${expr})`;
  }
  ffmpeg([
    '-loop',
    '1',
    '-i',
    PHOTOS.astronaut,
    '-t',
    String(all.length * pattern.segmentSeconds),
    '-r',
    '10',
    '-vf',
    `rotate='${expr}':fillcolor=black,scale=512:512`,
    '-c:v',
    'libvpx',
    '-b:v',
    '2M',
    '-deadline',
    'realtime',
    pattern.file,
  ]);
  return pattern;
}

/**
 * Photos shown one after another (a cut between them), each fitted into the same frame with black
 * borders. Cached between runs by file name.
 */
export function photoSequenceVideo(
  photos: string[],
  name: string,
  options: { secondsEach?: number; width?: number; height?: number } = {},
): string {
  mkdirSync(FIXTURES, { recursive: true });
  const out = join(FIXTURES, name);
  if (existsSync(out)) return out;
  const w = options.width ?? 1280;
  const h = options.height ?? 960;
  const fit = `scale=${w}:${h}:force_original_aspect_ratio=decrease,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2,setsar=1`;
  const inputs = photos.flatMap((p) => ['-loop', '1', '-t', String(options.secondsEach ?? 2), '-i', p]);
  const chains = photos.map((_, i) => `[${i}]${fit}[p${i}]`).join(';');
  const concat = `${photos.map((_, i) => `[p${i}]`).join('')}concat=n=${photos.length}:v=1[v]`;
  ffmpeg([
    ...inputs,
    '-filter_complex',
    `${chains};${concat}`,
    '-map',
    '[v]',
    '-r',
    '10',
    '-c:v',
    'libvpx',
    '-deadline',
    'realtime',
    '-b:v',
    '2M',
    out,
  ]);
  return out;
}

/**
 * A webm written to a pipe, as Chromium's MediaRecorder writes one: no duration on the stream and no cues, so
 * the length must be read from the packets and seeking has no index.
 */
export function streamedWebm(photo: string, name: string, seconds: number): string {
  mkdirSync(FIXTURES, { recursive: true });
  const out = join(FIXTURES, name);
  if (existsSync(out)) return out;
  const bytes = execFileSync(
    ffmpegPaths().ffmpeg,
    [
      '-v',
      'error',
      '-loop',
      '1',
      '-i',
      photo,
      '-t',
      String(seconds),
      '-r',
      '10',
      '-vf',
      'scale=512:-2',
      '-c:v',
      'libvpx',
      '-deadline',
      'realtime',
      '-b:v',
      '1M',
      '-f',
      'webm',
      'pipe:1',
    ],
    { maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  writeFileSync(out, bytes);
  return out;
}

/**
 * A pictures session on `rollingHeadVideo`: calibration on its first 7 positions, validation on the next 2, then
 * picture 0 (2000x2000, drawn at 1000x1000 CSS px from (920, 40)) and picture 1 (no content_rect: letterboxed)
 * for 1.5 segments each. Touches gaze, content coordinates, letterboxing and smoothing.
 */
export function calibratedPicturesTask(): SessionTask {
  const video = rollingHeadVideo();
  const ms = (segment: number) => segment * video.segmentSeconds * 1000;
  return {
    sources: [{ file: video.file, offsetMs: 0 }],
    events: [
      { type: 'screen', t: 0, width: 1920, height: 1080, device_pixel_ratio: 1 },
      { type: 'calibration_start', t: 0 },
      ...video.calibrationX.slice(0, 7).map((x, i) => ({ type: 'calibration_dot', t: ms(i), x, y: 540 })),
      { type: 'calibration_end', t: ms(7) },
      ...video.calibrationX.slice(7).map((x, i) => ({ type: 'validation_dot', t: ms(7 + i), x, y: 540 })),
      { type: 'validation_end', t: ms(9) },
      { type: 'research_start', t: ms(9), campaign_id: 'p1', index: 0 },
      { type: 'picture_shown', t: ms(9), index: 0, image: 'i0' },
      { type: 'content_rect', t: ms(9) + 20, x: 920, y: 40, width: 1000, height: 1000 },
      { type: 'picture_shown', t: ms(10.5), index: 1, image: 'i1' },
      { type: 'research_end', t: ms(12), campaign_id: 'p1' },
    ],
    research: {
      campaignId: 'p1',
      kind: 'pictures',
      items: [
        { width: 2000, height: 2000 },
        { width: 1920, height: 1080 },
      ],
      durationSeconds: null,
    },
    gazeRequired: true,
  };
}
