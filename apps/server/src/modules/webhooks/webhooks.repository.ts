import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { TokenCipher } from '../recruiting-tokens/crypto.ts';

const COLUMNS = [
  'id',
  'user_id',
  'url',
  'description',
  'event_types',
  'secret_prefix',
  'enabled',
  'disabled_reason',
  'disabled_at',
  'failing_since',
  'created_at',
] as const;

/** The associated data an endpoint's secret is sealed with: its row. */
const aadOf = (id: string) => `webhook_endpoints:${id}`;

export interface AttemptRecord {
  messageId: string;
  endpointId: string;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  succeeded: boolean;
  /** When the next attempt is due; null: none follows (delivered, or given up). */
  nextAttemptAt: Date | null;
}

/**
 * Webhook endpoints, their messages and the attempts to deliver them (decision 066). An endpoint's secret is sealed
 * on the way in and opened only for signing.
 */
export function createWebhooksRepository(db: Kysely<DB>, cipher: TokenCipher) {
  return {
    list(userId: string) {
      return db
        .selectFrom('webhook_endpoints')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },

    async count(userId: string): Promise<number> {
      const row = await db
        .selectFrom('webhook_endpoints')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** The endpoint when it is the user's. */
    find(userId: string, id: string) {
      return db
        .selectFrom('webhook_endpoints')
        .select(COLUMNS)
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
    },

    async create(
      userId: string,
      values: { url: string; description: string; eventTypes: WebhookEventType[]; secret: string; prefix: string },
    ) {
      const id = randomUUID();
      return db
        .insertInto('webhook_endpoints')
        .values({
          id,
          user_id: userId,
          url: values.url,
          description: values.description,
          event_types: JSON.stringify(values.eventTypes),
          secret: cipher.encrypt(values.secret, aadOf(id)),
          secret_prefix: values.prefix,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
    },

    /** Changes the user's endpoint; enabling it again clears why it was disabled and its failing streak. */
    update(
      userId: string,
      id: string,
      values: { url?: string; description?: string; eventTypes?: WebhookEventType[]; enabled?: boolean },
    ) {
      return db
        .updateTable('webhook_endpoints')
        .set({
          ...(values.url !== undefined ? { url: values.url } : {}),
          ...(values.description !== undefined ? { description: values.description } : {}),
          ...(values.eventTypes !== undefined ? { event_types: JSON.stringify(values.eventTypes) } : {}),
          ...(values.enabled !== undefined
            ? { enabled: values.enabled, disabled_reason: null, disabled_at: null, failing_since: null }
            : {}),
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returning(COLUMNS)
        .executeTakeFirst();
    },

    rotateSecret(userId: string, id: string, values: { secret: string; prefix: string }) {
      return db
        .updateTable('webhook_endpoints')
        .set({
          secret: cipher.encrypt(values.secret, aadOf(id)),
          secret_prefix: values.prefix,
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returning(COLUMNS)
        .executeTakeFirst();
    },

    async remove(userId: string, id: string): Promise<boolean> {
      const row = await db
        .deleteFrom('webhook_endpoints')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returning('id')
        .executeTakeFirst();
      return !!row;
    },

    /** The newest attempts on the endpoint, with their message's event and when its next attempt is due. */
    attempts(endpointId: string, limit: number) {
      return db
        .selectFrom('webhook_attempts as a')
        .innerJoin('webhook_messages as m', 'm.id', 'a.message_id')
        .select([
          'a.id',
          'a.message_id',
          'm.event_type',
          'a.attempt',
          'a.attempted_at',
          'a.status_code',
          'a.error',
          'a.duration_ms',
          'a.succeeded',
          sql<Date | null>`case when a.attempt = m.attempts then m.next_attempt_at end`.as('next_attempt_at'),
        ])
        .where('a.endpoint_id', '=', endpointId)
        .orderBy('a.attempted_at', 'desc')
        .orderBy('a.attempt', 'desc')
        .limit(limit)
        .execute();
    },

    /** The enabled endpoints of the user that chose `type`. */
    subscribed(userId: string, type: WebhookEventType) {
      return db
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('user_id', '=', userId)
        .where('enabled', '=', true)
        .where(sql<boolean>`event_types @> ${JSON.stringify([type])}::jsonb`)
        .execute();
    },

    /** A message for each endpoint that has none for this event yet; the ids made. */
    async addMessages(
      endpointIds: string[],
      values: { eventType: string; eventKey: string; body: string },
      newId: () => string,
    ): Promise<string[]> {
      if (!endpointIds.length) return [];
      const rows = await db
        .insertInto('webhook_messages')
        .values(
          endpointIds.map((endpoint_id) => ({
            id: newId(),
            endpoint_id,
            event_type: values.eventType,
            event_key: values.eventKey,
            body: values.body,
          })),
        )
        .onConflict((c) => c.columns(['endpoint_id', 'event_key']).doNothing())
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },

    /** A message still to deliver, with its endpoint's address, state and opened secret. */
    async pendingMessage(messageId: string) {
      const row = await db
        .selectFrom('webhook_messages as m')
        .innerJoin('webhook_endpoints as e', 'e.id', 'm.endpoint_id')
        .select([
          'm.id',
          'm.endpoint_id',
          'm.body',
          'm.attempts',
          'm.created_at',
          'e.url',
          'e.enabled',
          'e.secret',
          'e.failing_since',
        ])
        .where('m.id', '=', messageId)
        .where('m.state', '=', 'pending')
        .executeTakeFirst();
      if (!row) return undefined;
      const { secret, ...rest } = row;
      return { ...rest, secret: cipher.decrypt(secret, aadOf(row.endpoint_id)) };
    },

    /**
     * Writes an attempt and its message's state in one transaction, counted once: a repeated run of the same attempt
     * (a redelivered job) writes nothing and answers false. A success ends the endpoint's failing streak; a failure
     * starts it when none runs.
     */
    recordAttempt(record: AttemptRecord): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('webhook_messages')
          .set({
            attempts: record.attempt,
            state: record.succeeded ? 'succeeded' : record.nextAttemptAt ? 'pending' : 'failed',
            next_attempt_at: record.nextAttemptAt,
          })
          .where('id', '=', record.messageId)
          .where('state', '=', 'pending')
          .where('attempts', '=', record.attempt - 1)
          .returning('id')
          .executeTakeFirst();
        if (!moved) return false;
        await trx
          .insertInto('webhook_attempts')
          .values({
            message_id: record.messageId,
            endpoint_id: record.endpointId,
            attempt: record.attempt,
            status_code: record.statusCode,
            error: record.error,
            duration_ms: record.durationMs,
            succeeded: record.succeeded,
          })
          .execute();
        await trx
          .updateTable('webhook_endpoints')
          .set(
            record.succeeded ? { failing_since: null } : { failing_since: sql<Date>`coalesce(failing_since, now())` },
          )
          .where('id', '=', record.endpointId)
          .execute();
        return true;
      });
    },

    /** Disables an enabled endpoint that has failed since before `since`; true when it did. */
    async disableFailing(endpointId: string, since: Date): Promise<boolean> {
      const row = await db
        .updateTable('webhook_endpoints')
        .set({
          enabled: false,
          disabled_reason: 'failing',
          disabled_at: sql<Date>`now()`,
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', endpointId)
        .where('enabled', '=', true)
        .where('failing_since', '<=', since)
        .returning('id')
        .executeTakeFirst();
      return !!row;
    },

    /**
     * Deletes the finished messages (delivered or given up) made before `before`, their attempts with them, a batch
     * at a time; pending ones stay whatever their age. How many were deleted.
     */
    async pruneLog(before: Date, batch = 5000): Promise<number> {
      let removed = 0;
      for (;;) {
        const result = await db
          .deleteFrom('webhook_messages')
          .where(
            'id',
            'in',
            db
              .selectFrom('webhook_messages')
              .select('id')
              .where('state', 'in', ['succeeded', 'failed'])
              .where('created_at', '<', before)
              .limit(batch),
          )
          .executeTakeFirst();
        const n = Number(result.numDeletedRows);
        removed += n;
        if (n < batch) return removed;
      }
    },

    /** Ends the pending messages of an endpoint that no longer sends (disabled). */
    async dropPending(endpointId: string) {
      await db
        .updateTable('webhook_messages')
        .set({ state: 'failed', next_attempt_at: null })
        .where('endpoint_id', '=', endpointId)
        .where('state', '=', 'pending')
        .execute();
    },

    /** Whose a session, video process, report or self-service test is, with what a webhook tells of it. */
    sessionFacts(sessionId: string) {
      return db
        .selectFrom('respondent_sessions as s')
        .innerJoin('projects as p', 'p.id', 's.project_id')
        .select([
          's.id',
          's.project_id',
          's.link_id',
          's.scenario_id',
          's.status',
          's.is_preview',
          's.participant_id',
          's.platform',
          's.ended_at',
          'p.owner_id',
        ])
        .where('s.id', '=', sessionId)
        .executeTakeFirst();
    },

    processFacts(processId: string) {
      return db
        .selectFrom('video_processes as v')
        .innerJoin('respondent_sessions as s', 's.id', 'v.session_id')
        .innerJoin('projects as p', 'p.id', 's.project_id')
        .select(['v.id', 'v.session_id', 'v.campaign_id', 's.project_id', 's.link_id', 's.is_preview', 'p.owner_id'])
        .where('v.id', '=', processId)
        .executeTakeFirst();
    },

    /** A quota link's size and the sessions counted in it. */
    async linkQuota(linkId: string) {
      const row = await db
        .selectFrom('project_accessor_links as l')
        .select([
          'l.id',
          'l.project_id',
          'l.scenario_id',
          'l.quota_size',
          (eb) =>
            eb
              .selectFrom('respondent_sessions as s')
              .select((e) => e.fn.countAll<string>().as('n'))
              .whereRef('s.link_id', '=', 'l.id')
              .where('s.quota_state', '=', 'counted')
              .as('counted'),
        ])
        .where('l.id', '=', linkId)
        .executeTakeFirst();
      return row && { ...row, counted: Number(row.counted ?? 0) };
    },

    reportFacts(reportId: string) {
      return db
        .selectFrom('reports as r')
        .innerJoin('campaigns as c', 'c.id', 'r.campaign_id')
        .innerJoin('projects as p', 'p.id', 'c.project_id')
        .select(['r.id', 'r.name', 'r.campaign_id', 'c.project_id', 'p.owner_id'])
        .where('r.id', '=', reportId)
        .executeTakeFirst();
    },

    selfServiceFacts(testId: string) {
      return db
        .selectFrom('self_service_tests')
        .select(['id', 'owner_id', 'project_id', 'campaign_id', 'state', 'title'])
        .where('id', '=', testId)
        .executeTakeFirst();
    },
  };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
