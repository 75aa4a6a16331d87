import { CALIBRATION_CHECK_LIMITS, type CalibrationCheckState, type SessionEnd } from '@emolens/contracts';
import { type RespondentApi, respondentApi } from './respondent-api.ts';
import type { SessionRuntime } from './session-runtime.ts';

/** What the journey does after a calibration's check (decision 050). */
export type CheckOutcome =
  | { next: 'content'; checked: boolean }
  | { next: 'repeat'; attempt: number }
  | { next: 'end'; end: SessionEnd }
  | { next: 'continue_flagged' };

/** The validation's last frames are recorded before its slice is cut: the check's window runs that far past it. */
const TAIL_MS = 600;
const POLL_MS = 1000;

/** What the check needs of the page and the API (the journey's own; a test gives its own). */
export interface CheckDeps {
  runtime: Pick<SessionRuntime, 'id' | 'secret' | 'sendSoFar'>;
  api: Pick<RespondentApi, 'calibrationCheck' | 'calibrationCheckState'>;
  timing: { tailMs: number; pollMs: number; timeoutMs: number };
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The check of the calibration just done: everything through its validation sent, the check asked for, its state
 * polled (progress to `onProgress`) until it is over. `believed` is the attempt the page believes this is; a check of
 * that attempt that is over already (a reload after a failure) makes this calibration the next attempt. Whatever goes
 * wrong on the way (the network, the server, the engine, the time) lets the respondent go on to the content: the
 * check is a service to the research, never a trap for the respondent.
 */
export async function checkCalibration(
  runtime: CheckDeps['runtime'],
  believed: number,
  onProgress: (percent: number) => void,
  isCancelled: () => boolean,
  {
    api = respondentApi,
    timing = { tailMs: TAIL_MS, pollMs: POLL_MS, timeoutMs: CALIBRATION_CHECK_LIMITS.pageTimeoutMs },
  }: Partial<Omit<CheckDeps, 'runtime'>> = {},
): Promise<CheckOutcome> {
  const deadline = Date.now() + timing.timeoutMs;
  let attempt = believed;
  try {
    await sleep(timing.tailMs);
    const sent = await runtime.sendSoFar();
    if (!sent || isCancelled()) return { next: 'content', checked: false };
    let state = await api.calibrationCheck(runtime.id, runtime.secret, { attempt, ...sent });
    if (state.status === 'failed' && state.next === 'repeat') {
      // This attempt's check was over before this calibration (a reload after it): this one is the next attempt.
      attempt += 1;
      state = await api.calibrationCheck(runtime.id, runtime.secret, { attempt, ...sent });
    }
    while (state.next === null) {
      if (isCancelled() || Date.now() > deadline) return { next: 'content', checked: false };
      onProgress(state.progress);
      await sleep(timing.pollMs);
      state = await api.calibrationCheckState(runtime.id, runtime.secret, attempt);
    }
    onProgress(100);
    return outcomeOf(state, attempt);
  } catch (error) {
    console.error('the calibration check could not run', error);
    return { next: 'content', checked: false };
  }
}

function outcomeOf(state: CalibrationCheckState, attempt: number): CheckOutcome {
  switch (state.next) {
    case 'repeat':
      return { next: 'repeat', attempt: attempt + 1 };
    case 'end':
      return state.end ? { next: 'end', end: state.end } : { next: 'content', checked: false };
    case 'continue_flagged':
      return { next: 'continue_flagged' };
    default:
      return { next: 'content', checked: state.status === 'passed' };
  }
}
