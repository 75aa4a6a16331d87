import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeFrames, type FrameOptions } from '../src/node/analyze.ts';
import { ffmpegPaths } from '../src/node/ffmpeg.ts';
import { createHuman, type HumanLike } from '../src/node/human.ts';
import type { SessionTask } from '../src/session-types.ts';
import type { FrameData } from '../src/types.ts';

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

/** face-api's demo photo `sample<n>.jpg` (n = 1…6, 22 faces in all). */
export const faceApiSample = (n: number) => join(FACE_API_DEMO, `sample${n}.jpg`);

/** Missing photos fail the run with the command that installs them (`npm run test:unit` runs it). */
export function requirePhotos(): void {
  const missing = Object.values(PHOTOS).filter((p) => !existsSync(p));
  if (missing.length) {
    throw new Error(`Test photos missing: ${missing.join(', ')}. Install them: apt-get install -y python3-skimage`);
  }
}

/** The photos checked, then Human loaded: a test file's `beforeAll` on real faces. */
export async function photosAndHuman(): Promise<HumanLike> {
  requirePhotos();
  return createHuman();
}

/**
 * VP8 on one encoder thread. With more, libvpx's threads wait for each other busily: on a loaded machine (CI's two
 * test workers) a clip cost 4 to 20 times the CPU (decision 029), and the clip then differs with the machine's cores.
 */
const VP8 = ['-c:v', 'libvpx', '-threads', '1'];

