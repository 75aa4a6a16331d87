/**
 * A session analysed from the readings the respondent's browser uploaded in privacy mode (issue 32, decision 063):
 * the frames `readFrame` read in the page, segment by segment, instead of the video. The same windows, the same
 * selection of frames (the calibration and research windows of each segment, a segment yielding to the next where
 * they overlap) and the same second half (`finishSession`) as `analyzeSession`: no ffmpeg, no face model.
 *
 * What differs, because there is no video file: a segment's length is its readings' extent (the last reading plus one
 * frame interval), which only matters when the event log leaves the research open-ended; `recordingSeconds` counts
 * the full frames used over their rate, as the video path counts the frames it decoded; a video's truncation check
 * has no counterpart (nothing states a length the readings could fall short of), so a stretch of a window without
 * readings is reported as a warning instead.
 */
import { EngineError } from '../errors.ts';
import type { FrameReadings } from '../readings.ts';
import type { SessionResult, SessionTask } from '../session-types.ts';
import type { FrameData } from '../types.ts';
import {
  canceledError,
  finishSession,
  SessionFrames,
  type SessionOptions,
  sessionSettings,
  throttledProgress,
} from './session-finish.ts';
import { planSources } from './session-windows.ts';

/** One segment's readings (`mergeReadings` of its chunks); its first moment is `offsetMs` into the session clock. */
export interface ReadingsSource {
  offsetMs: number;
  readings: FrameReadings;
}

export type ReadingsTask = Omit<SessionTask, 'sources'> & { sources: ReadingsSource[] };

/** A stretch of a window longer than this without a full frame is warned about (seconds; at least 3 frames). */
const GAP_SECONDS = 1;

/** Seconds of a segment as its readings tell it: the last reading plus one full-frame interval; 0 without any. */
function readingsLength(r: FrameReadings): number {
  const last = Math.max(
    r.full.at(-1)?.time ?? Number.NEGATIVE_INFINITY,
    r.light.at(-1)?.time ?? Number.NEGATIVE_INFINITY,
  );
  return Number.isFinite(last) ? last + 1 / r.sampling.fps : 0;
}

function inOrder(frames: readonly FrameData[]): boolean {
  for (let i = 1; i < frames.length; i++)
    if (!((frames[i] as FrameData).time >= (frames[i - 1] as FrameData).time)) return false;
  return true;
}

/**
 * The session's `SessionResult` from its segments' readings, as `analyzeSession` would give it from the video the
 * readings were read from (up to the readings' quantisation, `READINGS_STEPS`). Single face only.
 */
export async function analyzeReadings(task: ReadingsTask, options: SessionOptions = {}): Promise<SessionResult> {
  const { signal } = options;
  if (signal?.aborted) throw canceledError();
  if (!Array.isArray(task?.sources) || task.sources.length === 0) {
    throw new EngineError('invalid_options', 'The task names no readings');
  }
  const settings = sessionSettings(task);
  if (settings.multiFace) {
    throw new EngineError(
      'invalid_options',
      'Multi-face sessions are not analysed from readings (privacy mode is single-face)',
    );
  }
  const warnings: string[] = [];
  const progress = throttledProgress(options.onProgress);
  progress({ stage: 'decoding', fraction: 0, frames: 0 });

  const sources = [...task.sources].sort((a, b) => a.offsetMs - b.offsetMs);
  for (const s of sources) {
    if (!Number.isFinite(s.offsetMs) || s.offsetMs < 0)
      throw new EngineError('invalid_options', `Bad offsetMs ${s.offsetMs}`);
    const r = s.readings;
    if (!r || !Array.isArray(r.full) || !Array.isArray(r.light) || !(r.sampling?.fps > 0)) {
      throw new EngineError('invalid_readings', `The readings of the segment at ${s.offsetMs} ms are not readings`);
    }
    if (!inOrder(r.full) || !inOrder(r.light)) {
      throw new EngineError(
        'invalid_readings',
        `The readings of the segment at ${s.offsetMs} ms are not in time order`,
      );
    }
  }
  const segments = sources.map((s) => ({ ...s, duration: readingsLength(s.readings) }));
  const recordingEndMs = Math.max(...segments.map((s) => s.offsetMs + s.duration * 1000));

  // The stretches of each segment the video path would decode, so the same frames are read.
  const { windows, plan } = planSources(task, segments, recordingEndMs, warnings, 'every segment’s readings');

  const frames = new SessionFrames(false, windows.calibration);
  let sampling: { fps: number; width: number; height: number } | null = null;
  let recordingSeconds = 0;
  let gaps = 0;
  let missing = 0;
  for (const { source: segment, ranges } of plan) {
    if (ranges.length === 0) continue;
    if (signal?.aborted) throw canceledError();
    const { full, light, sampling: s } = segment.readings;
    const ms = (f: FrameData) => segment.offsetMs + f.time * 1000;
    let count = 0;
    for (const range of ranges) {
      const inRange = (f: FrameData) => f.time >= range.start && f.time < range.end;
      // Full and light frames in time order, as the video path reads them.
      let j = 0;
      let previous: number | null = null;
      for (const f of full) {
        if (!inRange(f)) continue;
        while (j < light.length && (light[j] as FrameData).time < f.time) {
          const l = light[j++] as FrameData;
          if (inRange(l)) frames.light(l, ms(l));
        }
        frames.full(f, ms(f));
        count++;
        if (previous !== null && f.time - previous > Math.max(GAP_SECONDS, 3 / s.fps)) {
          gaps++;
          missing += f.time - previous;
        }
        previous = f.time;
      }
      for (; j < light.length; j++) {
        const l = light[j] as FrameData;
        if (inRange(l)) frames.light(l, ms(l));
      }
    }
    sampling ??= { fps: s.fps, width: s.width, height: s.height };
    recordingSeconds += count / s.fps;
  }
  if (gaps > 0) {
    warnings.push(
      `The readings have ${gaps} stretch(es) without frames inside the analysed windows, ${missing.toFixed(1)} s in all (the device fell behind, or chunks are missing).`,
    );
  }
  progress({ stage: 'analysing', fraction: 1, frames: frames.store.length });
  return finishSession(
    { task, settings, windows, frames, sampling, recordingSeconds, warnings },
    {
      ...(signal ? { signal } : {}),
      ...(options.blockFrames !== undefined ? { blockFrames: options.blockFrames } : {}),
      progress,
    },
  );
}
