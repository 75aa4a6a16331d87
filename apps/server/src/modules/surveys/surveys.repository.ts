import {
  type Language,
  PROJECT_STATUSES,
  type ProjectStatus,
  type Question,
  type ResponseFilter,
  type SurveySlot,
  type SurveyType,
} from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';
import { NEXT_VERSION } from '../../db/sql.ts';
import type { DB, SurveyRow } from '../../db/types.ts';
import type { ProjectScope } from '../access/access.ts';
import { projectRules } from '../projects/project-rules.ts';
import { responseFilterWhere } from '../responses/response-filter.repository.ts';

/** One use of a questionnaire: a scenario's slot, with the project around it. */
export interface SurveyLinkRow {
  survey_id: string;
  scenario_id: string;
  scenario_order: number;
  project_id: string;
  project_title: string;
  project_status: ProjectStatus;
  respondent_language: Language;
  slot: SurveySlot;
}

export interface SurveyValues {
  title: string;
  enabled: boolean;
  questions: Question[];
}

/** Project statuses in which a linked questionnaire may no longer change (launch freezes the setup). */
export const FROZEN_STATUSES: readonly ProjectStatus[] = PROJECT_STATUSES.filter((s) => !projectRules.editSetup(s));

/** The questionnaire of the statement (`surveys.id`) is in some scenario's slot (of a project in `statuses`). */
function linked(statuses?: readonly ProjectStatus[]) {
  const inStatus = statuses ? sql`and p.status in (${sql.join(statuses)})` : sql``;
  return sql<boolean>`exists (
    select 1 from scenarios s join projects p on p.id = s.project_id
    where (s.screener_survey_id = surveys.id or s.embedded_survey_id = surveys.id) ${inStatus})`;
}

/** The questionnaire of a self-service test that has left its draft (issue 15): frozen as it was moderated. */
const lockedSelfServiceSurvey = sql<boolean>`exists (
  select 1 from self_service_tests sst where sst.survey_id = surveys.id and sst.state <> 'draft')`;

const FOREIGN_KEY_VIOLATION = '23503';

