/** Which stretches of a session's files are decoded, and whether the event log's windows fit the recording. */
import { RANGE_JOIN_MS } from '../decode-ranges.ts';
import { EngineError } from '../errors.ts';
import { type MsWindow, sessionWindows } from '../session-timeline.ts';
import type { SessionTask } from '../session-types.ts';
import type { VideoInfo } from './ffmpeg.ts';

/** A session's file as decoded: where it starts on the session clock, its facts and its length. */
export interface Source {
  file: string;
  offsetMs: number;
  info: VideoInfo;
  /** Seconds of the file, null when neither the container nor the packets say. */
  duration: number | null;
}

/** Events may run this far past the recording's end (upload and clock slack) before the log is inconsistent. */
export const EVENT_SLACK_MS = 10_000;
/** A research window longer than this many times the content (plus `TOO_LONG_SLACK_SECONDS`) is refused. */
export const TOO_LONG_FACTOR = 3;
export const TOO_LONG_SLACK_SECONDS = 60;
/** Event times past the recording, a window far longer than the content: the log does not fit the video. */
export function checkWindows(
  task: Pick<SessionTask, 'research'>,
  research: MsWindow,
  calibration: MsWindow | null,
  recordingEndMs: number | null,
): void {
  if (recordingEndMs !== null) {
    const limit = recordingEndMs + EVENT_SLACK_MS;
    const times = [research.start, research.end, calibration?.start, calibration?.end].filter(
      (t): t is number => t !== undefined && Number.isFinite(t),
    );
    const late = times.find((t) => t > limit);
    if (late !== undefined) {
      throw new EngineError(
        'event_log_inconsistent',
        `An event at ${(late / 1000).toFixed(1)} s lies past the recording's end (${(recordingEndMs / 1000).toFixed(1)} s)`,
      );
    }
  }
  if (research.end <= research.start) {
    throw new EngineError('event_log_inconsistent', 'The research ends before it starts');
  }
  const content = task.research?.durationSeconds;
  const seconds = (research.end - research.start) / 1000;
  if (
    content &&
    content > 0 &&
    Number.isFinite(seconds) &&
    seconds > TOO_LONG_FACTOR * content + TOO_LONG_SLACK_SECONDS
  ) {
    throw new EngineError(
      'recording_too_long',
      `The research took ${seconds.toFixed(0)} s for ${content.toFixed(0)} s of content`,
    );
  }
}

/** The windows as decode ranges of one file (seconds from the file's start), merged where they touch. */
export function fileRanges(
  source: Pick<Source, 'offsetMs' | 'duration'>,
  windows: MsWindow[],
  nextOffsetMs?: number,
): { start: number; end: number }[] {
  const length = Math.min(
    source.duration ?? Number.POSITIVE_INFINITY,
    nextOffsetMs === undefined ? Number.POSITIVE_INFINITY : (nextOffsetMs - source.offsetMs) / 1000,
  );
  const ranges = windows
    .map((w) => ({
      start: Math.max(0, (w.start - source.offsetMs) / 1000),
      end: Math.min(length, (w.end - source.offsetMs) / 1000),
    }))
    .filter((r) => r.end > r.start)
    .sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const r of ranges) {
    const last = merged.at(-1);
    if (last && r.start <= last.end + RANGE_JOIN_MS / 1000) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  // An open end (length unknown) decodes to the file's end.
  return merged.map((r) => ({ start: r.start, end: Number.isFinite(r.end) ? r.end : r.start + 24 * 3600 }));
}

/**
 * The session's windows and, per source (in offset order), the stretches to read: the calibration and research
 * windows, a source that runs past the start of the next one yielding to it, so no moment counts twice. The same for
 * video files and for a device's readings, so both paths read the same frames. `none` names the sources in the error
 * when the research window lies outside all of them.
 */
export function planSources<S extends Pick<Source, 'offsetMs' | 'duration'>>(
  task: Pick<SessionTask, 'events' | 'research'>,
  sources: S[],
  recordingEndMs: number | null,
  warnings: string[],
  none: string,
) {
  const windows = sessionWindows(task.events, task.research, recordingEndMs, warnings);
  checkWindows(task, windows.research, windows.calibration, recordingEndMs);
  const wanted = [windows.calibration, windows.research].filter((w): w is MsWindow => w !== null);
  const plan = sources.map((source, i) => ({ source, ranges: fileRanges(source, wanted, sources[i + 1]?.offsetMs) }));
  const researchCovered = sources.some(
    (source, i) => fileRanges(source, [windows.research], sources[i + 1]?.offsetMs).length > 0,
  );
  if (!researchCovered) throw new EngineError('event_log_inconsistent', `The research window lies outside ${none}`);
  return { windows, plan };
}
