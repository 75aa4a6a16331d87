import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { MediaKind } from '@emolens/contracts';
import { EngineError, ffmpegPaths, probeVideo, type VideoInfo } from '@emolens/engine';
import { inflateSync } from 'fflate';

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

/** Reads `length` bytes at `position` of an open file (fewer at its end). */
async function readAt(file: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** A ZIP's entries by name (from its central directory): where each local header is, and how it is stored. */
async function zipEntries(
  file: Awaited<ReturnType<typeof open>>,
  size: number,
): Promise<Map<string, { offset: number; method: number; compressed: number }> | undefined> {
  // The end-of-central-directory record is in the last 22 bytes plus a comment of at most 65535.
  const tailStart = Math.max(0, size - 65_557);
  const tail = await readAt(file, tailStart, size - tailStart);
  const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > tail.length) return undefined;
  const count = tail.readUInt16LE(eocd + 10);
  const dirSize = tail.readUInt32LE(eocd + 12);
  const dirOffset = tail.readUInt32LE(eocd + 16);
  if (dirOffset + dirSize > size || dirSize > 16 * 1024 * 1024) return undefined;
  const dir = await readAt(file, dirOffset, dirSize);
  const entries = new Map<string, { offset: number; method: number; compressed: number }>();
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > dir.length || dir.readUInt32LE(at) !== 0x02014b50) return undefined;
    const nameLength = dir.readUInt16LE(at + 28);
    const extra = dir.readUInt16LE(at + 30);
    const comment = dir.readUInt16LE(at + 32);
    entries.set(dir.toString('utf8', at + 46, at + 46 + nameLength), {
      method: dir.readUInt16LE(at + 10),
      compressed: dir.readUInt32LE(at + 20),
      offset: dir.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

/** One small entry of a ZIP, inflated (stored or deflated); undefined when it cannot be read. */
async function zipEntryText(
  file: Awaited<ReturnType<typeof open>>,
  entry: { offset: number; method: number; compressed: number },
): Promise<string | undefined> {
  if (entry.compressed > 1024 * 1024) return undefined;
  const header = await readAt(file, entry.offset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50) return undefined;
  const start = entry.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const data = await readAt(file, start, entry.compressed);
  try {
    if (entry.method === 0) return data.toString('utf8');
    if (entry.method === 8) return Buffer.from(inflateSync(data)).toString('utf8');
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * What a presentation file is, by decoding it, never by its name or declared type: a PDF (its header and its
 * end-of-file marker), or a PowerPoint PPTX (a ZIP whose central directory lists the presentation part and whose
 * content types declare it). Undefined for anything else.
 */
export async function presentationFormat(path: string): Promise<'pdf' | 'pptx' | undefined> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const head = await readAt(file, 0, 8);
    if (head.toString('latin1', 0, 5) === '%PDF-') {
      const tail = await readAt(file, Math.max(0, size - 2048), Math.min(size, 2048));
      return tail.includes('%%EOF') ? 'pdf' : undefined;
    }
    if (head.length < 4 || head.readUInt32LE(0) !== 0x04034b50) return undefined;
    const entries = await zipEntries(file, size);
    const types = entries?.get('[Content_Types].xml');
    if (!entries?.has('ppt/presentation.xml') || !types) return undefined;
    const xml = await zipEntryText(file, types);
    return xml?.includes('presentationml.presentation.main+xml') ? 'pptx' : undefined;
  } finally {
    await file.close();
  }
}
