/** Why a recording could not be analysed. Callers switch on `code`; `message` is for people. */
export type EngineErrorCode =
  | 'file_not_found'
  | 'empty_file'
  | 'not_a_video'
  | 'no_frames'
  | 'decode_failed'
  | 'ffmpeg_missing'
  | 'invalid_options'
  | 'invalid_event_log'
  /** The event log does not fit the recording: no window for the research, times past the recording's end. */
  | 'event_log_inconsistent'
  /** The recording runs far longer than the content it was made for. */
  | 'recording_too_long'
  /** The engine's process died (out of memory, killed) while analysing. */
  | 'engine_crashed'
  /** A face model file is missing or unreadable: the installation is broken (found at start). */
  | 'model_unavailable'
  /** A privacy-mode readings chunk is malformed, truncated, oversized or from another engine version (readings.ts). */
  | 'invalid_readings'
  | 'canceled';

export class EngineError extends Error {
  readonly code: EngineErrorCode;

  constructor(code: EngineErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngineError';
    this.code = code;
  }
}
