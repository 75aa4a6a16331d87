import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpegPaths } from '@emolens/engine';
import { beforeEach } from 'vitest';
import type { Config } from '../config.ts';
import { ASTRONAUT, createTestApp, type TestApp } from './harness.ts';
import { perFile } from './per-file.ts';

/** An app of the media tests: its stored files in `mediaDir` and its uploads in `uploadDir`, both in `dir`. */
export interface MediaTestApp extends TestApp {
  readonly dir: string;
  readonly mediaDir: string;
  readonly uploadDir: string;
}

/** ffmpeg run quietly (its errors in the exception). */
export function ffmpeg(args: string[]): void {
  execFileSync(ffmpegPaths().ffmpeg, ['-v', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** The app with its folders in a new temporary one named after `name`, removed when it closes. */
async function createMediaTestApp(name: string, overrides: Partial<Config>): Promise<MediaTestApp> {
  const dir = await mkdtemp(join(tmpdir(), `emolens-${name}-`));
  const mediaDir = join(dir, 'media');
  const uploadDir = join(dir, 'uploads');
  const t = await createTestApp({ storage: { kind: 'local', dir: mediaDir }, uploadDir, ...overrides });
  return {
    ...t,
    dir,
    mediaDir,
    uploadDir,
    close: async () => {
      await t.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `appPerFile` for the media tests (the astronaut photograph must be there): before each test, besides the tables,
 * the stored files and uploads gone and the uploads' folder for finishing made again.
 */
export function mediaAppPerFile(name: string, overrides: Partial<Config> = {}): MediaTestApp {
  if (!existsSync(ASTRONAUT)) throw new Error(`${ASTRONAUT} missing: apt-get install -y python3-skimage`);
  const t = perFile(() => createMediaTestApp(name, overrides));
  beforeEach(async () => {
    const { mediaDir, uploadDir } = t.now();
    await rm(mediaDir, { recursive: true, force: true });
    await rm(uploadDir, { recursive: true, force: true });
    await mkdir(join(uploadDir, '.finishing'), { recursive: true });
  });
  for (const key of ['dir', 'mediaDir', 'uploadDir'] as const) {
    Object.defineProperty(t, key, { get: () => t.now()[key], enumerable: true });
  }
  return t as unknown as MediaTestApp;
}

/**
 * The astronaut photograph (one smiling face) as it is (png) and as a 2-second, 10 fps video `width` px wide in mp4
 * (H.264) and webm (VP8), the videos made in `dir`.
 */
export async function astronautFiles(dir: string, width: number): Promise<{ mp4: Buffer; webm: Buffer; png: Buffer }> {
  const still = (out: string, codec: string[]) =>
    ffmpeg(['-loop', '1', '-i', ASTRONAUT, '-t', '2', '-r', '10', '-vf', `scale=${width}:-2`, ...codec, out]);
  still(join(dir, 'astronaut.mp4'), ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']);
  still(join(dir, 'astronaut.webm'), ['-c:v', 'libvpx', '-threads', '1', '-deadline', 'realtime', '-b:v', '1M']);
  const [mp4, webm, png] = await Promise.all([
    readFile(join(dir, 'astronaut.mp4')),
    readFile(join(dir, 'astronaut.webm')),
    readFile(ASTRONAUT),
  ]);
  return { mp4, webm, png };
}
