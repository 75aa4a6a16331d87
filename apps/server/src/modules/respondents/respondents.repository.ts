import type { AnalysisSite, Outcome, PanelParams, RespondentSessionStatus } from '@emolens/contracts';
import { type Kysely, sql, type Transaction } from 'kysely';
import { isUuid } from '../../db/sql.ts';
import type { DB, RedirectLinks, ResearchRow, RespondentSessionRow } from '../../db/types.ts';

/** A quota link with what the respondent side needs of its scenario and project. */
export interface LinkContext {
  link_id: string;
  token: string;
  quota_size: number | null;
  link_face_checker: boolean;
  is_screener_first: boolean;
  scenario_id: string;
  scenario_quota: number | null;
  scenario_face_checker: boolean;
  is_random_order: boolean;
  redirect_links: RedirectLinks;
  project_id: string;
  project_title: string;
  project_status: RespondentProjectStatus;
  platform: RespondentSessionRow['platform'];
  language: RespondentSessionRow['language'];
  flow_type: 'new' | 'old';
}
type RespondentProjectStatus = 'new' | 'active' | 'completed' | 'archived';

export type NewRespondentSession = {
  link_id: string;
  project_id: string;
  scenario_id: string;
  secret_hash: string;
  status: RespondentSessionStatus;
  is_preview: boolean;
  platform: RespondentSessionRow['platform'];
  participant_id: string | null;
  panel: PanelParams;
  language: RespondentSessionRow['language'];
  consent_policy_version: string;
  consent_language: RespondentSessionRow['language'];
  panel_consent: boolean;
  research_order: string[];
  screen_width: number;
  screen_height: number;
  device_pixel_ratio: number;
  user_agent: string | null;
  outcome: Outcome | null;
  /** `undecided` in privacy mode until the device is measured, else `server` (decision 064). */
  analysis_site: AnalysisSite;
};

const LINK_TOKEN = /^[\w-]{8,64}$/;

/**
 * Completes that hold a quota slot: pending (processing not done) or counted (usable). A released
 * completion gave its slot back.
 */
export const HOLDS_SLOT = ['pending', 'counted'] as const;

