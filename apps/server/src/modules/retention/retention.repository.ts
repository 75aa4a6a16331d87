import type { DeletionIdentifierKind, DeletionReason, DeletionScope } from '@emolens/contracts';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';

/** A session the retention sweep picked (locked until its transaction ends). */
interface Picked {
  id: string;
  project_id: string;
}

export interface DeletionRecord {
  projectId: string;
  userId: string | null;
  reason: DeletionReason;
  scope: DeletionScope;
  identifierKind: DeletionIdentifierKind | null;
  identifier: string | null;
  sessionCount: number;
}

export type DeletionRow = Awaited<
  ReturnType<ReturnType<typeof createRetentionRepository>['listDeletions']>
>['items'][number];

/** Process states after which a recording is no longer needed (features are stored). */
const FINISHED = sql.raw(`('done', 'detection_error')`);

async function record(trx: Transaction<DB> | Kysely<DB>, r: DeletionRecord): Promise<string> {
  const row = await trx
    .insertInto('data_deletions')
    .values({
      project_id: r.projectId,
      user_id: r.userId,
      reason: r.reason,
      scope: r.scope,
      identifier_kind: r.identifierKind,
      identifier: r.identifier,
      session_count: r.sessionCount,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Per project, how many of the picked sessions belong to it. */
function perProject(rows: Picked[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.project_id, (counts.get(row.project_id) ?? 0) + 1);
  return counts;
}

/** The retention job's record of what it deleted of the picked sessions: one per project. */
async function recordRetention(trx: Transaction<DB>, rows: Picked[], scope: DeletionScope): Promise<void> {
  for (const [projectId, count] of perProject(rows)) {
    await record(trx, {
      projectId,
      userId: null,
      reason: 'retention',
      scope,
      identifierKind: null,
      identifier: null,
      sessionCount: count,
    });
  }
}

export function createRetentionRepository(db: Kysely<DB>) {
  const deletions = () =>
    db
      .selectFrom('data_deletions as d')
      .leftJoin('users as u', 'u.id', 'd.user_id')
      .select([
        'd.id',
        'd.created_at',
        'd.reason',
        'd.scope',
        'd.identifier_kind',
        'd.identifier',
        'd.session_count',
        'u.public_user_id',
        'u.username',
        sql<string | null>`trim(u.first_name || ' ' || u.last_name)`.as('user_name'),
      ]);

  return {
    /**
     * Deletes the project's sessions named by the identifier (rows cascade to segments, chunks — whose
     * files the trigger hands to the storage trash —, event batches, video processes and results) and
     * records the deletion, in one transaction. Nothing matched: nothing deleted, nothing recorded.
     */
    async deleteSessionsBy(
      projectId: string,
      by: { kind: 'participant_id' | 'session_id'; value: string },
      meta: { userId: string; identifierKind: DeletionIdentifierKind; identifier: string },
    ): Promise<{ deletionId: string; count: number } | undefined> {
      return db.transaction().execute(async (trx) => {
        const deleted = await trx
          .deleteFrom('respondent_sessions')
          .where('project_id', '=', projectId)
          .where(by.kind === 'participant_id' ? 'participant_id' : 'id', '=', by.value)
          .returning('id')
          .execute();
        if (!deleted.length) return undefined;
        const deletionId = await record(trx, {
          projectId,
          userId: meta.userId,
          reason: 'consent_withdrawn',
          scope: 'sessions',
          identifierKind: meta.identifierKind,
          identifier: meta.identifier,
          sessionCount: deleted.length,
        });
        return { deletionId, count: deleted.length };
      });
    },

    /**
     * One batch of "delete after processing": the recordings of ended sessions of such projects whose
     * every video process is done or found no face (a session that ended without completing has no
     * process and never will). The sessions are locked with SKIP LOCKED, so a second worker takes
     * other ones; results, event logs and the session rows stay. `sessionId` narrows it to one session
     * (right after its last process finished). Returns the sessions whose recording went.
     */
    async deleteProcessedRecordings(limit: number, sessionId?: string): Promise<Picked[]> {
      return db.transaction().execute(async (trx) => {
        const picked = await sql<Picked>`
          select s.id, s.project_id
          from respondent_sessions s
          join projects p on p.id = s.project_id
          where p.retention_mode = 'delete_after_processing'
            and s.status <> 'started'
            and ${sessionId === undefined ? sql`true` : sql`s.id = ${sessionId}`}
            and exists (select 1 from recording_segments g where g.session_id = s.id)
            and not exists (
              select 1 from video_processes v where v.session_id = s.id and v.status not in ${FINISHED}
            )
          order by s.ended_at nulls first, s.id
          limit ${limit}
          for update of s skip locked`.execute(trx);
        const rows = picked.rows;
        if (!rows.length) return [];
        // Chunks go by cascade from their segments; their files through the trigger's storage trash.
        await trx
          .deleteFrom('recording_segments')
          .where(
            'session_id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
        await recordRetention(trx, rows, 'recordings');
        return rows;
      });
    },

    /**
     * One batch of "delete after N days": every session of such projects that ended (or, never ended,
     * was last heard from) more than the project's days ago, deleted with all it holds.
     */
    async deleteExpiredSessions(limit: number): Promise<Picked[]> {
      return db.transaction().execute(async (trx) => {
        const picked = await sql<Picked>`
          select s.id, s.project_id
          from respondent_sessions s
          join projects p on p.id = s.project_id
          where p.retention_mode = 'delete_after_days'
            and coalesce(s.ended_at, s.last_seen_at) < now() - make_interval(days => p.retention_days)
          order by coalesce(s.ended_at, s.last_seen_at), s.id
          limit ${limit}
          for update of s skip locked`.execute(trx);
        const rows = picked.rows;
        if (!rows.length) return [];
        await trx
          .deleteFrom('respondent_sessions')
          .where(
            'id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
        await recordRetention(trx, rows, 'sessions');
        return rows;
      });
    },

    /** The project's deletions, newest first, with the analyst's name when there was one. */
    async listDeletions(projectId: string, limit: number) {
      const [items, total] = await Promise.all([
        deletions()
          .where('d.project_id', '=', projectId)
          .orderBy('d.created_at', 'desc')
          .orderBy('d.id', 'desc')
          .limit(limit)
          .execute(),
        db
          .selectFrom('data_deletions')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('project_id', '=', projectId)
          .executeTakeFirstOrThrow(),
      ]);
      return { items, total: total.n };
    },

    async findDeletion(id: string) {
      return deletions().where('d.id', '=', id).executeTakeFirst();
    },
  };
}

export type RetentionRepository = ReturnType<typeof createRetentionRepository>;
