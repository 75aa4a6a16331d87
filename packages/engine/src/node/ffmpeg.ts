import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { EngineError } from '../errors.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const candidate = `${dir}/${name}`;
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

function packaged(pkg: string): string | undefined {
  try {
    return (require(pkg) as { path: string }).path;
  } catch {
    return undefined;
  }
}

/** The system's ffmpeg/ffprobe when present (newer), else the binaries shipped in npm packages. */
export function ffmpegPaths(): { ffmpeg: string; ffprobe: string } {
  const ffmpeg = onPath('ffmpeg') ?? packaged('@ffmpeg-installer/ffmpeg');
  const ffprobe = onPath('ffprobe') ?? packaged('@ffprobe-installer/ffprobe');
  if (!ffmpeg || !ffprobe) {
    throw new EngineError(
      'ffmpeg_missing',
      'ffmpeg is not available: install it (apt-get install ffmpeg) or run npm install',
    );
  }
  return { ffmpeg, ffprobe };
}

/**
 * Runs ffmpeg with `args` (quiet: errors only, no stdin) and resolves with what it wrote to stdout; rejects with the
 * last of its error output when it fails or outlives `timeoutMs`. `onTime`: the output time (s) as it goes — the
 * args must then include `-progress pipe:1`, whose key=value lines take stdout's place.
 */
export function runFfmpeg(
  args: readonly string[],
  options: { onTime?: (seconds: number) => void; timeoutMs?: number } = {},
): Promise<Buffer> {
  const { onTime, timeoutMs } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPaths().ffmpeg, ['-hide_banner', '-nostdin', '-v', 'error', ...args], {
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    const out: Buffer[] = [];
    let err = '';
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (!onTime) {
        out.push(chunk);
        return;
      }
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^out_time_us=(\d+)/.exec(line);
        if (match) onTime(Number(match[1]) / 1e6);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0
        ? resolve(Buffer.concat(out))
        : reject(new Error(`ffmpeg ended with ${code ?? signal}: ${err.trim()}`)),
    );
  });
}

export interface VideoInfo {
  width: number;
  height: number;
  /** Seconds; null when the container does not say (Chromium's MediaRecorder webm). */
  durationSeconds: number | null;
  /** Frames per second of the stream, when known. */
  fps: number | null;
  codec: string;
  startTime: number;
}

function rate(text: string | undefined): number | null {
  if (!text) return null;
  const [n, d] = text.split('/').map(Number);
  const value = d ? (n ?? 0) / d : Number(n);
  return Number.isFinite(value) && value > 0 && value < 1000 ? value : null;
}

/** Reads the first video stream's facts; typed errors for files that are not videos. */
export async function probeVideo(file: string): Promise<VideoInfo> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new EngineError('file_not_found', `No such file: ${file}`);
  if (info.size === 0) throw new EngineError('empty_file', `The file is empty: ${file}`);
  const { ffprobe } = ffmpegPaths();
  let json: { streams?: Record<string, string | number>[]; format?: { duration?: string } };
  try {
    const { stdout } = await run(
      ffprobe,
      ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file],
      { maxBuffer: 16 * 1024 * 1024, timeout: 60_000 },
    );
    json = JSON.parse(stdout);
  } catch (error) {
    throw new EngineError('not_a_video', `Not a readable media file: ${file}`, { cause: error });
  }
  const streams = json.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video');
  if (!video) {
    const audio = streams.some((s) => s.codec_type === 'audio');
    throw new EngineError(
      'not_a_video',
      audio ? 'The file has sound but no video stream' : 'The file has no video stream',
    );
  }
  const width = Number(video.width);
  const height = Number(video.height);
  if (!(width > 0 && height > 0)) throw new EngineError('not_a_video', 'The video stream has no picture size');
  const duration = Number(video.duration ?? json.format?.duration);
  return {
    width,
    height,
    durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : null,
    fps: rate(String(video.avg_frame_rate ?? '')) ?? rate(String(video.r_frame_rate ?? '')),
    codec: String(video.codec_name ?? 'unknown'),
    startTime: Math.max(Number(video.start_time) || 0, 0),
  };
}

/**
 * The end of the first video stream, seconds from the file's start, read from the packets' timestamps (demuxing
 * only, no decoding): for files whose container does not state a duration (Chromium's MediaRecorder webm).
 * Null when no packet has a timestamp.
 */
