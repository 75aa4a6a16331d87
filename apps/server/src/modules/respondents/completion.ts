import type { CompleteSessionInput, SessionEnd } from '@emolens/contracts';
import { isUniqueViolation } from '../../db/sql.ts';
import type { ResearchRow, RespondentSessionRow } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { unansweredSlots } from './questionnaires.ts';
import { endOfSession, type RespondentsDeps, researchesInOrder, type Signing } from './respondents.service.ts';

/**
 * The browser says everything is sent. The server checks that the recording and the event log are
 * exactly what the browser sent, and that the content was shown; then the session takes a quota
 * slot (or finds the quota full) in one short transaction. A repeat answers the same end.
 */
export async function completeSession(
  deps: RespondentsDeps,
  signing: Signing,
  session: RespondentSessionRow,
  input: CompleteSessionInput,
): Promise<SessionEnd> {
  if (session.status !== 'started') {
    const end = await endOfSession(deps, signing, session);
    if (!end) throw new AppError('invalid_state', { message: 'respondent.sessionEnded' });
    return end;
  }
  if (session.is_preview) {
    await deps.completions.completePreview(session.id);
    return { outcome: 'complete', code: null, token: null, redirect_url: null, mturk: null };
  }
  await checkQuestionnaires(deps, session);
  await checkRecording(deps, session, input);
  const researches = await researchesInOrder(deps, session);
  await checkContentShown(deps, session, researches);
  try {
    await deps.completions.complete(
      session,
      researches.map((r) => r.id),
    );
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new AppError('conflict', { message: 'respondent.alreadyCompleted' });
    }
    throw err;
  }
  // Processing subscribes (decision 027); a publish lost here is made up by its dispatcher within a minute.
  try {
    await deps.queue.publish('session.completed', { session_id: session.id });
  } catch (err) {
    deps.log.warn({ err, session: session.id }, 'session.completed not published; the dispatcher will queue it');
  }
  const ended = (await deps.respondents.findSessionById(session.id)) ?? session;
  const end = await endOfSession(deps, signing, ended, undefined, researches);
  if (!end) throw new AppError('invalid_state', { message: 'respondent.sessionEnded' });
  return end;
}

/**
 * The journey's questionnaires are answered: the screener (passed: a screened-out session has ended) and the
 * survey, which comes after the content and before the save (spec section 2: "content, screener
 * questionnaire, answers, save"). A preview stores no answers, so it is not held to them.
 */
async function checkQuestionnaires(deps: RespondentsDeps, session: RespondentSessionRow) {
  const missing = await unansweredSlots(deps, session);
  if (missing.includes('screener')) throw new AppError('invalid_state', { message: 'respondent.screenerNotAnswered' });
  if (missing.includes('survey')) throw new AppError('invalid_state', { message: 'respondent.surveyNotAnswered' });
}

/** The listed segments and chunks are exactly the stored ones, and so are the event batches. */
async function checkRecording(deps: RespondentsDeps, session: RespondentSessionRow, input: CompleteSessionInput) {
  const stored = await deps.recording.segments(session.id);
  const listed = new Map(input.segments.map((s) => [s.segment, s.chunks]));
  const missing: Record<string, 'respondent.recordingIncomplete'> = {};
  for (const [segment, chunks] of listed) {
    const found = stored.find((s) => s.segment === segment);
    if (!found || found.chunks !== chunks || found.next_index !== found.chunks) {
      missing[`segments.${segment}`] = 'respondent.recordingIncomplete';
    }
  }
  // A segment with no chunk (a reload before the first one arrived) recorded nothing to list.
  for (const s of stored) {
    if (s.chunks > 0 && !listed.has(s.segment)) missing[`segments.${s.segment}`] = 'respondent.recordingIncomplete';
  }
  const batches = await deps.recording.nextEventSeq('session', session.id);
  if (batches !== input.event_batches) missing.event_batches = 'respondent.recordingIncomplete';
  if (Object.keys(missing).length) {
    throw new AppError('invalid_state', { message: 'respondent.recordingIncomplete', fields: missing });
  }
}

/** The calibration ran and every research of the order was shown to its end. */
async function checkContentShown(deps: RespondentsDeps, session: RespondentSessionRow, researches: ResearchRow[]) {
  let calibrated = false;
  const ended = new Set<string>();
  for (const batch of await deps.recording.batches('session', session.id)) {
    for (const event of batch.events as { type: string; campaign_id?: string }[]) {
      if (event.type === 'calibration_end') calibrated = true;
      if (event.type === 'research_end' && event.campaign_id) ended.add(event.campaign_id);
    }
  }
  const fields: Record<string, 'respondent.contentNotShown'> = {};
  if (!calibrated) fields.calibration = 'respondent.contentNotShown';
  for (const r of researches) if (!ended.has(r.id)) fields[`researches.${r.id}`] = 'respondent.contentNotShown';
  if (Object.keys(fields).length) {
    throw new AppError('invalid_state', { message: 'respondent.contentNotShown', fields });
  }
}
