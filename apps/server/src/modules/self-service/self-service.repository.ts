import {
  EMPTY_CATEGORIES,
  type Language,
  researchSettingsSchema,
  type SelfServiceAudience,
  type SelfServiceState,
  videoAdSurveyTemplate,
} from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';
import type { DB, ResearchCategories } from '../../db/types.ts';
import { randomToken } from '../auth/tokens.ts';
import { type Charged, chargeSessions } from '../licences/licences.repository.ts';

const DEFAULT_AUDIENCE: SelfServiceAudience = { sex: 'off', age_min: null, age_max: null, regions: [] };

/** Self-service tests (issue 15): each with its project, research, survey and history. */
export function createSelfServiceRepository(db: Kysely<DB>) {
  const base = () =>
    db
      .selectFrom('self_service_tests as t')
      .innerJoin('users as u', 'u.id', 't.owner_id')
      .innerJoin('campaigns as c', 'c.id', 't.campaign_id')
      .leftJoin('project_accessor_links as l', 'l.id', 't.link_id')
      .select([
        'l.token as link_token',
        't.id',
        't.owner_id',
        't.project_id',
        't.campaign_id',
        't.survey_id',
        't.link_id',
        't.report_id',
        't.title',
        't.language',
        't.state',
        't.respondents',
        't.audience',
        't.sessions_per_interview',
        't.session_count',
        't.moderation_comment',
        't.created_at',
        't.updated_at',
        't.submitted_at',
        't.started_at',
        'c.categories',
        'u.public_user_id',
        'u.username',
        'u.first_name',
        'u.last_name',
        // Usable respondents counted for the quota.
        (eb) =>
          eb
            .selectFrom('respondent_sessions as s')
            .select(sql<number>`count(*)::int`.as('n'))
            .whereRef('s.project_id', '=', 't.project_id')
            .where('s.quota_state', '=', 'counted')
            .as('collected'),
      ]);

  async function event(
    trx: Kysely<DB>,
    testId: string,
    state: SelfServiceState,
    actorId: string | null,
    comment?: string,
  ) {
    await trx
      .insertInto('self_service_events')
      .values({ test_id: testId, state, actor_id: actorId, comment: comment ?? null })
      .execute();
  }

  return {
    find(id: string) {
      return base().where('t.id', '=', id).executeTakeFirst();
    },

    /** The owner's tests, or (staff) every test, or those in one state; newest first. */
    list(filter: { ownerId?: string; state?: SelfServiceState }) {
      return base()
        .$if(!!filter.ownerId, (q) => q.where('t.owner_id', '=', filter.ownerId as string))
        .$if(!!filter.state, (q) => q.where('t.state', '=', filter.state as SelfServiceState))
        .orderBy('t.created_at', 'desc')
        .limit(500)
        .execute();
    },

    history(id: string) {
      return db
        .selectFrom('self_service_events as e')
        .leftJoin('users as u', 'u.id', 'e.actor_id')
        .select(['e.state', 'e.comment', 'e.created_at', 'u.username', 'u.first_name', 'u.last_name'])
        .where('e.test_id', '=', id)
        .orderBy('e.created_at')
        .execute();
    },

    /** The test found by its project (a respondent counted, a report built). */
    byProject(projectId: string) {
      return db
        .selectFrom('self_service_tests')
        .select(['id', 'owner_id', 'state', 'campaign_id', 'respondents', 'title'])
        .where('project_id', '=', projectId)
        .executeTakeFirst();
    },

    /** A new draft, made whole or not at all: its project and video research, its survey, and the test. */
    createDraft(values: { ownerId: string; title: string; language: Language }) {
      return db.transaction().execute(async (trx) => {
        const project = await trx
          .insertInto('projects')
          .values({
            title: values.title,
            description: '',
            platform: 'own_audience',
            respondent_language: values.language,
            audience_type: 'simple',
            flow_type: 'new',
            owner_id: values.ownerId,
            created_by: values.ownerId,
            required_respondents: 100,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const research = await trx
          .insertInto('campaigns')
          .values({
            project_id: project.id,
            title: values.title,
            content_type: 'video',
            categories: JSON.stringify(EMPTY_CATEGORIES),
            settings: JSON.stringify(researchSettingsSchema.parse({ currentTaskLang: values.language })),
            is_self_service: true,
            is_new_user_flow: true,
            created_by: values.ownerId,
            modified_by: values.ownerId,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const template = videoAdSurveyTemplate(values.title);
        const survey = await trx
          .insertInto('surveys')
          .values({
            owner_id: values.ownerId,
            type: 'survey',
            title: template.title,
            enabled: true,
            questions: JSON.stringify(template.questions),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const test = await trx
          .insertInto('self_service_tests')
          .values({
            owner_id: values.ownerId,
            project_id: project.id,
            campaign_id: research.id,
            survey_id: survey.id,
            title: values.title,
            language: values.language,
            audience: JSON.stringify(DEFAULT_AUDIENCE),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await event(trx, test.id, 'draft', values.ownerId);
        return test.id;
      });
    },

    /** A draft's fields, if it is still a draft at `version`; false otherwise. The research follows. */
    updateDraft(
      id: string,
      version: Date,
      patch: {
        title?: string;
        respondents?: number;
        audience?: SelfServiceAudience;
        categories?: ResearchCategories;
      },
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('self_service_tests')
          .set({
            ...(patch.title !== undefined ? { title: patch.title } : {}),
            ...(patch.respondents !== undefined ? { respondents: patch.respondents } : {}),
            ...(patch.audience !== undefined ? { audience: JSON.stringify(patch.audience) } : {}),
            updated_at: sql<Date>`now()`,
          })
          .where('id', '=', id)
          .where('state', '=', 'draft')
          .where(
            sql<boolean>`date_trunc('milliseconds', updated_at) = date_trunc('milliseconds', ${version}::timestamptz)`,
          )
          .returning(['project_id', 'campaign_id'])
          .executeTakeFirst();
        if (!row) return false;
        if (patch.title !== undefined || patch.categories !== undefined) {
          await trx
            .updateTable('campaigns')
            .set({
              ...(patch.title !== undefined ? { title: patch.title } : {}),
              ...(patch.categories !== undefined ? { categories: JSON.stringify(patch.categories) } : {}),
              updated_at: sql<Date>`now()`,
            })
            .where('id', '=', row.campaign_id)
            .execute();
        }
        if (patch.title !== undefined || patch.respondents !== undefined) {
          await trx
            .updateTable('projects')
            .set({
              ...(patch.title !== undefined ? { title: patch.title } : {}),
              ...(patch.respondents !== undefined ? { required_respondents: patch.respondents } : {}),
              updated_at: sql<Date>`now()`,
            })
            .where('id', '=', row.project_id)
            .execute();
        }
        return true;
      });
    },

    /**
     * Moves the test from one of `from` to `to` (with the history entry), and nothing when it is no longer in
     * `from` (a second send, approval or start at once); false then.
     */
    transition(
      id: string,
      from: readonly SelfServiceState[],
      to: SelfServiceState,
      actorId: string | null,
      extra: { comment?: string; submitted?: boolean; moderationComment?: string | null; reportId?: string } = {},
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('self_service_tests')
          .set({
            state: to,
            updated_at: sql<Date>`now()`,
            ...(extra.submitted ? { submitted_at: sql<Date>`now()` } : {}),
            ...(extra.moderationComment !== undefined ? { moderation_comment: extra.moderationComment } : {}),
            ...(extra.reportId ? { report_id: extra.reportId } : {}),
          })
          .where('id', '=', id)
          .where('state', 'in', from)
          .returning('id')
          .executeTakeFirst();
        if (!row) return false;
        await event(trx, id, to, actorId, extra.comment);
        return true;
      });
    },

    /**
     * Starts a moderated test: freezes its session count and charges it to the owner's licence in one
     * transaction, so it starts once and is charged once; a balance that cannot cover it (or no licence) charges
     * nothing and answers the balance.
     */
    start(
      id: string,
      charge: { ownerId: string; projectId: string; perInterview: number; sessions: number },
    ): Promise<'not_moderated' | { short: true; balance: number } | Charged> {
      return db.transaction().execute(async (trx) => {
        const test = await trx
          .selectFrom('self_service_tests')
          .select('state')
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (test?.state !== 'moderation_ok') return 'not_moderated';
        const charged = await chargeSessions(
          trx,
          {
            userId: charge.ownerId,
            kind: 'self_service',
            ref: `self_service:${id}`,
            sessions: charge.sessions,
            projectId: charge.projectId,
          },
          true,
        );
        if (!charged) return { short: true, balance: 0 };
        if ('short' in charged) return charged;
        await trx
          .updateTable('self_service_tests')
          .set({
            state: 'collection',
            sessions_per_interview: charge.perInterview,
            session_count: charge.sessions,
            started_at: sql<Date>`now()`,
            updated_at: sql<Date>`now()`,
          })
          .where('id', '=', id)
          .execute();
        await event(trx, id, 'collection', charge.ownerId);
        return charged;
      });
    },

    /**
     * What collecting needs underneath, made once (a retry after a crash finds what was made): the scenario with
     * the research and the survey, the quota link of the test's respondents, and the project launched.
     */
    openCollection(id: string) {
      return db.transaction().execute(async (trx) => {
        const test = await trx
          .selectFrom('self_service_tests')
          .select(['project_id', 'campaign_id', 'survey_id', 'respondents', 'link_id', 'state'])
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        if (test.link_id || test.state !== 'collection') return;
        const scenario = await trx
          .insertInto('scenarios')
          .values({
            project_id: test.project_id,
            order_number: 1,
            description: '',
            embedded_survey_id: test.survey_id,
            quota: test.respondents,
            redirect_links: JSON.stringify({ complete: '', quota_full: '', screen_out: '' }),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('scenario_campaigns')
          .values({ scenario_id: scenario.id, campaign_id: test.campaign_id, position: 0 })
          .execute();
        const link = await trx
          .insertInto('project_accessor_links')
          .values({
            project_id: test.project_id,
            scenario_id: scenario.id,
            token: randomToken(18),
            quota_size: test.respondents,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('projects')
          .set({ status: 'active', launched_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
          .where('id', '=', test.project_id)
          .where('status', '=', 'new')
          .execute();
        await trx.updateTable('self_service_tests').set({ link_id: link.id }).where('id', '=', id).execute();
      });
    },

    /** The test a report was made for. */
    byReport(reportId: string) {
      return db
        .selectFrom('self_service_tests')
        .select(['id', 'owner_id', 'title', 'language'])
        .where('report_id', '=', reportId)
        .executeTakeFirst();
    },

    async setReport(id: string, reportId: string) {
      await db.updateTable('self_service_tests').set({ report_id: reportId }).where('id', '=', id).execute();
    },

    /** Completes or archives the test and its project together; false when the test is not in `from`. */
    close(id: string, from: SelfServiceState, to: 'completed' | 'archived', actorId: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('self_service_tests')
          .set({ state: to, updated_at: sql<Date>`now()` })
          .where('id', '=', id)
          .where('state', '=', from)
          .returning('project_id')
          .executeTakeFirst();
        if (!row) return false;
        await trx
          .updateTable('projects')
          .set({
            status: to,
            ...(to === 'completed' ? { completed_at: sql<Date>`now()` } : { archived_at: sql<Date>`now()` }),
            updated_at: sql<Date>`now()`,
          })
          .where('id', '=', row.project_id)
          .execute();
        await event(trx, id, to, actorId);
        return true;
      });
    },

    /** Deletes a draft with its project (research, media rows) and survey; false when it is no longer a draft. */
    deleteDraft(id: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const test = await trx
          .deleteFrom('self_service_tests')
          .where('id', '=', id)
          .where('state', '=', 'draft')
          .returning(['project_id', 'survey_id'])
          .executeTakeFirst();
        if (!test) return false;
        await trx.deleteFrom('projects').where('id', '=', test.project_id).execute();
        if (test.survey_id) await trx.deleteFrom('surveys').where('id', '=', test.survey_id).execute();
        return true;
      });
    },
  };
}

export type SelfServiceRepository = ReturnType<typeof createSelfServiceRepository>;
export type SelfServiceRow = NonNullable<Awaited<ReturnType<SelfServiceRepository['find']>>>;
