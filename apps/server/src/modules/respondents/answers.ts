import { isDeepStrictEqual } from 'node:util';
import {
  type AnswerProblem,
  type AnswersOutput,
  abandonedBefore,
  checkAnswers,
  type MessageRef,
  parseMessage,
  quotaCapacity,
  type RespondentAnswersInput,
  respondentProfile,
  type SurveySlot,
  screenerOutcome,
} from '@emolens/contracts';
import type { RespondentSessionRow, SurveyRow } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import type { AnswersWrite, SampleSources } from './answers.repository.ts';
import { endOfSession, publishEnded, type RespondentsDeps, type Signing } from './respondents.service.ts';

/**
 * The questionnaire runtime (issue 12, decision 014): a session's screener and survey, their answers saved as
 * the respondent goes, the screener's verdict with its answer quotas, and the order the server holds the
 * journey to: screener, content, survey, save.
 */

type Questionnaires = Record<SurveySlot, SurveyRow | undefined>;

/** A started session quiet this long is abandoned (the one rule of every view, issue 28 item 15): its quota place frees. */
const quietBefore = () => abandonedBefore(Date.now());

/**
 * What a scenario's screener quota shares are shares of: the scenario's quota; else what its links allow
 * together (the sum of their quota sizes, as the fieldwork counts a scenario's quota; one link without a
 * size makes it unlimited); else the project's required number of respondents. None of them (or 0): the
 * shares cannot be enforced, and every quota option passes.
 */
export function screenerSample(sources: SampleSources): number | null {
  const links =
    sources.link_quotas.length && sources.link_quotas.every((q) => q !== null)
      ? sources.link_quotas.reduce<number>((sum, q) => sum + (q ?? 0), 0)
      : null;
  const sample = sources.scenario_quota ?? links ?? sources.required_respondents;
  return sample && sample > 0 ? sample : null;
}

/** The problems as field messages under `answers.<question id>` (the first per question), like a zod failure. */
function validationError(problems: AnswerProblem[]): AppError {
  const fields: Record<string, MessageRef> = {};
  for (const p of problems) {
    fields[`answers.${p.question}`] ??= parseMessage(p.message) ?? { key: 'validation.invalid' };
  }
  return new AppError('validation_failed', { fields });
}

/**
 * Saves a session's answers to one slot (`PUT /r/sessions/{id}/surveys/{slot}/answers`):
 * - the slot's questionnaire runs only when it is there and enabled (else "not found");
 * - the answers are checked against it (`checkAnswers`; with `final`, every required shown question): 400
 *   with a message per `answers.<question id>`;
 * - they replace the stored ones whole, in one transaction with everything they decide; once the final
 *   answers are in, the same answers again answer as before (a repeated submit), others 409;
 * - only a running session takes answers; the survey only after the screener's verdict;
 * - the screener's final answers give its verdict: a dropout, or a quota option with no room left, ends
 *   the session screened out (the end is in the answer); a pass takes a place of every quota option chosen;
 * - a preview checks and answers the same, stores no answers and counts no quota.
 */
export async function saveAnswers(
  deps: RespondentsDeps,
  signing: Signing,
  session: RespondentSessionRow,
  slot: SurveySlot,
  input: RespondentAnswersInput,
): Promise<AnswersOutput> {
  const questionnaires = await deps.respondentAnswers.questionnairesOf(session.scenario_id);
  const survey = questionnaires[slot];
  if (!survey) throw new AppError('not_found', { message: 'survey.notFound' });
  const problems = checkAnswers(survey.questions, input.answers, { complete: input.final });
  if (problems.length) throw validationError(problems);
  if (session.is_preview) return previewAnswers(deps, signing, session, survey, slot, input);

  // The survey comes after the screener's verdict (an ended session is told it has ended, below).
  if (slot === 'survey' && questionnaires.screener && session.status === 'started') {
    await requireScreenerDone(deps, session, questionnaires);
  }
  const screenerFinal = slot === 'screener' && input.final;
  const sample = screenerFinal ? screenerSample(await deps.respondentAnswers.sampleSources(session.scenario_id)) : null;
  const outcome = await deps.respondentAnswers.withAnswers<{ stored: boolean; done: boolean; ended: boolean }>(
    {
      sessionId: session.id,
      scenarioId: session.scenario_id,
      slot,
      lockScenario: screenerFinal,
      quietBefore: quietBefore(),
    },
    async ({ session: current, stored, placesTaken }) => {
      if (stored?.done && stored.survey_id === survey.id) {
        // The form submits once: the same answers again are that submit repeated (a lost response).
        if (!isDeepStrictEqual(stored.answers, input.answers)) {
          throw new AppError('conflict', { message: 'survey.answersSent' });
        }
        return { result: { stored: false, done: true, ended: current.status !== 'started' } };
      }
      if (current.status !== 'started') throw new AppError('invalid_state', { message: 'respondent.sessionEnded' });
      const write: AnswersWrite = { survey_id: survey.id, answers: input.answers, done: input.final };
      write.profile = respondentProfile(survey.questions, input.answers);
      if (screenerFinal) {
        write.screener_ran = true;
        const verdict = screenerOutcome(survey.questions, input.answers);
        let screenedOut = verdict.outcome === 'dropout';
        if (!screenedOut && sample !== null) {
          for (const quota of verdict.quotas) {
            if ((await placesTaken(quota.question, quota.option)) >= quotaCapacity(quota.share, sample)) {
              screenedOut = true;
              break;
            }
          }
        }
        if (screenedOut) write.screened_out = true;
        else write.places = verdict.quotas.map((q) => ({ question: q.question, option: q.option }));
      }
      return { result: { stored: true, done: input.final, ended: !!write.screened_out }, write };
    },
  );
  // Screened out just now (a repeated submit stores nothing and publishes nothing).
  if (outcome.stored && outcome.ended) await publishEnded(deps, session.id);
  const end = outcome.ended ? await currentEnd(deps, signing, session.id) : null;
  return { slot, stored: outcome.stored, done: outcome.done, end };
}

async function requireScreenerDone(
  deps: RespondentsDeps,
  session: RespondentSessionRow,
  questionnaires: Questionnaires,
) {
  const stored = await deps.respondentAnswers.answersOf(session.id);
  const screener = stored.find((s) => s.slot === 'screener' && s.survey_id === questionnaires.screener?.id);
  if (!screener?.done) throw new AppError('invalid_state', { message: 'respondent.screenerNotAnswered' });
}

async function currentEnd(deps: RespondentsDeps, signing: Signing, sessionId: string) {
  const ended = await deps.respondents.findSessionById(sessionId);
  return ended ? endOfSession(deps, signing, ended) : null;
}

/** A preview: the same checks and verdict, nothing stored; a screened-out preview ends to show its end. */
async function previewAnswers(
  deps: RespondentsDeps,
  signing: Signing,
  session: RespondentSessionRow,
  survey: SurveyRow,
  slot: SurveySlot,
  input: RespondentAnswersInput,
): Promise<AnswersOutput> {
  if (session.status !== 'started') throw new AppError('invalid_state', { message: 'respondent.sessionEnded' });
  let end = null;
  if (slot === 'screener' && input.final && screenerOutcome(survey.questions, input.answers).outcome === 'dropout') {
    await deps.respondentAnswers.screenOutPreview(session.id);
    end = await currentEnd(deps, signing, session.id);
  }
  return { slot, stored: false, done: input.final, end };
}