export async function probeVideoEnd(file: string, info?: VideoInfo, signal?: AbortSignal): Promise<number | null> {
  const { ffprobe } = ffmpegPaths();
  let stdout: string;
  try {
    ({ stdout } = await run(
      ffprobe,
      [
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-show_entries',
        'packet=pts_time,duration_time',
        '-of',
        'csv=p=0',
        file,
      ],
      { maxBuffer: 64 * 1024 * 1024, timeout: 300_000, ...(signal ? { signal } : {}) },
    ));
  } catch (error) {
    if (signal?.aborted) throw new EngineError('canceled', 'The analysis was canceled', { cause: error });
    throw new EngineError('not_a_video', `Not a readable media file: ${file}`, { cause: error });
  }
  let end = Number.NEGATIVE_INFINITY;
  for (const line of stdout.split('\n')) {
    const [pts, duration] = line.split(',').map(Number);
    if (Number.isFinite(pts))
      end = Math.max(end, (pts as number) + (Number.isFinite(duration) ? (duration as number) : 0));
  }
  return Number.isFinite(end) ? Math.max(0, end - (info?.startTime ?? 0)) : null;
}

export interface RawFrame {
  index: number;
  /** Seconds on the recording's clock. */
  time: number;
  width: number;
  height: number;
  /** RGB24 pixels. The same buffer is reused for the next frame: copy what you keep. */
  data: Uint8Array;
}

export interface DecodeOptions {
  fps: number;
  width: number;
  height: number;
  startTime?: number;
  /**
   * Only this stretch, seconds from the file's start (ffmpeg seeks with -ss before -i, `DECODE_PREROLL_SECONDS`
   * early, and stops after -t). Frame i is at start + i / fps, on the file's own clock, and shows the picture on
   * camera then. A range past the end of the file gives no frames rather than an error.
   */
  range?: { start: number; duration: number };
  /** A decoder error after some frames (a truncated or damaged file) throws `decode_failed` instead of warning. */
  strict?: boolean;
  signal?: AbortSignal;
}

/** How far before a stretch's start decoding begins, so that the picture on camera at the start is known. */
export const DECODE_PREROLL_SECONDS = 1;

/**
 * Streams frames decoded by ffmpeg at a fixed rate, one reused buffer at a time: memory stays flat
 * whatever the length. Throws `no_frames` when nothing decodes; a decode error after some frames
 * ends the stream and is reported through `onWarning`.
 */
export async function* decodeFrames(
  file: string,
  options: DecodeOptions,
  onWarning: (message: string) => void = () => undefined,
): AsyncGenerator<RawFrame> {
  const { ffmpeg } = ffmpegPaths();
  const { width, height, fps } = options;
  const frameBytes = width * height * 3;
  const range = options.range;
  if (range && !(range.start >= 0 && range.duration > 0)) {
    throw new EngineError('invalid_options', 'A decode range needs start >= 0 and duration > 0');
  }
  // A stretch is decoded from a little before its start, and the fps filter told where the stretch starts: its
  // first frame is then the picture on camera at that moment. Seeking to the start itself would leave the filter
  // to begin at the first picture after it, so that on a camera that stalled there (a variable frame rate
  // recording from a loaded machine) every frame of the stretch would be stamped too early by the stall.
  const preroll = range ? Math.min(range.start, DECODE_PREROLL_SECONDS) : 0;
  const seek = range ? ['-ss', (range.start - preroll).toFixed(3), '-t', (range.duration + preroll).toFixed(3)] : [];
  const first = (options.startTime ?? 0) + (range?.start ?? 0);
  const child = spawn(
    ffmpeg,
    [
      '-nostdin',
      '-v',
      'error',
      ...seek,
      '-i',
      file,
      '-an',
      '-sn',
      '-vf',
      `fps=fps=${fps}${range ? `:start_time=${preroll.toFixed(3)}` : ''},scale=${width}:${height}:flags=bilinear`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    if (stderr.length < 4000) stderr += text;
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('close', (code) => resolve(code));
    child.on('error', () => resolve(-1));
  });
  const abort = () => child.kill('SIGKILL');
  options.signal?.addEventListener('abort', abort, { once: true });

  const frame = new Uint8Array(frameBytes);
  let filled = 0;
  let index = 0;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      let offset = 0;
      while (offset < chunk.length) {
        const take = Math.min(frameBytes - filled, chunk.length - offset);
        frame.set(chunk.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
        if (filled === frameBytes) {
          yield { index, time: first + index / fps, width, height, data: frame };
          index++;
          filled = 0;
        }
      }
    }
  } finally {
    options.signal?.removeEventListener('abort', abort);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  const code = await exited;
  if (options.signal?.aborted) return;
  const reason = stderr.trim().split('\n')[0] ?? '';
  if (index === 0 && range && code === 0) return;
  if (index > 0 && code !== 0 && options.strict) {
    throw new EngineError('decode_failed', `The video is damaged or truncated after ${index} frames: ${reason}`);
  }
  if (index === 0) {
    throw new EngineError(
      code === 0 ? 'no_frames' : 'decode_failed',
      code === 0 ? 'The video has no frames' : `The video could not be decoded: ${stderr.trim().split('\n')[0] ?? ''}`,
    );
  }
  if (code !== 0)
    onWarning(`decoding stopped after ${index} frames: ${stderr.trim().split('\n')[0] ?? 'unknown error'}`);
}