export function createSurveysRepository(db: Kysely<DB>) {
  const find = (id: string): Promise<SurveyRow | undefined> =>
    db.selectFrom('surveys').selectAll().where('id', '=', id).executeTakeFirst();

  return {
    find,

    /** The questionnaires of the scope, newest change first. */
    list(scope: ProjectScope, type?: SurveyType): Promise<SurveyRow[]> {
      return db
        .selectFrom('surveys')
        .selectAll()
        .$if(!scope.all, (q) => q.where('owner_id', '=', scope.userId))
        .$if(type !== undefined, (q) => q.where('type', '=', type as SurveyType))
        .orderBy('updated_at', 'desc')
        .orderBy('id')
        .execute();
    },

    /** Where these questionnaires are used: one row per filled slot, by project and scenario order. */
    async links(ids: string[]): Promise<SurveyLinkRow[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('scenarios as s')
        .innerJoin('projects as p', 'p.id', 's.project_id')
        .select([
          's.id as scenario_id',
          's.order_number as scenario_order',
          's.screener_survey_id',
          's.embedded_survey_id',
          'p.id as project_id',
          'p.title as project_title',
          'p.status as project_status',
          'p.respondent_language',
        ])
        .where((eb) => eb.or([eb('s.screener_survey_id', 'in', ids), eb('s.embedded_survey_id', 'in', ids)]))
        .orderBy('p.created_at')
        .orderBy('p.id')
        .orderBy('s.order_number')
        .execute();
      const wanted = new Set(ids);
      return rows.flatMap(({ screener_survey_id, embedded_survey_id, ...link }) => [
        ...(screener_survey_id && wanted.has(screener_survey_id)
          ? [{ ...link, survey_id: screener_survey_id, slot: 'screener' as const }]
          : []),
        ...(embedded_survey_id && wanted.has(embedded_survey_id)
          ? [{ ...link, survey_id: embedded_survey_id, slot: 'survey' as const }]
          : []),
      ]);
    },

    async insert(ownerId: string, type: SurveyType, values: SurveyValues): Promise<string> {
      const row = await db
        .insertInto('surveys')
        .values({
          owner_id: ownerId,
          type,
          title: values.title,
          enabled: values.enabled,
          questions: JSON.stringify(values.questions),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /**
     * Writes the questionnaire at `version` only, and only while no launched project uses it (checked in the
     * same statement, so a launch in between cannot be overwritten): `frozen` or `conflict` otherwise.
     */
    async update(id: string, version: Date, values: SurveyValues): Promise<'ok' | 'frozen' | 'conflict'> {
      const result = await db
        .updateTable('surveys')
        .set({
          title: values.title,
          enabled: values.enabled,
          questions: JSON.stringify(values.questions),
          updated_at: NEXT_VERSION,
        })
        .where('id', '=', id)
        .where('updated_at', '=', version)
        .where(sql<boolean>`not ${linked(FROZEN_STATUSES)}`)
        .where(sql<boolean>`not ${lockedSelfServiceSurvey}`)
        .executeTakeFirst();
      if (result.numUpdatedRows > 0n) return 'ok';
      const frozen = await db
        .selectFrom('surveys')
        .select(sql<boolean>`${linked(FROZEN_STATUSES)} or ${lockedSelfServiceSurvey}`.as('frozen'))
        .where('id', '=', id)
        .executeTakeFirst();
      return frozen?.frozen ? 'frozen' : 'conflict';
    },

    /**
     * Deletes the questionnaire unless a scenario uses it (checked in the statement; a link made meanwhile is
     * refused by the foreign key): `linked` then, `gone` when it no longer exists.
     */
    async delete(id: string): Promise<'deleted' | 'linked' | 'gone'> {
      try {
        const result = await db
          .deleteFrom('surveys')
          .where('id', '=', id)
          .where(sql<boolean>`not ${linked()}`)
          .executeTakeFirst();
        if (result.numDeletedRows > 0n) return 'deleted';
      } catch (err) {
        if ((err as { code?: unknown }).code !== FOREIGN_KEY_VIOLATION) throw err;
        return 'linked';
      }
      return (await find(id)) ? 'linked' : 'gone';
    },

    /**
     * A research's questionnaires: the slots of the scenarios that show it (by scenario order, the first filled
     * slot of each kind; a questionnaire's scenario shows one research, so normally there is one).
     */
    async ofResearch(researchId: string): Promise<Record<SurveySlot, SurveyRow | undefined>> {
      const scenarios = await db
        .selectFrom('scenario_campaigns as sc')
        .innerJoin('scenarios as s', 's.id', 'sc.scenario_id')
        .select(['s.screener_survey_id', 's.embedded_survey_id'])
        .where('sc.campaign_id', '=', researchId)
        .orderBy('s.order_number')
        .execute();
      const screenerId = scenarios.find((s) => s.screener_survey_id)?.screener_survey_id;
      const surveyId = scenarios.find((s) => s.embedded_survey_id)?.embedded_survey_id;
      const ids = [screenerId, surveyId].filter((id): id is string => !!id);
      const rows = ids.length ? await db.selectFrom('surveys').selectAll().where('id', 'in', ids).execute() : [];
      return { screener: rows.find((r) => r.id === screenerId), survey: rows.find((r) => r.id === surveyId) };
    },

    /**
     * The answers to a questionnaire of the research's respondents that the filter takes (sessions of the
     * scenarios showing the research), latest change first, with what the export lists of each respondent.
     */
    /** `sessions`: only these (a report's respondents); null: all the filter takes. */
    async responses(
      researchId: string,
      surveyId: string,
      filter: ResponseFilter,
      sessions: readonly string[] | null = null,
    ) {
      if (sessions?.length === 0) return [];
      return db
        .selectFrom('respondent_sessions')
        .innerJoin('respondent_answers as ra', (j) =>
          j.onRef('ra.session_id', '=', 'respondent_sessions.id').on('ra.survey_id', '=', surveyId),
        )
        .where(
          'respondent_sessions.scenario_id',
          'in',
          db.selectFrom('scenario_campaigns').select('scenario_id').where('campaign_id', '=', researchId),
        )
        .where((eb) => responseFilterWhere(eb, filter))
        .$if(sessions !== null, (q) => q.where('respondent_sessions.id', 'in', sessions as string[]))
        .select([
          'respondent_sessions.id as session_id',
          'respondent_sessions.participant_id',
          'respondent_sessions.status',
          'respondent_sessions.sex',
          'respondent_sessions.age',
          'respondent_sessions.started_at',
          'ra.answers',
          'ra.done',
          'ra.updated_at',
        ])
        .orderBy('ra.updated_at', 'desc')
        .orderBy('respondent_sessions.id')
        .execute();
    },
  };
}

export type SurveysRepository = ReturnType<typeof createSurveysRepository>;
export type SurveyResponseRow = Awaited<ReturnType<SurveysRepository['responses']>>[number];
