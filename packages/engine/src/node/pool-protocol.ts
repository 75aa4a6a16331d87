/**
 * The messages between the engine pool and its child processes. Plain data only: they are copied
 * by Node's 'advanced' IPC serialisation (structured clone), which keeps Uint8Array as it is.
 */
import type { EngineErrorCode } from '../errors.ts';
import type { SessionProgress, SessionResult, SessionTask } from '../session-types.ts';
import type { EventLog } from '../types.ts';
import type { RecordingAnalysis } from './recording.ts';

/** `analyzeRecording`'s options that are plain data (the child owns Human and the callbacks). */
export interface PoolRecordingOptions {
  fps?: number;
  maxWidth?: number;
  multiFace?: boolean;
  events?: EventLog;
  allowedBadFrameShare?: number;
  smoothingSigmaSeconds?: number;
}

export interface RecordingProgress {
  frames: number;
  time: number;
  durationSeconds: number | null;
}

export type PoolJob =
  | { kind: 'session'; task: SessionTask }
  | { kind: 'recording'; file: string; options: PoolRecordingOptions };

export type JobResult<J extends PoolJob['kind']> = J extends 'session' ? SessionResult : RecordingAnalysis;
export type JobProgress<J extends PoolJob['kind']> = J extends 'session' ? SessionProgress : RecordingProgress;

export type ToChild = { type: 'run'; id: number; job: PoolJob };

export interface SerializedError {
  name: string;
  message: string;
  code?: EngineErrorCode;
  stack?: string;
}

export type FromChild =
  | { type: 'progress'; id: number; progress: SessionProgress | RecordingProgress }
  | { type: 'done'; id: number; result: SessionResult | RecordingAnalysis }
  | { type: 'failed'; id: number; error: SerializedError }
  /** The child's own resident memory and CPU time (user + system, µs) so far. */
  | { type: 'usage'; rss: number; cpuMicros: number };
