/** Frames to a webcam-like recording: raw RGB piped into ffmpeg's VP8 encoder in real-time mode, as a browser's MediaRecorder encodes. */
import { spawn } from 'node:child_process';
import { ffmpegPaths } from '@emolens/engine';
import { type Rgb, rawRgbInput } from './image.ts';

export interface Encoder {
  write(frame: Rgb): Promise<void>;
  /** Ends the stream and waits for ffmpeg to finish the file. */
  close(): Promise<void>;
}

export function vp8Encoder(
  path: string,
  size: { width: number; height: number },
  fps: number,
  bitrateKbps: number,
): Encoder {
  const child = spawn(
    ffmpegPaths().ffmpeg,
    [
      '-hide_banner',
      ...rawRgbInput(size.width, size.height, fps),
      '-c:v',
      'libvpx',
      '-b:v',
      `${bitrateKbps}k`,
      '-deadline',
      'realtime',
      // Negative: a fixed speed 8. A positive value lets libvpx's real-time mode pick its speed from how long the
      // frames took to encode, so the same frames came out differently on a busy machine (decision 047).
      '-cpu-used',
      '-8',
      '-threads',
      '1',
      '-pix_fmt',
      'yuv420p',
      '-an',
      path,
    ],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString()).slice(-4000);
  });
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`ffmpeg ended with ${code}: ${err.trim()}`)),
    );
  });
  let failed: Error | null = null;
  child.stdin.on('error', (e) => {
    failed = e;
  });
  return {
    write: (frame) => {
      if (failed) return Promise.reject(failed);
      // A copy: the caller draws the next frame into the same buffer while this one is still queued.
      if (child.stdin.write(Buffer.from(frame.data))) return Promise.resolve();
      return new Promise<void>((resolve) => child.stdin.once('drain', resolve));
    },
    close: async () => {
      child.stdin.end();
      await done;
    },
  };
}
