import {
  type createSurveyInput,
  type MessageRef,
  missingTranslations,
  parseMessage,
  SURVEY_LIMITS,
  type Survey,
  type SurveyProblem,
  type surveyListItem,
  type surveyListQuery,
  surveyProblems,
  type updateSurveyInput,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import type { SurveyRow, User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { requireAccess, scopeOf } from '../access/access.ts';
import { projectRules } from '../projects/project-rules.ts';
import type { SurveyLinkRow } from './surveys.repository.ts';

export type SurveysDeps = Pick<Deps, 'access' | 'surveys'>;

const COPY_SUFFIX = ' (copy)';

/**
 * A questionnaire as the cabinet sees it: where it is used, the respondent languages of those projects that
 * lack a text, and whether it is frozen (used by a project past its draft: answers may exist, so it stays as
 * the respondents saw it; a copy can change).
 */
export function toSurvey(row: SurveyRow, links: readonly SurveyLinkRow[]): Survey {
  const own = links.filter((l) => l.survey_id === row.id);
  const frozen = own.some((l) => !projectRules.editSetup(l.project_status));
  const languages = [...new Set(own.map((l) => l.respondent_language))];
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    enabled: row.enabled,
    questions: row.questions,
    links: own.map((l) => ({
      scenario_id: l.scenario_id,
      scenario_order: l.scenario_order,
      project_id: l.project_id,
      project_title: l.project_title,
      project_status: l.project_status,
      slot: l.slot,
    })),
    missing_translations: missingTranslations(row, languages),
    frozen,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    can: { edit: !frozen, delete: own.length === 0, copy: true },
  };
}

/** The questionnaire, when the user may act on it; otherwise "not found". */
async function loadSurvey(deps: SurveysDeps, user: User, id: string): Promise<SurveyRow> {
  await requireAccess(deps.access, user, 'survey.manage', id);
  const row = await deps.surveys.find(id);
  if (!row) throw new AppError('not_found', { message: 'survey.notFound' });
  return row;
}

/** The problems of a questionnaire as field messages (the first per place), the way a zod failure answers. */
function problemsError(problems: SurveyProblem[]): AppError {
  const fields: Record<string, MessageRef> = {};
  for (const problem of problems) {
    const message = parseMessage(problem.message);
    if (message) fields[problem.path.join('.') || '_'] ??= message;
  }
  return new AppError('validation_failed', { fields });
}

/** The title with " (copy)" after it, cut (by whole characters) to stay within the title limit. */
export function copyTitle(title: string): string {
  const room = SURVEY_LIMITS.titleChars - COPY_SUFFIX.length;
  let kept = '';
  for (const char of title) {
    if (kept.length + char.length > room) break;
    kept += char;
  }
  return `${kept.trimEnd()}${COPY_SUFFIX}`;
}

export async function listSurveys(
  deps: SurveysDeps,
  user: User,
  query: z.output<typeof surveyListQuery>,
): Promise<z.output<typeof surveyListItem>[]> {
  const rows = await deps.surveys.list(scopeOf(user), query.type);
  const links = await deps.surveys.links(rows.map((r) => r.id));
  return rows.map((row) => {
    const { questions, ...survey } = toSurvey(row, links);
    return { ...survey, question_count: questions.length };
  });
}

export async function getSurvey(deps: SurveysDeps, user: User, id: string): Promise<Survey> {
  const row = await loadSurvey(deps, user, id);
  return toSurvey(row, await deps.surveys.links([id]));
}

export async function createSurvey(
  deps: SurveysDeps,
  user: User,
  input: z.output<typeof createSurveyInput>,
): Promise<Survey> {
  const { type, ...values } = input;
  const id = await deps.surveys.insert(user.id, type, values);
  return getSurvey(deps, user, id);
}

/**
 * Saves the questionnaire as the editor holds it: checked with its stored type (a type never changes), refused
 * while frozen, and only at the version the editor read (409 otherwise).
 */
export async function updateSurvey(
  deps: SurveysDeps,
  user: User,
  id: string,
  input: z.output<typeof updateSurveyInput>,
): Promise<Survey> {
  const row = await loadSurvey(deps, user, id);
  if (toSurvey(row, await deps.surveys.links([id])).frozen) {
    throw new AppError('invalid_state', { message: 'survey.frozen' });
  }
  const { updated_at, ...values } = input;
  const problems = surveyProblems({ type: row.type, questions: values.questions });
  if (problems.length) throw problemsError(problems);
  const result = await deps.surveys.update(id, new Date(updated_at), values);
  if (result === 'frozen') throw new AppError('invalid_state', { message: 'survey.frozen' });
  if (result === 'conflict') throw new AppError('conflict');
  return getSurvey(deps, user, id);
}

/** Deletes a questionnaire no scenario uses; a frozen one says so, a linked one asks to unlink or copy it. */
export async function deleteSurvey(deps: SurveysDeps, user: User, id: string): Promise<void> {
  const row = await loadSurvey(deps, user, id);
  const survey = toSurvey(row, await deps.surveys.links([id]));
  if (survey.frozen) throw new AppError('invalid_state', { message: 'survey.frozen' });
  if (!survey.can.delete) throw new AppError('invalid_state', { message: 'survey.inUse' });
  const result = await deps.surveys.delete(id);
  if (result === 'linked') throw new AppError('invalid_state', { message: 'survey.inUse' });
  if (result === 'gone') throw new AppError('not_found', { message: 'survey.notFound' });
}

/**
 * A new, unlinked questionnaire with the same type, state and questions, titled "… (copy)". It belongs to the
 * original's owner, so staff copying a customer's questionnaire leave the copy in the customer's account.
 */
export async function copySurvey(deps: SurveysDeps, user: User, id: string): Promise<Survey> {
  const row = await loadSurvey(deps, user, id);
  const copy = await deps.surveys.insert(row.owner_id, row.type, {
    title: copyTitle(row.title),
    enabled: row.enabled,
    questions: row.questions,
  });
  return getSurvey(deps, user, copy);
}
