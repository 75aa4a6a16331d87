import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { MediaKind } from '@emolens/contracts';
import { EngineError, ffmpegPaths, probeVideo, type VideoInfo } from '@emolens/engine';

const run = promisify(execFile);

/** What the first bytes say the file is; only a hint of which decoder to try, never the verdict. */
export type ContentFormat = 'iso-bmff' | 'matroska' | 'jpeg' | 'png';

export const FORMAT_KIND: Record<ContentFormat, MediaKind> = {
  'iso-bmff': 'video',
  matroska: 'video',
  jpeg: 'image',
  png: 'image',
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function detectFormat(head: Uint8Array): ContentFormat | undefined {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (bytes.length >= 8 && bytes.toString('latin1', 4, 8) === 'ftyp') return 'iso-bmff';
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) return 'matroska';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  return undefined;
}

export async function readHead(path: string, length = 16): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/**
 * The content is not what it claims to be (it does not decode, or decodes to no picture). `reason`
 * is for the log only: the user sees "Invalid file format".
 */
export class InvalidContent extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = 'InvalidContent';
  }
}

/** Larger pictures are refused before the decoder allocates them (a small file can claim any size). */
export const MAX_IMAGE_PIXELS = 100_000_000;

const IMAGE_DEMUXERS = { png: 'png_pipe', jpeg: 'jpeg_pipe' } as const;

/**
 * Decodes the whole image with ffprobe (every frame of the file, with decoding errors fatal) and
 * returns its pixel size. A PNG or JPEG header followed by anything else (HTML, noise, a cut-off
 * file, a second image) is refused.
 */
export async function decodeImage(
  file: string,
  format: keyof typeof IMAGE_DEMUXERS,
): Promise<{ width: number; height: number }> {
  const { ffprobe } = ffmpegPaths();
  let stdout: string;
  let stderr: string;
  try {
    ({ stdout, stderr } = await run(
      ffprobe,
      [
        '-v',
        'error',
        '-err_detect',
        'explode',
        '-max_pixels',
        String(MAX_IMAGE_PIXELS),
        '-f',
        IMAGE_DEMUXERS[format],
        '-select_streams',
        'v:0',
        '-show_entries',
        'frame=width,height',
        '-of',
        'json',
        file,
      ],
      { maxBuffer: 1024 * 1024, timeout: 60_000 },
    ));
  } catch (error) {
    throw new InvalidContent('the image decoder failed', { cause: error });
  }
  // Any decoding error (a cut-off file, bytes after the image) is on stderr even when ffprobe exits 0.
  if (stderr.trim()) throw new InvalidContent(`the image does not decode cleanly: ${stderr.trim().slice(0, 500)}`);
  const frames = (JSON.parse(stdout) as { frames?: { width?: number; height?: number }[] }).frames ?? [];
  const [frame] = frames;
  if (frames.length !== 1 || !frame) throw new InvalidContent(`the file decodes to ${frames.length} pictures`);
  const width = Number(frame.width);
  const height = Number(frame.height);
  if (!(width > 0 && height > 0)) throw new InvalidContent('the picture has no size');
  return { width, height };
}

/** Engine codes that say the content is not a video (anything else is the machine's trouble). */
const CONTENT_CODES = new Set(['not_a_video', 'no_frames', 'decode_failed', 'empty_file']);

/** The first video stream's facts; InvalidContent when the file has none (ffprobe's verdict). */
export async function probeVideoContent(file: string): Promise<VideoInfo> {
  try {
    return await probeVideo(file);
  } catch (error) {
    if (error instanceof EngineError && CONTENT_CODES.has(error.code)) {
      throw new InvalidContent(`the video does not probe: ${error.code}`, { cause: error });
    }
    throw error;
  }
}

/**
 * The duration of the first video stream, read from its packets when the container does not state
 * it (Chromium's MediaRecorder webm): the file is demuxed without decoding. Null when nothing plays.
 */
export async function measureDuration(file: string): Promise<number | null> {
  const { ffmpeg } = ffmpegPaths();
  let stdout: string;
  try {
    ({ stdout } = await run(
      ffmpeg,
      ['-nostdin', '-v', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'null', '-progress', 'pipe:1', '-'],
      { maxBuffer: 16 * 1024 * 1024, timeout: 600_000 },
    ));
  } catch (error) {
    // Stopped by the timeout: the machine's trouble, worth a retry; otherwise the file does not demux.
    if ((error as { killed?: boolean }).killed) throw error;
    throw new InvalidContent('the video does not demux', { cause: error });
  }
  const times = [...stdout.matchAll(/^out_time_us=(\d+)$/gm)].map((match) => Number(match[1]));
  const last = times.at(-1);
  return last && last > 0 ? last / 1_000_000 : null;
}
