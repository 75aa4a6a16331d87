import type { Answers, Sex, SurveySlot } from '@emolens/contracts';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB, RespondentSessionRow, SurveyRow } from '../../db/types.ts';
import { HOLDS_SLOT } from './respondents.repository.ts';

/** A session's stored answers to one slot. */
export interface StoredAnswers {
  slot: SurveySlot;
  survey_id: string;
  answers: Answers;
  done: boolean;
}

/** What a save of answers writes, in one transaction. */
export interface AnswersWrite {
  survey_id: string;
  answers: Answers;
  done: boolean;
  /** The screener's verdict was given (its final answers). */
  screener_ran?: boolean;
  /** Quota options the session passed with: the places it takes. */
  places?: { question: string; option: string }[];
  /** The session ends here, screened out (before any content). */
  screened_out?: boolean;
  /** The respondent's sex and age, when this questionnaire asks them (`respondentProfile`). */
  profile?: { sex?: Sex | null; age?: number | null };
}

/** What the scenario's screener quota shares are shares of: the sources of its sample. */
export interface SampleSources {
  scenario_quota: number | null;
  /** The quota sizes of the scenario's links (null: a link without one). */
  link_quotas: (number | null)[];
  required_respondents: number | null;
}

/** The only Kysely user of a session's questionnaires and answers (`answers.ts`, `questionnaires.ts`). */
export function createRespondentAnswersRepository(db: Kysely<DB>) {
  return {
    /** The enabled questionnaires of a scenario's screener and survey slots (a disabled one is as if none). */
    async questionnairesOf(scenarioId: string): Promise<Record<SurveySlot, SurveyRow | undefined>> {
      const scenario = await db
        .selectFrom('scenarios')
        .select(['screener_survey_id', 'embedded_survey_id'])
        .where('id', '=', scenarioId)
        .executeTakeFirst();
      const ids = [scenario?.screener_survey_id, scenario?.embedded_survey_id].filter((id): id is string => !!id);
      const rows = ids.length
        ? await db.selectFrom('surveys').selectAll().where('id', 'in', ids).where('enabled', '=', true).execute()
        : [];
      return {
        screener: rows.find((r) => r.id === scenario?.screener_survey_id && r.type === 'screener'),
        survey: rows.find((r) => r.id === scenario?.embedded_survey_id && r.type === 'survey'),
      };
    },

    /** The answers a session has stored, per slot. */
    answersOf(sessionId: string): Promise<StoredAnswers[]> {
      return db
        .selectFrom('respondent_answers')
        .select(['slot', 'survey_id', 'answers', 'done'])
        .where('session_id', '=', sessionId)
        .execute();
    },

    /** The numbers a scenario's screener quota shares may be shares of. */
    async sampleSources(scenarioId: string): Promise<SampleSources> {
      const scenario = await db
        .selectFrom('scenarios as s')
        .innerJoin('projects as p', 'p.id', 's.project_id')
        .select(['s.quota', 'p.required_respondents'])
        .where('s.id', '=', scenarioId)
        .executeTakeFirstOrThrow();
      const links = await db
        .selectFrom('project_accessor_links')
        .select('quota_size')
        .where('scenario_id', '=', scenarioId)
        .execute();
      return {
        scenario_quota: scenario.quota,
        link_quotas: links.map((l) => l.quota_size),
        required_respondents: scenario.required_respondents,
      };
    },

    /**
     * Runs `decide` in one transaction holding the session's row, and first the scenario's row when
     * `lockScenario` (a screener's final answers count quota places: the scenario row serialises them, taken
     * in the order a completion takes its rows, link then scenario then session, so the two never deadlock).
     * `decide` sees the session, the slot's stored answers and the places taken of a quota option, and says
     * what to write: the answers (replaced whole), the places, the screener's verdict, all or nothing.
     */
    withAnswers<T>(
      target: { sessionId: string; scenarioId: string; slot: SurveySlot; lockScenario: boolean; quietBefore: Date },
      decide: (state: {
        session: RespondentSessionRow;
        stored: StoredAnswers | undefined;
        placesTaken: (question: string, option: string) => Promise<number>;
      }) => Promise<{ result: T; write?: AnswersWrite }>,
    ): Promise<T> {
      return db.transaction().execute(async (trx) => {
        if (target.lockScenario) {
          await trx.selectFrom('scenarios').select('id').where('id', '=', target.scenarioId).forUpdate().execute();
        }
        const session = await trx
          .selectFrom('respondent_sessions')
          .selectAll()
          .where('id', '=', target.sessionId)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const stored = await trx
          .selectFrom('respondent_answers')
          .select(['slot', 'survey_id', 'answers', 'done'])
          .where('session_id', '=', target.sessionId)
          .where('slot', '=', target.slot)
          .executeTakeFirst();
        const placesTaken = (question: string, option: string) =>
          quotaPlacesTaken(trx, target.scenarioId, question, option, target.quietBefore, target.sessionId);
        const { result, write } = await decide({ session, stored, placesTaken });
        if (!write) return result;
        await trx
          .insertInto('respondent_answers')
          .values({
            session_id: target.sessionId,
            slot: target.slot,
            survey_id: write.survey_id,
            answers: JSON.stringify(write.answers),
            done: write.done,
            updated_at: sql<Date>`now()`,
          })
          .onConflict((c) =>
            c.columns(['session_id', 'slot']).doUpdateSet({
              survey_id: write.survey_id,
              answers: JSON.stringify(write.answers),
              done: write.done,
              updated_at: sql<Date>`now()`,
            }),
          )
          .execute();
        if (write.places?.length) {
          await trx
            .insertInto('respondent_quota_places')
            .values(
              write.places.map((p) => ({
                session_id: target.sessionId,
                scenario_id: target.scenarioId,
                question_id: p.question,
                option_id: p.option,
              })),
            )
            .onConflict((c) => c.doNothing())
            .execute();
        }
        await trx
          .updateTable('respondent_sessions')
          .set({
            last_seen_at: sql<Date>`now()`,
            ...(write.screener_ran ? { screener_ran: true } : {}),
            ...(write.profile ?? {}),
            ...(write.screened_out
              ? { status: 'screened_out', outcome: 'screen_out', step: 'end', ended_at: sql<Date>`now()` }
              : {}),
          })
          .where('id', '=', target.sessionId)
          .execute();
        return result;
      });
    },

    /** A preview session screened out by its screener (nothing else is written for a preview). */
    async screenOutPreview(sessionId: string): Promise<void> {
      await db
        .updateTable('respondent_sessions')
        .set({
          status: 'screened_out',
          outcome: 'screen_out',
          step: 'end',
          screener_ran: true,
          ended_at: sql<Date>`now()`,
        })
        .where('id', '=', sessionId)
        .where('status', '=', 'started')
        .where('is_preview', '=', true)
        .execute();
    },
  };
}

