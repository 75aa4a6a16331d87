/**
 * One recording of one research, as the worker runs it (design section 7): decode only the calibration and the
 * research windows of the session's files, fit gaze on the calibration, place every research frame on the
 * content's timeline, and return the summary, the per-second series and the per-frame data. Either a whole
 * `SessionResult` or a typed `EngineError`: never a half result. This file is the first half, the frames from the
 * video files; what follows them is `finishSession` (session-finish.ts), which privacy mode's readings share.
 */
import { EngineError } from '../errors.ts';
import type { SessionResult, SessionTask } from '../session-types.ts';
import type { FrameData } from '../types.ts';
import { analyzeFrames, DEFAULT_SKIP_FRAMES, type Sampling, samplingFor } from './analyze.ts';
import { probeVideo, probeVideoEnd } from './ffmpeg.ts';
import { createHuman } from './human.ts';
import {
  canceledError,
  finishSession,
  SessionFrames,
  type SessionOptions,
  sessionSettings,
  throttledProgress,
} from './session-finish.ts';
import { planSources, type Source } from './session-windows.ts';

export type { SessionOptions } from './session-finish.ts';
export { analyzeReadings, type ReadingsSource, type ReadingsTask } from './session-readings.ts';
export { buildSeries, SeriesAccumulator } from './session-series.ts';
export { assignTracks } from './session-tracks.ts';
export type { Source } from './session-windows.ts';

/** A decoded, analysed frame on the session clock (`assignTracks`' input). */
export interface SessionFrame {
  frame: FrameData;
  ms: number;
  source: Source;
}

export async function analyzeSession(task: SessionTask, options: SessionOptions = {}): Promise<SessionResult> {
  const { signal } = options;
  if (signal?.aborted) throw canceledError();
  if (!Array.isArray(task?.sources) || task.sources.length === 0) {
    throw new EngineError('invalid_options', 'The task names no video files');
  }
  const settings = sessionSettings(task);
  const { multiFace, fps, gazeFps } = settings;
  const warnings: string[] = [];
  const progress = throttledProgress(options.onProgress);
  progress({ stage: 'decoding', fraction: 0, frames: 0 });

  // Every file first: a broken one fails the session before any decoding.
  const sources: Source[] = [];
  for (const s of [...task.sources].sort((a, b) => a.offsetMs - b.offsetMs)) {
    if (!Number.isFinite(s.offsetMs) || s.offsetMs < 0) {
      throw new EngineError('invalid_options', `Bad offsetMs ${s.offsetMs} for ${s.file}`);
    }
    const info = await probeVideo(s.file);
    const duration = info.durationSeconds ?? (await probeVideoEnd(s.file, info, signal));
    sources.push({ file: s.file, offsetMs: s.offsetMs, info, duration });
    if (signal?.aborted) throw canceledError();
  }
  const known = sources.every((s) => s.duration !== null);
  if (!known) warnings.push('The length of a recording file is unknown: event times cannot be checked against it.');
  const recordingEndMs = known ? Math.max(...sources.map((s) => s.offsetMs + (s.duration as number) * 1000)) : null;

  // Decode only the two windows, per file.
  const { windows, plan } = planSources(task, sources, recordingEndMs, warnings, 'every recording file');

  const human = options.human ?? (await createHuman({ skipFrames: DEFAULT_SKIP_FRAMES }));
  const frames = new SessionFrames(multiFace, windows.calibration);
  const { store } = frames;
  let sampling: Sampling | null = null;
  let decodedSeconds = 0;
  // Frames the windows hold at each file's own sampling rate (never above the file's rate): progress's 100%.
  const expected = Math.max(
    1,
    plan.reduce((sum, p) => {
      const seconds = p.ranges.reduce((s, r) => s + (r.end - r.start), 0);
      return sum + seconds * samplingFor(p.source.info, { fps }).fps;
    }, 0),
  );
  for (const { source, ranges } of plan) {
    if (ranges.length === 0) continue;
    const stream = analyzeFrames(source.file, {
      fps,
      human,
      info: source.info,
      multiFace,
      keepLandmarks: false,
      ranges,
      strict: true,
      // One face: light frames between the full ones, at the recording's rate up to `gazeFps` (eyes, gaze, iris).
      ...(multiFace
        ? {}
        : {
            lightFrames: {
              fps: gazeFps,
              onFrame: (f: FrameData) => frames.light(f, source.offsetMs + (f.time - source.info.startTime) * 1000),
            },
          }),
      ...(signal ? { signal } : {}),
      onWarning: (w) => warnings.push(`${source.file}: ${w}`),
    });
    let lastFileTime = Number.NEGATIVE_INFINITY;
    let sourceSampling: Sampling | null = null;
    let count = 0;
    try {
      let next = await stream.next();
      while (!next.done) {
        const frame = next.value;
        const fileTime = frame.time - source.info.startTime;
        lastFileTime = Math.max(lastFileTime, fileTime);
        const ms = source.offsetMs + fileTime * 1000;
        frames.full(frame, ms);
        count++;
        progress({ stage: 'analysing', fraction: Math.min(1, store.length / expected), frames: store.length });
        if (signal?.aborted) throw canceledError();
        next = await stream.next();
      }
      sourceSampling = next.value.sampling;
    } finally {
      // Stops ffmpeg when we leave early (canceled, an error).
      await stream.return(undefined as never).catch(() => undefined);
    }
    if (signal?.aborted) throw canceledError();
    sampling ??= sourceSampling;
    decodedSeconds += count / sourceSampling.fps;
    // ffmpeg ends a cut-off file quietly ("File ended prematurely"): frames stopping well short of the length
    // the container states means the file lost its end, and a session is not analysed from half a file.
    const wanted = Math.min(ranges.at(-1)?.end ?? 0, source.duration ?? 0);
    if (Number.isFinite(lastFileTime) && wanted - lastFileTime > 0.5 + 1 / sourceSampling.fps) {
      throw new EngineError(
        'decode_failed',
        `${source.file} is truncated: frames stop at ${lastFileTime.toFixed(1)} s of ${wanted.toFixed(1)} s`,
      );
    }
  }
  return finishSession(
    { task, settings, windows, frames, sampling, recordingSeconds: decodedSeconds, warnings },
    {
      ...(signal ? { signal } : {}),
      ...(options.blockFrames !== undefined ? { blockFrames: options.blockFrames } : {}),
      progress,
    },
  );
}
