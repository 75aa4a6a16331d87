import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ffmpegPaths } from '../packages/engine/src/node/ffmpeg.ts';

const DIR = resolve(import.meta.dirname, '../.tmp/bench');
const PHOTO = '/usr/lib/python3/dist-packages/skimage/data/astronaut.png';

/**
 * A 640x480 recording of one face that moves a little, like a respondent in front of a webcam, made once
 * under .tmp/bench as `<name>-640x480-<seconds>s.webm`. `cropX` is the crop's horizontal offset (an ffmpeg
 * expression of t): a constant keeps the face still sideways, an expression makes it drift.
 */
export function webcamLikeVideo(name: string, seconds: number, cropX: string): string {
  mkdirSync(DIR, { recursive: true });
  const file = resolve(DIR, `${name}-640x480-${seconds}s.webm`);
  if (existsSync(file)) return file;
  execFileSync(ffmpegPaths().ffmpeg, [
    '-v',
    'error',
    '-y',
    '-loop',
    '1',
    '-i',
    PHOTO,
    '-t',
    String(seconds),
    '-r',
    '30',
    '-vf',
    `scale=640:640,crop=640:480:${cropX}:'40+30*sin(t)',rotate='0.08*sin(t*1.3)'`,
    '-c:v',
    'libvpx',
    '-b:v',
    '1500k',
    '-deadline',
    'realtime',
    file,
  ]);
  return file;
}
