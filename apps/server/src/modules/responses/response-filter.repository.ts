import type { AnswerFilter, ResponseFilter } from '@emolens/contracts';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../../db/types.ts';

/**
 * The one query builder of the contracts' `responseFilterSchema` (issue 12 item 5): questionnaire statistics use
 * it now, reports will. It narrows `respondent_sessions` (no alias); previews never count.
 *
 * Answer conditions mirror the display logic's `holds` (contracts, `visibleQuestions`): a hidden question has no
 * stored answer (the runtime refuses one), so "not selected" takes a respondent who did not answer, as the logic
 * does.
 */
export function responseFilterWhere(
  eb: ExpressionBuilder<DB, 'respondent_sessions'>,
  filter: ResponseFilter,
): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [eb('respondent_sessions.is_preview', '=', false)];
  if (filter.sex !== 'off') parts.push(eb('respondent_sessions.sex', '=', filter.sex));
  if (filter.age_min !== null) parts.push(eb('respondent_sessions.age', '>=', filter.age_min));
  if (filter.age_max !== null) parts.push(eb('respondent_sessions.age', '<=', filter.age_max));
  if (filter.statuses.length) parts.push(eb('respondent_sessions.status', 'in', filter.statuses));
  for (const condition of filter.answers) parts.push(answerCondition(condition));
  return eb.and(parts);
}

function answerCondition(c: AnswerFilter): Expression<SqlBool> {
  const answer = sql`a.answers -> ${c.question}`;
  const exists = (test: Expression<SqlBool> | ReturnType<typeof sql>) =>
    sql<SqlBool>`exists (select 1 from respondent_answers a
      where a.session_id = respondent_sessions.id and a.survey_id = ${c.survey_id} and (${test}))`;
  switch (c.operator) {
    case 'answered':
      return exists(sql`jsonb_array_length(coalesce(${answer} -> 'choices', '[]'::jsonb)) > 0
        or length(btrim(coalesce(${answer} ->> 'text', ''))) > 0
        or coalesce(${answer} -> 'rows', '{}'::jsonb) <> '{}'::jsonb
        or jsonb_typeof(${answer} -> 'number') = 'number'`);
    case 'selected':
    case 'not_selected': {
      const value = String(c.value);
      const [row, option] = value.split(':');
      const test =
        option !== undefined
          ? sql`${answer} -> 'rows' ->> ${row} = ${option}`
          : sql`coalesce(${answer} -> 'choices', '[]'::jsonb) @> jsonb_build_array(${value}::text)`;
      return c.operator === 'selected' ? exists(test) : sql<SqlBool>`not ${exists(test)}`;
    }
    case 'equals':
    case 'greater':
    case 'less': {
      const op = { equals: sql`=`, greater: sql`>`, less: sql`<` }[c.operator];
      const number = sql`(${answer} ->> 'number')::float8`;
      return exists(sql`jsonb_typeof(${answer} -> 'number') = 'number' and ${number} ${op} ${Number(c.value)}`);
    }
  }
}
