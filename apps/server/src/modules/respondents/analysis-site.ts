import type { RespondentAnalysis, SessionEnd } from '@emolens/contracts';
import type { RespondentSessionRow } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { analysisOf, type DeviceAnalysisRules, deviceAnalysisRules } from './analysis-rules.ts';
import { endOfSession, type RespondentsDeps, researchesInOrder, type Signing } from './respondents.service.ts';

/**
 * Privacy mode on the respondent's side (issue 32; decision 064): where a session's face analysis runs, the device
 * check that decides it, the fall-back to video upload and the polite stop of a device too slow.
 */

async function rulesOf(deps: RespondentsDeps, session: RespondentSessionRow): Promise<DeviceAnalysisRules> {
  return deviceAnalysisRules(await researchesInOrder(deps, session));
}

/** The session as it is now (after a change that did not apply, to say why). */
async function current(deps: RespondentsDeps, session: RespondentSessionRow): Promise<RespondentSessionRow> {
  return (await deps.respondents.findSessionById(session.id)) ?? session;
}

/** What the three calls share: a device session that runs and has not started its recording. */
async function requireUndecidedDevice(
  deps: RespondentsDeps,
  session: RespondentSessionRow,
  rules: DeviceAnalysisRules,
): Promise<void> {
  if (!rules.onDevice) throw new AppError('invalid_state', { message: 'respondent.deviceAnalysisOff' });
  if (session.status !== 'started') throw new AppError('invalid_state', { message: 'respondent.sessionEnded' });
  if (await deps.analysisSite.hasChunks(session.id)) {
    throw new AppError('invalid_state', { message: 'respondent.deviceAlreadyChecked' });
  }
}

/**
 * POST /r/sessions/{id}/device-check: the device's speed, measured during the face check, decides the site; a
 * repeat before the first chunk measures again. Refused once the respondent chose the upload, and after a chunk.
 */
export async function checkDevice(
  deps: RespondentsDeps,
  session: RespondentSessionRow,
  framesPerSecond: number,
): Promise<RespondentAnalysis> {
  const rules = await rulesOf(deps, session);
  await requireUndecidedDevice(deps, session, rules);
  if (session.fell_back) throw new AppError('invalid_state', { message: 'respondent.deviceAlreadyChecked' });
  const updated = await deps.analysisSite.measure(session.id, framesPerSecond, rules.minFramesPerSecond);
  if (!updated) return refusal(deps, session, rules);
  return analysisOf(updated, rules);
}

/**
 * POST /r/sessions/{id}/analysis-site `{ site: 'server' }`: a device measured too slow, in a research that offers
 * it, uploads the video instead; a repeat answers the same.
 */
export async function chooseServer(deps: RespondentsDeps, session: RespondentSessionRow): Promise<RespondentAnalysis> {
  const rules = await rulesOf(deps, session);
  if (session.fell_back && session.status === 'started') return analysisOf(session, rules);
  await requireUndecidedDevice(deps, session, rules);
  requireTooSlow(session, rules);
  if (rules.slowDeviceAction !== 'offer_upload') {
    throw new AppError('invalid_state', { message: 'respondent.uploadNotOffered' });
  }
  const updated = await deps.analysisSite.fallBack(session.id, rules.minFramesPerSecond);
  if (!updated) return refusal(deps, session, rules);
  return analysisOf(updated, rules);
}

/**
 * POST /r/sessions/{id}/device-too-slow: a device measured too slow stops politely; the session's end (a repeat
 * answers the same end).
 */
export async function stopTooSlow(
  deps: RespondentsDeps,
  signing: Signing,
  session: RespondentSessionRow,
): Promise<SessionEnd> {
  if (session.status !== 'device_too_slow') {
    const rules = await rulesOf(deps, session);
    await requireUndecidedDevice(deps, session, rules);
    requireTooSlow(session, rules);
    if (!(await deps.analysisSite.endTooSlow(session.id, rules.minFramesPerSecond))) {
      await refusal(deps, session, rules);
    }
  }
  const end = await endOfSession(deps, signing, await current(deps, session));
  if (!end) throw new AppError('invalid_state', { message: 'respondent.sessionEnded' });
  return end;
}

function requireTooSlow(session: RespondentSessionRow, rules: DeviceAnalysisRules): void {
  if (session.device_fps === null) throw new AppError('invalid_state', { message: 'respondent.analysisSiteUndecided' });
  if (session.device_fps >= rules.minFramesPerSecond) {
    throw new AppError('invalid_state', { message: 'respondent.deviceNotTooSlow' });
  }
}

/** A change the database did not apply: the session changed meanwhile (ended, or its first chunk came); why. */
async function refusal(
  deps: RespondentsDeps,
  session: RespondentSessionRow,
  rules: DeviceAnalysisRules,
): Promise<never> {
  await requireUndecidedDevice(deps, await current(deps, session), rules);
  throw new AppError('conflict');
}
