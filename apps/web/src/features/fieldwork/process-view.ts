import {
  type MessageKey,
  RUNNING_PROCESS_STATUSES,
  type VideoProcess,
  type VideoProcessStatus,
} from '@emolens/contracts';

/** While any recording waits or runs, the page asks again this often (ms); otherwise not at all. */
export const LIVE_PROCESS_INTERVAL = 3000;

export function isRunning(status: VideoProcessStatus): boolean {
  return (RUNNING_PROCESS_STATUSES as readonly string[]).includes(status);
}

/** The polling interval of the process list: every 3 s while any process is running, else none. */
export function processPollInterval(processes: readonly Pick<VideoProcess, 'status'>[] | undefined): number | false {
  return processes?.some((p) => isRunning(p.status)) ? LIVE_PROCESS_INTERVAL : false;
}

/**
 * Why a process has no usable result, as a catalogue key of the `messages` namespace: its typed error,
 * else its current result's exclusion reason; null for a usable or unfinished one.
 */
export function processReasonKey(process: Pick<VideoProcess, 'error' | 'result'>): MessageKey | null {
  if (process.error) return `processing.error.${process.error}` satisfies MessageKey;
  if (process.result?.excluded_reason)
    return `processing.excluded.${process.result.excluded_reason}` satisfies MessageKey;
  return null;
}

/** A recording length as m:ss (h:mm:ss past an hour). */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A respondent named by the session id (no panel id) is shown by its first characters. */
export function respondentLabel(process: Pick<VideoProcess, 'respondent' | 'session_id'>): {
  text: string;
  isSession: boolean;
} {
  return process.respondent === process.session_id
    ? { text: process.session_id.slice(0, 8), isSession: true }
    : { text: process.respondent, isSession: false };
}