function ffmpeg(args: string[]): void {
  execFileSync(ffmpegPaths().ffmpeg, ['-v', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** ffmpeg's arguments that film a photo for `seconds` at 10 fps (or `fps`) through the filter `vf` into VP8. */
function photoAt10fps(photo: string, seconds: number, vf: string, fps = 10): string[] {
  return ['-loop', '1', '-i', photo, '-t', String(seconds), '-r', String(fps), '-vf', vf, ...VP8];
}

/** A photo filmed for `seconds` at 10 fps (or `fps`) through the ffmpeg filter `vf`, as a VP8 webm. */
function filmPhoto(photo: string, out: string, seconds: number, vf: string, fps = 10): void {
  ffmpeg([...photoAt10fps(photo, seconds, vf, fps), '-b:v', '2M', '-deadline', 'realtime', out]);
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
      ? ['-c:v', 'libvpx-vp9', '-threads', '1', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1M']
      : [...VP8, '-deadline', 'realtime', '-b:v', '2M'];
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
export function rollingHeadVideo(options: { fps?: 10 | 30 } = {}): MovingPattern {
  const fps = options.fps ?? 10;
  const pattern = {
    file: join(FIXTURES, fps === 10 ? 'rolling-head.webm' : `rolling-head-${fps}fps.webm`),
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
  // Above 10 fps, a camera's noise (new in every frame): a still picture's frames would repeat byte for byte, and the
  // analysis skips a light frame that repeats the previous one.
  const noise = fps > 10 ? ',noise=alls=6:allf=t+u' : '';
  filmPhoto(
    PHOTOS.astronaut,
    pattern.file,
    all.length * pattern.segmentSeconds,
    `rotate='${expr}':fillcolor=black,scale=512:512${noise}`,
    fps,
  );
  return pattern;
}

/** The filter graph's output `label` as VP8 at 10 fps and `bitrate`, fast to encode. */
function vp8At10fps(label: string, bitrate: string): string[] {
  return ['-map', label, '-r', '10', ...VP8, '-deadline', 'realtime', '-b:v', bitrate];
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
  ffmpeg([...inputs, '-filter_complex', `${chains};${concat}`, ...vp8At10fps('[v]', '2M'), out]);
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
      ...photoAt10fps(photo, seconds, 'scale=512:-2'),
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
 * A camera that stalls, as a webcam does on a starved machine: 20 frames a second of a grey whose level is the
 * frame's own time (luma 16 + 100 · t), except for none between `gap.from` and `gap.to` seconds. Written through
 * a pipe like Chromium's MediaRecorder (no cues), with each frame's own timestamp (variable frame rate).
 */
export const STALLING_CAMERA = { seconds: 2.1, fps: 20, gap: { from: 1.0, to: 1.45 } } as const;
export function stallingCameraWebm(): string {
  mkdirSync(FIXTURES, { recursive: true });
  const out = join(FIXTURES, 'stalling-camera.webm');
  if (existsSync(out)) return out;
  const { seconds, fps, gap } = STALLING_CAMERA;
  const bytes = execFileSync(
    ffmpegPaths().ffmpeg,
    [
      ...['-v', 'error', '-f', 'lavfi', '-i', `color=c=black:s=64x48:r=${fps}:d=${seconds}`],
      ...['-vf', `format=yuv420p,geq=lum='16+100*T':cb=128:cr=128,select='not(between(t,${gap.from},${gap.to}))'`],
      ...['-fps_mode', 'vfr', ...VP8, '-deadline', 'realtime', '-b:v', '1M', '-f', 'webm', 'pipe:1'],
    ],
    { maxBuffer: 16 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  writeFileSync(out, bytes);
  return out;
}

/** A still photo turned in the image plane by `degrees` (clockwise for positive), as a 1 s video. */
export function rotatedPhotoVideo(photo: string, name: string, degrees: number, width = 512): string {
  mkdirSync(FIXTURES, { recursive: true });
  const out = join(FIXTURES, name);
  if (existsSync(out)) return out;
  filmPhoto(photo, out, 1, `rotate=${degrees}*PI/180:fillcolor=black,scale=${width}:-2`);
  return out;
}

/**
 * The astronaut's head turning in the image plane at a known rate: still for 1 s, then rolling at 15°/s for
 * 2 s (to 30°), then still for 1 s. 512×512, 10 fps.
 */
export function turningHeadVideo(): { file: string; degreesPerSecond: number; turnStart: number; turnEnd: number } {
  const video = { file: join(FIXTURES, 'turning-head.webm'), degreesPerSecond: 15, turnStart: 1, turnEnd: 3 };
  if (existsSync(video.file)) return video;
  mkdirSync(FIXTURES, { recursive: true });
  const rad = `${video.degreesPerSecond}*PI/180`;
  const angle = `if(lt(t,1),0,if(lt(t,3),(t-1)*${rad},2*${rad}))`;
  filmPhoto(PHOTOS.astronaut, video.file, 4, `rotate='${angle}':fillcolor=black,scale=512:512`);
  return video;
}

/** Every analysed frame of a file, in order. */
export async function analyzeAll(file: string, options: FrameOptions): Promise<FrameData[]> {
  const frames: FrameData[] = [];
  for await (const frame of analyzeFrames(file, options)) frames.push(frame);
  return frames;
}

/** A region of a photo, pixels of the original. */
export interface PhotoRegion {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * One region of a photo (a face with some of its surroundings) scaled to `width` pixels and placed at
 * (`left`, `top`) on a grey 640x480 frame, as a short VP8 webm at `bitrate` (e.g. '150k', '2M'): the
 * same face at another size, place and compression. Cached between runs by file name.
 */
export function faceOnCanvas(
  photo: string,
  region: PhotoRegion,
  options: { width: number; left: number; top: number; bitrate: string; name: string; seconds?: number },
): string {
  mkdirSync(FIXTURES, { recursive: true });
  const out = join(FIXTURES, options.name);
  if (existsSync(out)) return out;
  const seconds = String(options.seconds ?? 1);
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `color=c=0x808080:s=640x480:r=10:d=${seconds}`,
    '-loop',
    '1',
    '-t',
    seconds,
    '-i',
    photo,
    '-filter_complex',
    `[1]crop=${region.width}:${region.height}:${region.x}:${region.y},scale=${options.width}:-2[f];[0][f]overlay=${options.left}:${options.top}:shortest=1[v]`,
    ...vp8At10fps('[v]', options.bitrate),
    out,
  ]);
  return out;
}

/** A photo decoded to RGB24, scaled to `width` (aspect kept, even height), as the engine receives frames. */
export function photoFrame(photo: string, width: number): { data: Uint8Array; width: number; height: number } {
  const bytes = execFileSync(
    ffmpegPaths().ffmpeg,
    ['-v', 'error', '-i', photo, '-vf', `scale=${width}:-2`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    { maxBuffer: 1 << 28 },
  );
  return { data: new Uint8Array(bytes), width, height: bytes.length / 3 / width };
}

/** face-api's demo photos: several people each. */
export const SAMPLES = [1, 2, 3, 4, 5, 6].map((i) => join(FACE_API_DEMO, `sample${i}.jpg`));

/**
 * The calibration `rollingHeadVideo` films, as the event log states it (1920x1080 screen): dots on its first 7
 * positions, validation on the next 2, one segment each, ending at segment 9.
 */
export function rollingHeadCalibration(video: MovingPattern): SessionTask['events'] {
  const ms = (segment: number) => segment * video.segmentSeconds * 1000;
  return [
    { type: 'calibration_start', t: 0 },
    ...video.calibrationX.slice(0, 7).map((x, i) => ({ type: 'calibration_dot', t: ms(i), x, y: 540 })),
    { type: 'calibration_end', t: ms(7) },
    ...video.calibrationX.slice(7).map((x, i) => ({ type: 'validation_dot', t: ms(7 + i), x, y: 540 })),
    { type: 'validation_end', t: ms(9) },
  ];
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
      ...rollingHeadCalibration(video),
      { type: 'research_start', t: ms(9), campaign_id: 'p1', index: 0 },
      { type: 'picture_shown', t: ms(9), index: 0, image: 'i0' },
      { type: 'content_rect', t: ms(9) + 20, x: 920, y: 40, width: 1000, height: 1000 },
      { type: 'picture_shown', t: ms(10.5), index: 1, image: 'i1' },
      { type: 'research_end', t: ms(12), campaign_id: 'p1' },
    ],
    research: {
      researchId: 'p1',
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
