import {
  type Answer,
  conditionFits,
  type Language,
  type MessageRef,
  OTHER_OPTION,
  type Question,
  type ResponseFilter,
  type SurveySlot,
  type SurveyStatistics,
  type surveyExportInput,
  type surveyStatisticsInput,
  textIn,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { SurveyRow, User } from '../../db/types.ts';
import { type CsvValue, toCsv } from '../../http/csv.ts';
import { AppError } from '../../http/errors.ts';
import { toXlsx, XLSX_TYPE } from '../../http/xlsx.ts';
import { requireAccess } from '../access/access.ts';
import { questionStatistics } from './survey-statistics.ts';
import type { SurveysDeps } from './surveys.service.ts';

/**
 * Questionnaire statistics of a research and their export (issue 12 item 5): the research's screener or survey,
 * over the respondents the response filter takes.
 */

async function load(deps: SurveysDeps, user: User, campaignId: string, slot: SurveySlot, filter: ResponseFilter) {
  await requireAccess(deps.access, user, 'campaign.manage', campaignId);
  const slots = await deps.surveys.ofCampaign(campaignId);
  checkAnswerFilters(filter, [slots.screener, slots.survey]);
  const survey = slots[slot];
  const rows = survey ? await deps.surveys.responses(campaignId, survey.id, filter) : [];
  return { slots, survey, rows };
}

/**
 * An answer filter must name a question of the research's questionnaires with an operator and value that suit it
 * (as display logic must): otherwise 400 with the field's message, never an SQL error or a silent empty result.
 */
function checkAnswerFilters(filter: ResponseFilter, surveys: (SurveyRow | undefined)[]) {
  const fields: Record<string, MessageRef> = {};
  filter.answers.forEach((c, i) => {
    const survey = surveys.find((s) => s?.id === c.survey_id);
    const question = survey?.questions.find((q) => q.id === c.question);
    if (!question) fields[`filter.answers.${i}.question`] = { key: 'survey.unknownQuestion' };
    else if (!conditionFits(c, question)) fields[`filter.answers.${i}.value`] = { key: 'validation.choice' };
  });
  if (Object.keys(fields).length) throw new AppError('validation_failed', { fields });
}

const pick = (s: SurveyRow | undefined) =>
  s ? { id: s.id, type: s.type, title: s.title, questions: s.questions } : null;

/** POST /api/cabinet/campaigns/{id}/survey-statistics/ */
export async function surveyStatistics(
  deps: SurveysDeps,
  user: User,
  campaignId: string,
  { slot, filter }: z.infer<typeof surveyStatisticsInput>,
): Promise<SurveyStatistics> {
  const { slots, survey, rows } = await load(deps, user, campaignId, slot, filter);
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
 * POST /api/cabinet/campaigns/{id}/survey-statistics/export/ — one row per respondent (latest first), one column
 * per answer: the respondent's session, panel id, status, sex, age, start and whether they finished, then per
 * question its answer (choices as their texts, joined by "; "; "other" and its text in a column of its own;
 * a matrix one column per row).
 */
export async function surveyExport(
  deps: SurveysDeps,
  user: User,
  campaignId: string,
  { slot, filter, format, language }: z.infer<typeof surveyExportInput>,
): Promise<{ filename: string; type: string; body: string | Uint8Array }> {
  const { survey, rows } = await load(deps, user, campaignId, slot, filter);
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
      ...columns.map((c) => {
        const a = r.answers[c.question];
        return a === undefined ? null : c.value(a);
      }),
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
