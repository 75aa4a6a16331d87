import type {
  Answers,
  Outcome,
  PanelParams,
  RespondentSessionStatus,
  RespondentStep,
  Sex,
  SurveySlot,
} from '@emolens/contracts';
import { type Insertable, type Kysely, sql, type Transaction } from 'kysely';
import { isUuid } from '../../db/sql.ts';
import type {
  CampaignRow,
  DB,
  RecordingChunksTable,
  RedirectLinks,
  RespondentSessionRow,
  SurveyRow,
} from '../../db/types.ts';

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
};

export interface SegmentSummary {
  segment: number;
  offset_ms: number;
  mime_type: string;
  chunks: number;
  /** The highest chunk index stored + 1 (equals `chunks` when there is no gap). */
  next_index: number;
}

export interface StoredChunk {
  index: number;
  sha256: string;
  storage_key: string;
}

export interface StoredBatch {
  seq: number;
  digest: string;
  last_t: number;
}

/** What a completion found while it held the link and scenario rows. */
export type CompletionResult = 'completed' | 'quota_full' | 'already_ended';

const LINK_TOKEN = /^[\w-]{8,64}$/;

/**
 * Completes that hold a quota slot: pending (processing not done) or counted (usable). A released
 * completion gave its slot back.
 */
const HOLDS_SLOT = ['pending', 'counted'] as const;

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

