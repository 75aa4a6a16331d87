import { MAX_REPORTED_FRAMES_PER_SECOND, type RespondentAnalysis, type SessionState } from '@emolens/contracts';
import { currentReading } from './device-analysis.ts';
import { respondentApi } from './respondent-api.ts';
import type { SessionRuntime } from './session-runtime.ts';

/**
 * Privacy mode's steps of the respondent journey (issue 32; decision 065): the face check measures the device, the
 * server decides where the analysis runs, and a device too slow is offered the video upload or stopped politely.
 */

/** The session's face check runs on the device's engine: its research keeps the video on the device, undecided or so. */
export function analysedOnDevice(session: Pick<SessionState, 'analysis'> | null): boolean {
  return (session?.analysis.onDevice ?? false) && session?.analysis.site !== 'server';
}

/** The face check needs running: the research asks for it, or the device's speed is to be measured. */
export function needsFaceCheck(session: Pick<SessionState, 'analysis' | 'use_face_checker'>): boolean {
  return session.use_face_checker || analysedOnDevice(session);
}

/**
 * The face check passed: its engine's measured rate (full frames a second, after the warm-up) goes to the server (once, before the first chunk), which answers
 * where the analysis runs. The face check's reading stops here (the recording starts its own).
 */
export async function checkDevice(rt: SessionRuntime): Promise<RespondentAnalysis> {
  const reading = currentReading();
  // The face check shows its "ok" on meanwhile: the rate is measured over a few seconds of steady reading.
  if (!rt.preview && rt.analysis.site === 'undecided') await reading?.measured();
  const rate = reading?.measuredRate() ?? 0;
  await reading?.finish();
  // A reload after the decision, or a preview (nothing is recorded): nothing to ask.
  if (rt.preview || rt.analysis.site !== 'undecided') return rt.analysis;
  const framesPerSecond = Math.min(MAX_REPORTED_FRAMES_PER_SECOND, Math.max(0, Math.round(rate * 10) / 10));
  rt.analysis = await respondentApi.deviceCheck(rt.id, rt.secret, { framesPerSecond });
  return rt.analysis;
}

/** The respondent chose to send the video: the session becomes a video session. */
export async function fallBackToUpload(rt: SessionRuntime): Promise<RespondentAnalysis> {
  rt.analysis = await respondentApi.analysisSite(rt.id, rt.secret);
  return rt.analysis;
}
