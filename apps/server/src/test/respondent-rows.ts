import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type {
  Outcome,
  QuotaState,
  RespondentSessionStatus,
  RespondentStep,
  VideoProcessStatus,
} from '@emolens/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * Respondent sessions written straight to the database, for tests of what the cabinet reads
 * (counts over every mix of outcomes, quiet sessions, other customers' sessions). The respondent
 * flow itself is tested through the /r API.
 */
export async function insertRespondentSession(
  app: FastifyInstance,
  row: {
    linkId: string;
    status: RespondentSessionStatus;
    step?: RespondentStep;
    quotaState?: QuotaState | null;
    outcome?: Outcome | null;
    preview?: boolean;
    participantId?: string | null;
    /** Minutes since the respondent was last heard from. */
    quietMinutes?: number;
  },
): Promise<string> {
  const db = app.ctx.database.db;
  const link = await db
    .selectFrom('project_accessor_links as l')
    .innerJoin('projects as p', 'p.id', 'l.project_id')
    .select(['l.project_id', 'l.scenario_id', 'p.platform'])
    .where('l.id', '=', row.linkId)
    .executeTakeFirstOrThrow();
  const researches = await db
    .selectFrom('scenario_campaigns')
    .select('campaign_id')
    .where('scenario_id', '=', link.scenario_id)
    .orderBy('position')
    .execute();
  const id = randomUUID();
  const seen = new Date(Date.now() - (row.quietMinutes ?? 0) * 60_000);
  await db
    .insertInto('respondent_sessions')
    .values({
      id,
      link_id: row.linkId,
      project_id: link.project_id,
      scenario_id: link.scenario_id,
      secret_hash: randomBytes(16).toString('hex'),
      status: row.status,
      step: row.step ?? (row.status === 'completed' ? 'end' : 'consent'),
      is_preview: row.preview ?? false,
      platform: link.platform,
      participant_id: row.participantId ?? null,
      language: 'en',
      consent_policy_version: 'test',
      consent_language: 'en',
      consented_at: seen,
      research_order: JSON.stringify(researches.map((c) => c.campaign_id)),
      outcome: row.outcome ?? null,
      quota_state: row.quotaState ?? null,
      started_at: seen,
      last_seen_at: seen,
      ended_at: row.status === 'started' ? null : seen,
    })
    .execute();
  return id;
}

/** A recording segment of the session with the given chunks stored (through `deps.storage`). */
export async function insertRecording(
  app: FastifyInstance,
  sessionId: string,
  segment: number,
  chunks: Buffer[],
  mime = 'video/webm',
): Promise<void> {
  const db = app.ctx.database.db;
  await db
    .insertInto('recording_segments')
    .values({ session_id: sessionId, segment, offset_ms: 0, mime_type: mime })
    .execute();
  for (const [index, bytes] of chunks.entries()) {
    const key = `recordings/${sessionId}/${segment}/${index}.part`;
    await app.ctx.deps.storage.put(key, bytes, bytes.length, mime);
    await db
      .insertInto('recording_chunks')
      .values({
        session_id: sessionId,
        segment,
        index,
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        storage_key: key,
      })
      .execute();
  }
}

export async function insertVideoProcess(
  app: FastifyInstance,
  row: { sessionId: string; researchId: string; status: VideoProcessStatus; progress?: number; attempts?: number },
): Promise<string> {
  const id = randomUUID();
  await app.ctx.database.db
    .insertInto('video_processes')
    .values({
      id,
      session_id: row.sessionId,
      campaign_id: row.researchId,
      status: row.status,
      progress: row.progress ?? 0,
      attempts: row.attempts ?? 0,
    })
    .execute();
  return id;
}

/** A session's event log as one stored batch (times in ms on the session clock, as the browser posts them). */
export async function insertEventLog(
  app: FastifyInstance,
  sessionId: string,
  events: { type: string; t: number; [key: string]: unknown }[],
): Promise<void> {
  await app.ctx.database.db
    .insertInto('session_event_batches')
    .values({
      session_id: sessionId,
      seq: 0,
      events: JSON.stringify(events),
      first_t: events[0]?.t ?? 0,
      last_t: events.at(-1)?.t ?? 0,
      digest: createHash('sha256').update(JSON.stringify(events)).digest('hex'),
    })
    .execute();
}

/** A respondent session's row as stored. */
export function respondentSessionRow(app: FastifyInstance, id: string) {
  return app.ctx.database.db
    .selectFrom('respondent_sessions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}