/** Completes of a link or a scenario that hold a quota slot (read inside a completion's transaction too). */
export async function slotsTakenOf(trx: Kysely<DB> | Transaction<DB>, column: 'link_id' | 'scenario_id', id: string) {
  const row = await trx
    .selectFrom('respondent_sessions')
    .select(sql<number>`count(*)::int`.as('n'))
    .where(column, '=', id)
    .where('status', '=', 'completed')
    .where('quota_state', 'in', HOLDS_SLOT)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** The only Kysely user of links and sessions as the journey starts, resumes and leaves them. */
export function createRespondentsRepository(db: Kysely<DB>) {
  function linkContext() {
    return db
      .selectFrom('project_accessor_links as l')
      .innerJoin('scenarios as s', 's.id', 'l.scenario_id')
      .innerJoin('projects as p', 'p.id', 'l.project_id')
      .select([
        'l.id as link_id',
        'l.token',
        'l.quota_size',
        'l.is_use_face_checker as link_face_checker',
        'l.is_screener_first',
        's.id as scenario_id',
        's.quota as scenario_quota',
        's.is_use_face_checker as scenario_face_checker',
        's.is_random_order',
        's.redirect_links',
        'p.id as project_id',
        'p.title as project_title',
        'p.status as project_status',
        'p.platform',
        'p.respondent_language as language',
        'p.flow_type',
      ]);
  }

  return {
    /** The link of a token, with its scenario and project; undefined for an unknown token. */
    findLink(token: string): Promise<LinkContext | undefined> {
      if (!LINK_TOKEN.test(token)) return Promise.resolve(undefined);
      return linkContext().where('l.token', '=', token).executeTakeFirst();
    },

    /** The link of a session (it exists: sessions are deleted with their link). */
    linkById(id: string): Promise<LinkContext> {
      return linkContext().where('l.id', '=', id).executeTakeFirstOrThrow();
    },

    /** The researches of a scenario in its order. */
    researchesOfScenario(scenarioId: string): Promise<ResearchRow[]> {
      return db
        .selectFrom('scenario_campaigns as sc')
        .innerJoin('campaigns as c', 'c.id', 'sc.campaign_id')
        .selectAll('c')
        .where('sc.scenario_id', '=', scenarioId)
        .orderBy('sc.position')
        .execute();
    },

    /** Researches by id (order not kept). */
    researchesByIds(ids: string[]): Promise<ResearchRow[]> {
      if (!ids.length) return Promise.resolve([]);
      return db.selectFrom('campaigns').selectAll().where('id', 'in', ids).execute();
    },

    /** Ready files of these researches (what a respondent may be shown). */
    readyMediaOf(researchIds: string[]) {
      if (!researchIds.length) return Promise.resolve([]);
      return db
        .selectFrom('media')
        .select(['id', 'campaign_id', 'kind', 'role', 'status', 'duration_seconds', 'filename', 'created_at'])
        .where('campaign_id', 'in', researchIds)
        .where('status', '=', 'ready')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    findMedia(id: string) {
      if (!isUuid(id)) return Promise.resolve(undefined);
      return db
        .selectFrom('media')
        .select(['id', 'campaign_id', 'mime', 'filename', 'size', 'storage_key', 'status'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Completes of the link and of the scenario that hold a quota slot. */
    async slotsTaken(linkId: string, scenarioId: string): Promise<{ link: number; scenario: number }> {
      return {
        link: await slotsTakenOf(db, 'link_id', linkId),
        scenario: await slotsTakenOf(db, 'scenario_id', scenarioId),
      };
    },

    async participantCompleted(linkId: string, participantId: string): Promise<boolean> {
      const row = await db
        .selectFrom('respondent_sessions')
        .select('id')
        .where('link_id', '=', linkId)
        .where('participant_id', '=', participantId)
        .where('status', '=', 'completed')
        .executeTakeFirst();
      return !!row;
    },

    async insertSession(values: NewRespondentSession, ended: boolean): Promise<RespondentSessionRow> {
      return db
        .insertInto('respondent_sessions')
        .values({
          ...values,
          panel: JSON.stringify(values.panel),
          research_order: JSON.stringify(values.research_order),
          consented_at: sql<Date>`now()`,
          ended_at: ended ? sql<Date>`now()` : null,
          step: ended ? 'end' : 'consent',
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** The session of this id and secret hash; undefined when either does not match. */
    findSession(id: string, secretHash: string): Promise<RespondentSessionRow | undefined> {
      if (!isUuid(id)) return Promise.resolve(undefined);
      return db
        .selectFrom('respondent_sessions')
        .selectAll()
        .where('id', '=', id)
        .where('secret_hash', '=', secretHash)
        .executeTakeFirst();
    },

    findSessionById(id: string): Promise<RespondentSessionRow | undefined> {
      if (!isUuid(id)) return Promise.resolve(undefined);
      return db.selectFrom('respondent_sessions').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Whether any research of the scenario is paused (collection suspended). */
    async scenarioPaused(scenarioId: string): Promise<boolean> {
      const row = await db
        .selectFrom('scenario_campaigns as sc')
        .innerJoin('campaigns as c', 'c.id', 'sc.campaign_id')
        .select('c.id')
        .where('sc.scenario_id', '=', scenarioId)
        .where('c.status', '=', 'paused')
        .executeTakeFirst();
      return !!row;
    },
    /** A started session left for good; false when it had already ended. */
    async leave(sessionId: string, reason: string): Promise<boolean> {
      const result = await db
        .updateTable('respondent_sessions')
        .set({
          status: 'dropped_out',
          leave_reason: reason,
          ended_at: sql<Date>`now()`,
          last_seen_at: sql<Date>`now()`,
        })
        .where('id', '=', sessionId)
        .where('status', '=', 'started')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type RespondentsRepository = ReturnType<typeof createRespondentsRepository>;
