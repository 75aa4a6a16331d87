import type { RespondentQuestionnaire, SessionState, SurveySlot } from '@emolens/contracts';
import type { Deps } from '../../context.ts';
import type { RespondentSessionRow, SurveyRow } from '../../db/types.ts';
import type { StoredAnswers } from './answers.repository.ts';

/** A session's questionnaires as its state shows them and its completion checks them (decision 014). */

function questionnaireState(
  survey: SurveyRow | undefined,
  stored: StoredAnswers | undefined,
): RespondentQuestionnaire | null {
  if (!survey) return null;
  const own = stored?.survey_id === survey.id ? stored : undefined;
  return {
    id: survey.id,
    type: survey.type,
    questions: survey.questions,
    answers: own?.answers ?? {},
    done: own?.done ?? false,
  };
}

/**
 * The scenario's questionnaires for the session state: each enabled one with the answers stored so far and
 * whether its final answers are in (a disabled one, or none, is null: the step is skipped).
 */
export async function sessionQuestionnaires(
  deps: Pick<Deps, 'respondentAnswers'>,
  session: Pick<RespondentSessionRow, 'id' | 'scenario_id'>,
): Promise<SessionState['surveys']> {
  const questionnaires = await deps.respondentAnswers.questionnairesOf(session.scenario_id);
  const stored =
    questionnaires.screener || questionnaires.survey ? await deps.respondentAnswers.answersOf(session.id) : [];
  const of = (slot: SurveySlot) => stored.find((s) => s.slot === slot);
  return {
    screener: questionnaireState(questionnaires.screener, of('screener')),
    survey: questionnaireState(questionnaires.survey, of('survey')),
  };
}

/** The slots whose questionnaire runs and whose final answers are not in yet: what a completion waits for. */
export async function unansweredSlots(
  deps: Pick<Deps, 'respondentAnswers'>,
  session: Pick<RespondentSessionRow, 'id' | 'scenario_id'>,
): Promise<SurveySlot[]> {
  const state = await sessionQuestionnaires(deps, session);
  return (['screener', 'survey'] as const).filter((slot) => state[slot] !== null && !state[slot].done);
}