export function createRespondentsRepository(db: Kysely<DB>) {
  async function slotsTaken(trx: Kysely<DB> | Transaction<DB>, column: 'link_id' | 'scenario_id', id: string) {
    const row = await trx
      .selectFrom('respondent_sessions')
      .select(sql<number>`count(*)::int`.as('n'))
      .where(column, '=', id)
      .where('status', '=', 'completed')
      .where('quota_state', 'in', HOLDS_SLOT)
      .executeTakeFirstOrThrow();
    return row.n;
  }

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
    researchesOfScenario(scenarioId: string): Promise<CampaignRow[]> {
      return db
        .selectFrom('scenario_campaigns as sc')
        .innerJoin('campaigns as c', 'c.id', 'sc.campaign_id')
        .selectAll('c')
        .where('sc.scenario_id', '=', scenarioId)
        .orderBy('sc.position')
        .execute();
    },

    /** Researches by id (order not kept). */
    researchesByIds(ids: string[]): Promise<CampaignRow[]> {
      if (!ids.length) return Promise.resolve([]);
      return db.selectFrom('campaigns').selectAll().where('id', 'in', ids).execute();
    },

    /** Ready files of these researches (what a respondent may be shown). */
    readyMediaOf(campaignIds: string[]) {
      if (!campaignIds.length) return Promise.resolve([]);
      return db
        .selectFrom('media')
        .select(['id', 'campaign_id', 'kind', 'role', 'status', 'duration_seconds', 'filename', 'created_at'])
        .where('campaign_id', 'in', campaignIds)
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
        link: await slotsTaken(db, 'link_id', linkId),
        scenario: await slotsTaken(db, 'scenario_id', scenarioId),
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

    async segments(sessionId: string): Promise<SegmentSummary[]> {
      const rows = await db
        .selectFrom('recording_segments as s')
        .leftJoin('recording_chunks as c', (j) =>
          j.onRef('c.session_id', '=', 's.session_id').onRef('c.segment', '=', 's.segment'),
        )
        .select([
          's.segment',
          's.offset_ms',
          's.mime_type',
          sql<number>`count(c.index)::int`.as('chunks'),
          sql<number>`coalesce(max(c.index) + 1, 0)::int`.as('next_index'),
        ])
        .where('s.session_id', '=', sessionId)
        .groupBy(['s.segment', 's.offset_ms', 's.mime_type'])
        .orderBy('s.segment')
        .execute();
      return rows;
    },

    /**
     * Starts the next segment of a started session at the session clock's now; undefined when the
     * session is no longer started, or it has every segment it may have.
     */
    startSegment(
      sessionId: string,
      mimeType: string,
      screen: { width: number; height: number; device_pixel_ratio: number },
      maxSegments: number,
    ): Promise<{ segment: number; offset_ms: number } | 'ended' | 'full'> {
      return db.transaction().execute(async (trx) => {
        const session = await trx
          .selectFrom('respondent_sessions')
          .select(['status', sql<number>`floor(extract(epoch from (now() - started_at)) * 1000)::int`.as('clock')])
          .where('id', '=', sessionId)
          .forUpdate()
          .executeTakeFirstOrThrow();
        if (session.status !== 'started') return 'ended';
        const { next } = await trx
          .selectFrom('recording_segments')
          .select(sql<number>`coalesce(max(segment) + 1, 0)::int`.as('next'))
          .where('session_id', '=', sessionId)
          .executeTakeFirstOrThrow();
        if (next >= maxSegments) return 'full';
        const offset = Math.max(0, session.clock);
        await trx
          .insertInto('recording_segments')
          .values({ session_id: sessionId, segment: next, offset_ms: offset, mime_type: mimeType })
          .execute();
        await trx
          .updateTable('respondent_sessions')
          .set({
            screen_width: screen.width,
            screen_height: screen.height,
            device_pixel_ratio: screen.device_pixel_ratio,
            last_seen_at: sql<Date>`now()`,
          })
          .where('id', '=', sessionId)
          .execute();
        return { segment: next, offset_ms: offset };
      });
    },

    /**
     * A segment as the next chunk meets it, in one round trip: its type, how many chunks it holds
     * and the one stored at `index`; undefined when the segment was never started.
     */
    async chunkState(
      sessionId: string,
      segment: number,
      index: number,
    ): Promise<{ mimeType: string; count: number; at: StoredChunk | undefined } | undefined> {
      const row = await db
        .selectFrom('recording_segments as s')
        .leftJoin('recording_chunks as at', (join) =>
          join
            .onRef('at.session_id', '=', 's.session_id')
            .onRef('at.segment', '=', 's.segment')
            .on('at.index', '=', index),
        )
        .select((eb) => [
          's.mime_type',
          'at.sha256',
          'at.storage_key',
          eb
            .selectFrom('recording_chunks as c')
            .select(sql<number>`count(*)::int`.as('n'))
            .whereRef('c.session_id', '=', 's.session_id')
            .whereRef('c.segment', '=', 's.segment')
            .as('count'),
        ])
        .where('s.session_id', '=', sessionId)
        .where('s.segment', '=', segment)
        .executeTakeFirst();
      if (!row) return undefined;
      const at =
        row.sha256 && row.storage_key ? { index, sha256: row.sha256, storage_key: row.storage_key } : undefined;
      return { mimeType: row.mime_type, count: Number(row.count ?? 0), at };
    },

    /**
     * Records a stored chunk unless the session has ended meanwhile or another request stored the
     * same index first: the row that is there afterwards, and whether it is this one. One statement:
     * the session's row is locked while it is still `started` (a completion holding it first makes
     * the lock see the ended status and insert nothing), the chunk inserted and the session touched.
     */
    async insertChunk(
      row: Omit<Insertable<RecordingChunksTable>, 'created_at'>,
    ): Promise<{ inserted: boolean; ended: boolean; existing: StoredChunk | undefined }> {
      const result = await sql<{ started: boolean; inserted: boolean }>`
        with live as (
          select id from respondent_sessions where id = ${row.session_id} and status = 'started' for update
        ), added as (
          insert into recording_chunks (session_id, segment, index, size, sha256, storage_key)
          select ${row.session_id}, ${row.segment}, ${row.index}, ${row.size}, ${row.sha256}, ${row.storage_key}
          from live
          on conflict (session_id, segment, index) do nothing
          returning index
        ), touched as (
          update respondent_sessions set last_seen_at = now()
          where id in (select id from live) and exists (select 1 from added)
          returning id
        )
        select exists (select 1 from live) as started, exists (select 1 from added) as inserted
      `.execute(db);
      const { started, inserted } = result.rows[0] ?? { started: false, inserted: false };
      if (inserted) return { inserted, ended: false, existing: undefined };
      if (!started) return { inserted, ended: true, existing: undefined };
      const existing = await db
        .selectFrom('recording_chunks')
        .select(['index', 'sha256', 'storage_key'])
        .where('session_id', '=', row.session_id)
        .where('segment', '=', row.segment)
        .where('index', '=', row.index)
        .executeTakeFirst();
      return { inserted, ended: false, existing };
    },

    async nextEventSeq(sessionId: string): Promise<number> {
      const { next } = await db
        .selectFrom('session_event_batches')
        .select(sql<number>`coalesce(max(seq) + 1, 0)::int`.as('next'))
        .where('session_id', '=', sessionId)
        .executeTakeFirstOrThrow();
      return next;
    },

    /**
     * Runs `decide` in one short transaction holding the session row: it sees the session, the next
     * expected batch, the last stored batch and the stored batch at `seq`, and says what to write.
     */
    withEventLog<T>(
      sessionId: string,
      seq: number,
      decide: (state: {
        session: RespondentSessionRow;
        clockMs: number;
        next: number;
        previous: StoredBatch | undefined;
        atSeq: StoredBatch | undefined;
      }) => { result: T; write?: EventWrite },
    ): Promise<T> {
      return db.transaction().execute(async (trx) => {
        const session = await trx
          .selectFrom('respondent_sessions')
          .selectAll()
          .select(sql<number>`extract(epoch from (now() - started_at)) * 1000`.as('clock_ms'))
          .where('id', '=', sessionId)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const { clock_ms, ...row } = session;
        const last = await trx
          .selectFrom('session_event_batches')
          .select(['seq', 'digest', 'last_t'])
          .where('session_id', '=', sessionId)
          .orderBy('seq', 'desc')
          .limit(1)
          .executeTakeFirst();
        const next = last ? last.seq + 1 : 0;
        const atSeq =
          seq < next
            ? await trx
                .selectFrom('session_event_batches')
                .select(['seq', 'digest', 'last_t'])
                .where('session_id', '=', sessionId)
                .where('seq', '=', seq)
                .executeTakeFirst()
            : undefined;
        const { result, write } = decide({
          session: row as RespondentSessionRow,
          clockMs: Number(clock_ms),
          next,
          previous: last,
          atSeq,
        });
        if (write) {
          await trx
            .insertInto('session_event_batches')
            .values({
              session_id: sessionId,
              seq,
              events: JSON.stringify(write.events),
              first_t: write.first_t,
              last_t: write.last_t,
              digest: write.digest,
            })
            .execute();
          await trx
            .updateTable('respondent_sessions')
            .set({
              last_seen_at: sql<Date>`now()`,
              ...(write.step ? { step: write.step } : {}),
              ...(write.research_index !== undefined ? { research_index: write.research_index } : {}),
            })
            .where('id', '=', sessionId)
            .execute();
        }
        return result;
      });
    },

    /** Every stored batch's events in order (for the completion check). */
    async batches(sessionId: string): Promise<{ seq: number; events: unknown[] }[]> {
      return db
        .selectFrom('session_event_batches')
        .select(['seq', 'events'])
        .where('session_id', '=', sessionId)
        .orderBy('seq')
        .execute();
    },

    /**
     * Completes a started session in one short transaction: holds the link and scenario rows (in
     * this order, always), counts the completes that hold a slot, and either marks the session
     * completed with a video process per research, or quota full.
     */
    complete(
      session: Pick<RespondentSessionRow, 'id' | 'link_id' | 'scenario_id'>,
      researchIds: string[],
    ): Promise<CompletionResult> {
      return db.transaction().execute(async (trx) => {
        const link = await trx
          .selectFrom('project_accessor_links')
          .select('quota_size')
          .where('id', '=', session.link_id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const scenario = await trx
          .selectFrom('scenarios')
          .select('quota')
          .where('id', '=', session.scenario_id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        const current = await trx
          .selectFrom('respondent_sessions')
          .select('status')
          .where('id', '=', session.id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        if (current.status !== 'started') return 'already_ended';
        const full =
          (link.quota_size !== null && (await slotsTaken(trx, 'link_id', session.link_id)) >= link.quota_size) ||
          (scenario.quota !== null && (await slotsTaken(trx, 'scenario_id', session.scenario_id)) >= scenario.quota);
        if (full) {
          await endSession(trx, session.id, 'quota_full', 'quota_full', null);
          return 'quota_full';
        }
        await endSession(trx, session.id, 'completed', 'complete', 'pending');
        if (researchIds.length) {
          await trx
            .insertInto('video_processes')
            .values(researchIds.map((campaign_id) => ({ session_id: session.id, campaign_id, status: 'collected' })))
            .onConflict((c) => c.columns(['session_id', 'campaign_id']).doNothing())
            .execute();
        }
        return 'completed';
      });
    },

    /** Ends a started preview session as complete (nothing is counted or processed). */
    async completePreview(sessionId: string): Promise<void> {
      await db
        .updateTable('respondent_sessions')
        .set({ status: 'completed', outcome: 'complete', step: 'end', ended_at: sql<Date>`now()` })
        .where('id', '=', sessionId)
        .where('status', '=', 'started')
        .execute();
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

    videoProcesses(sessionId: string) {
      return db.selectFrom('video_processes').selectAll().where('session_id', '=', sessionId).execute();
    },
  };
}

export interface EventWrite {
  events: unknown[];
  first_t: number;
  last_t: number;
  digest: string;
  step?: RespondentStep;
  research_index?: number;
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

async function endSession(
  trx: Transaction<DB>,
  id: string,
  status: RespondentSessionStatus,
  outcome: Outcome,
  quotaState: 'pending' | null,
): Promise<void> {
  await trx
    .updateTable('respondent_sessions')
    .set({
      status,
      outcome,
      quota_state: quotaState,
      step: 'end',
      ended_at: sql<Date>`now()`,
      last_seen_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .execute();
}

export type RespondentsRepository = ReturnType<typeof createRespondentsRepository>;
