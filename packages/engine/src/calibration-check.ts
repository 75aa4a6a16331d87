/**
 * The calibration check before the content (issue 31, item 3; decision 050): the engine's session analysis asked for
 * just one calibration attempt and its validation, on the part of the recording uploaded so far. The task reads the
 * event log up to the attempt's validation_end and names a short synthetic window right after it as its research
 * (contentless), so `sessionWindows` takes the latest calibration_start before it (this attempt's) and the engine
 * decodes only calibration_start … validation_end plus that short tail.
 */
import { EngineError } from './errors.ts';
import { sortedEvents } from './session-timeline.ts';
import type { SessionEvent, SessionTask } from './session-types.ts';

/** The synthetic research's id: never a campaign's (those are UUIDs). */
export const CALIBRATION_CHECK_RESEARCH = 'calibration-check';
/** The synthetic research window after validation_end (ms): the recording must reach this far. */
export const CALIBRATION_CHECK_TAIL_MS = 300;

/** The attempt's calibration_start and validation_end in the log: the last calibration ending in a validation. */
export function lastValidatedCalibration(
  events: readonly SessionEvent[],
): { calibrationStartMs: number; validationEndMs: number } | null {
  const sorted = sortedEvents(events);
  const end = sorted.filter((e) => e.type === 'validation_end').at(-1);
  if (!end) return null;
  const start = sorted.filter((e) => e.type === 'calibration_start' && e.t <= end.t).at(-1);
  if (!start) return null;
  const calibrationEnd = sorted.find((e) => e.type === 'calibration_end' && e.t >= start.t && e.t <= end.t);
  return calibrationEnd ? { calibrationStartMs: start.t, validationEndMs: end.t } : null;
}

/**
 * What the engine is asked for one check: the log up to `validationEndMs` (later events, like a next attempt, left
 * out) with the synthetic research after it, at `fps`, gaze required (a calibration that maps no gaze fails).
 */
export function calibrationCheckTask(
  sources: SessionTask['sources'],
  events: readonly SessionEvent[],
  validationEndMs: number,
  fps: number,
): SessionTask {
  const upTo = events.filter((e) => Number.isFinite(e.t) && e.t <= validationEndMs);
  if (!lastValidatedCalibration(upTo)) {
    throw new EngineError('event_log_inconsistent', 'The event log has no whole calibration before the check');
  }
  const start = validationEndMs;
  return {
    sources,
    events: [
      ...upTo,
      { type: 'research_start', t: start, campaign_id: CALIBRATION_CHECK_RESEARCH, index: 0 },
      { type: 'research_end', t: start + CALIBRATION_CHECK_TAIL_MS, campaign_id: CALIBRATION_CHECK_RESEARCH },
    ],
    research: { researchId: CALIBRATION_CHECK_RESEARCH, kind: 'contentless', items: [], durationSeconds: null },
    fps,
    gazeRequired: true,
  };
}
