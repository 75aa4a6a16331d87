import {
  type Answer,
  type Answers,
  EMPTY_RESPONSE_FILTER,
  type Language,
  OTHER_OPTION,
  type Question,
  type SurveyStatistics,
  type surveyExportInput,
  type surveyStatisticsInput,
  textIn,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import type { SurveyRow, User } from '../../db/types.ts';
import { type CsvValue, toCsv } from '../../http/csv.ts';
import { AppError } from '../../http/errors.ts';
import { toXlsx, XLSX_TYPE } from '../../http/xlsx.ts';
import { requireAccess } from '../access/access.ts';
import { checkAnswerFilters } from '../responses/response-filter.ts';
import { questionStatistics } from './survey-statistics.ts';

/** Questionnaire statistics read the questionnaires and, for a report's respondents, the report. */
export type SurveyStatisticsDeps = Pick<Deps, 'access' | 'surveys' | 'reports'>;

/**
 * Questionnaire statistics of a research and their export (issue 12 item 5): the research's screener or survey,
 * over the respondents the response filter takes.
 */

async function load(
  deps: SurveyStatisticsDeps,
  user: User,
  researchId: string,
  { slot, filter, report_id }: z.infer<typeof surveyStatisticsInput>,
) {
  await requireAccess(deps.access, user, 'campaign.manage', researchId);
  // A report's respondents: the report must be a built one of this research.
  let sessions: string[] | null = null;
  if (report_id) {
    await requireAccess(deps.access, user, 'report.manage', report_id);
    const included = await deps.reports.includedSessions(report_id, researchId);
    if (!included) throw new AppError('invalid_state', { message: 'report.notDone' });
    sessions = included;
  }
  const slots = await deps.surveys.ofResearch(researchId);
  checkAnswerFilters(filter, [slots.screener, slots.survey]);
  const survey = slots[slot];
  const rows = survey ? await deps.surveys.responses(researchId, survey.id, filter, sessions) : [];
  return { slots, survey, rows };
}

const pick = (s: SurveyRow | undefined) =>
  s ? { id: s.id, type: s.type, title: s.title, questions: s.questions } : null;

/** POST /api/cabinet/campaigns/{id}/survey-statistics/ */
export async function surveyStatistics(
  deps: SurveyStatisticsDeps,
  user: User,
  researchId: string,
  input: z.infer<typeof surveyStatisticsInput>,
): Promise<SurveyStatistics> {
  const { slot } = input;
  const { slots, survey, rows } = await load(deps, user, researchId, input);
  const other = slot === 'screener' ? slots.survey : slots.screener;
  return {
    slots: {
      screener: slots.screener ? { id: slots.screener.id, title: slots.screener.title } : null,
      survey: slots.survey ? { id: slots.survey.id, title: slots.survey.title } : null,
    },
    survey: pick(survey),
    other: pick(other),
    respondents: rows.length,
    finished: rows.filter((r) => r.done).length,
    questions: survey ? questionStatistics(survey.questions, rows) : [],
  };
}

/**
 * The research's screener and survey with their statistics over the given sessions (a built report's respondents),
 * for what a trusted job renders (the report's presentation): no access check here, the caller's job was authorised.
 */
export async function questionnairesOfSessions(
  deps: Pick<Deps, 'surveys'>,
  researchId: string,
  sessions: string[],
): Promise<{ title: string; questions: Question[]; statistics: ReturnType<typeof questionStatistics> }[]> {
  const slots = await deps.surveys.ofResearch(researchId);
  const out = [];
  for (const survey of [slots.screener, slots.survey]) {
    if (!survey) continue;
    const rows = await deps.surveys.responses(researchId, survey.id, EMPTY_RESPONSE_FILTER, sessions);
    out.push({
      title: survey.title,
      questions: survey.questions,
      statistics: questionStatistics(survey.questions, rows),
    });
  }
  return out;
}

/**
 * POST /api/cabinet/campaigns/{id}/survey-statistics/export/ — one row per respondent (latest first), one column
 * per answer: the respondent's session, panel id, status, sex, age, start and whether they finished, then per
 * question its answer (choices as their texts, joined by "; "; "other" and its text in a column of its own;
 * a matrix one column per row).
 */
export async function surveyExport(
  deps: SurveyStatisticsDeps,
  user: User,
  researchId: string,
  input: z.infer<typeof surveyExportInput>,
): Promise<{ filename: string; type: string; body: string | Uint8Array }> {
  const { slot, format, language } = input;
  const { survey, rows } = await load(deps, user, researchId, input);
  if (!survey) throw new AppError('not_found', { message: 'survey.notFound' });
  const columns = exportColumns(survey.questions, language);
  const table: CsvValue[][] = [
    [...RESPONDENT_COLUMNS, ...columns.map((c) => c.title)],
    ...rows.map((r) => [
      r.session_id,
      r.participant_id,
      r.status,
      r.sex,
      r.age,
      r.started_at.toISOString(),
      r.done ? 1 : 0,
      ...answerCells(columns, r.answers),
    ]),
  ];
  const base = `${survey.title} - ${slot}`;
  return format === 'csv'
    ? { filename: `${base}.csv`, type: 'text/csv; charset=utf-8', body: toCsv(table) }
    : { filename: `${base}.xlsx`, type: XLSX_TYPE, body: toXlsx(survey.title, table) };
}

const RESPONDENT_COLUMNS = ['session', 'participant_id', 'status', 'sex', 'age', 'started_at', 'finished'];

interface ExportColumn {
  question: string;
  title: string;
  value: (a: Answer) => CsvValue;
}

/** A respondent's answers in the export's columns (empty where they gave none). */
export function answerCells(columns: readonly ExportColumn[], answers: Answers | undefined): CsvValue[] {
  return columns.map((c) => {
    const a = answers?.[c.question];
    return a === undefined ? null : c.value(a);
  });
}

export function exportColumns(questions: readonly Question[], language: Language): ExportColumn[] {
  return questions.flatMap((q): ExportColumn[] => {
    const title = `${q.id}. ${textIn(q.text, language)}`;
    const option = (id: string) => textIn(q.options.find((o) => o.id === id)?.text, language) || id;
    switch (q.type) {
      case 'single':
      case 'multiple': {
        const chosen: ExportColumn = {
          question: q.id,
          title,
          value: (a) =>
            'choices' in a
              ? a.choices
                  .filter((c) => c !== OTHER_OPTION)
                  .map(option)
                  .join('; ')
              : null,
        };
        if (!q.other) return [chosen];
        return [
          chosen,
          {
            question: q.id,
            title: `${title} (other)`,
            value: (a) => ('choices' in a && a.choices.includes(OTHER_OPTION) ? (a.other_text ?? '') : null),
          },
        ];
      }
      case 'scale':
      case 'number':
        return [{ question: q.id, title, value: (a) => ('number' in a ? a.number : null) }];
      case 'text':
        return [{ question: q.id, title, value: (a) => ('text' in a ? a.text : null) }];
      case 'matrix':
        return q.rows.map((row) => ({
          question: q.id,
          title: `${title} — ${textIn(row.text, language) || row.id}`,
          value: (a) => ('rows' in a && a.rows[row.id] ? option(a.rows[row.id] as string) : null),
        }));
      default:
        return []; // an information block takes no answer
    }
  });
}