/**
 * Sessions of a scenario (other than `exceptSession`) holding a place of a screener quota option: they passed
 * the screener with it and still run (a started session heard from since `quietBefore`: a quieter one counts
 * as dropped out, like the fieldwork counts, and its place frees), or completed holding a quota slot
 * (`HOLDS_SLOT`: pending or counted). One that ended otherwise (left, quota full, a released completion)
 * gave its place back.
 */
async function quotaPlacesTaken(
  trx: Kysely<DB> | Transaction<DB>,
  scenarioId: string,
  question: string,
  option: string,
  quietBefore: Date,
  exceptSession: string,
): Promise<number> {
  const row = await trx
    .selectFrom('respondent_quota_places as q')
    .innerJoin('respondent_sessions as s', 's.id', 'q.session_id')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('q.scenario_id', '=', scenarioId)
    .where('q.question_id', '=', question)
    .where('q.option_id', '=', option)
    .where('s.id', '<>', exceptSession)
    .where((eb) =>
      eb.or([
        eb.and([eb('s.status', '=', 'started'), eb('s.last_seen_at', '>=', quietBefore)]),
        eb.and([eb('s.status', '=', 'completed'), eb('s.quota_state', 'in', HOLDS_SLOT)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return row.n;
}

export type RespondentAnswersRepository = ReturnType<typeof createRespondentAnswersRepository>;
