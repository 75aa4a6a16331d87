import type { RespondentStep } from '@emolens/contracts';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB, DotTestRow, RespondentSessionRow } from '../../db/types.ts';

/**
 * The only Kysely user of the recording tables: what a browser records (recorder chunks and event batches),
 * for its two owners, a respondent's session and a setup check (dot test). Each owner keeps its own tables;
 * the statements are written once, by the owner's names below. The rules they serve are `recording-log.ts`.
 */
const OWNERS = {
  session: {
    table: 'respondent_sessions',
    /** The status under which the owner records. */
    recording: 'started',
    /** When the owner's clock started (event times count from it). */
    since: 'started_at',
    key: 'session_id',
    chunks: 'recording_chunks',
    batches: 'session_event_batches',
    /** Chunks belong to a segment (a session records in segments; a dot test in one piece). */
    segmented: true,
    /** The column a stored chunk touches: the session was heard from. */
    touch: 'last_seen_at',
    /** Its batches keep their first event's time too. */
    firstT: true,
  },
  dotTest: {
    table: 'dot_tests',
    recording: 'recording',
    since: 'created_at',
    key: 'dot_test_id',
    chunks: 'dot_test_chunks',
    batches: 'dot_test_event_batches',
    segmented: false,
    touch: null,
    firstT: false,
  },
} as const;

export type RecordingOwner = keyof typeof OWNERS;

/** The row each owner is. */
interface OwnerRows {
  session: RespondentSessionRow;
  dotTest: DotTestRow;
}

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

/** A recorder chunk to record: of a session's segment, or of a dot test (no segment). */
export interface ChunkWrite {
  id: string;
  segment?: number;
  index: number;
  size: number;
  sha256: string;
  storage_key: string;
}

/** What a new batch writes; a session's batch also moves where the session is (its step and research). */
export interface EventWrite {
  events: unknown[];
  first_t?: number;
  last_t: number;
  digest: string;
  step?: RespondentStep;
  research_index?: number;
}

/** What `withEventLog` decides from: the owner's row, its clock, the next expected batch and the stored ones. */
export interface EventLogState<O extends RecordingOwner> {
  row: OwnerRows[O];
  clockMs: number;
  next: number;
  previous: StoredBatch | undefined;
  atSeq: StoredBatch | undefined;
}

export function createRecordingRepository(db: Kysely<DB>) {
  async function storedBatch(trx: Transaction<DB>, owner: RecordingOwner, id: string, seq: number | null) {
    const o = OWNERS[owner];
    const at = seq === null ? sql`order by seq desc limit 1` : sql`and seq = ${seq}`;
    const { rows } = await sql<StoredBatch>`
      select seq, digest, last_t from ${sql.table(o.batches)} where ${sql.ref(o.key)} = ${id} ${at}
    `.execute(trx);
    return rows[0];
  }

  /** Every stored batch's events in order. */
  async function batches(owner: RecordingOwner, id: string): Promise<{ seq: number; events: unknown[] }[]> {
    const o = OWNERS[owner];
    const { rows } = await sql<{ seq: number; events: unknown[] }>`
      select seq, events from ${sql.table(o.batches)} where ${sql.ref(o.key)} = ${id} order by seq
    `.execute(db);
    return rows;
  }

  return {
    /** A session's segments with how many chunks each holds. */
    async segments(sessionId: string): Promise<SegmentSummary[]> {
      return db
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
     * A session's segment as the next chunk meets it, in one round trip: its type, how many chunks it
     * holds and the one stored at `index`; undefined when the segment was never started.
     */
    async segmentChunkState(
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

    /** An owner's chunks in order (of a dot test: the whole recording, which the analysis concatenates). */
    async chunks(owner: RecordingOwner, id: string): Promise<(StoredChunk & { size: number })[]> {
      const o = OWNERS[owner];
      const { rows } = await sql<StoredChunk & { size: number }>`
        select index, size, sha256, storage_key from ${sql.table(o.chunks)}
        where ${sql.ref(o.key)} = ${id} order by ${o.segmented ? sql`segment, index` : sql`index`}
      `.execute(db);
      return rows;
    },

    /**
     * Records a stored chunk unless the owner stopped recording meanwhile or another request stored the
     * same index first: whether it is this one, whether the owner still records, and the row under the
     * index otherwise. One statement: the owner's row is locked while it still records (a completion
     * holding it first makes the lock see the new status and insert nothing), the chunk inserted and,
     * for a session, the session touched.
     */
    async insertChunk(
      owner: RecordingOwner,
      row: ChunkWrite,
    ): Promise<{ inserted: boolean; recording: boolean; existing: StoredChunk | undefined }> {
      const o = OWNERS[owner];
      const segment = o.segmented ? [sql.ref('segment')] : [];
      const columns = sql.join([sql.ref(o.key), ...segment, sql.ref('index'), sql.ref('size'), sql.ref('sha256')]);
      const values = sql.join([row.id, ...(o.segmented ? [row.segment ?? 0] : []), row.index, row.size, row.sha256]);
      const bySegment = o.segmented ? sql` and segment = ${row.segment ?? 0}` : sql``;
      const touch = o.touch
        ? sql`, touched as (
            update ${sql.table(o.table)} set ${sql.ref(o.touch)} = now()
            where id in (select id from live) and exists (select 1 from added)
            returning id
          )`
        : sql``;
      const result = await sql<{ recording: boolean; inserted: boolean }>`
        with live as (
          select id from ${sql.table(o.table)} where id = ${row.id} and status = ${o.recording} for update
        ), added as (
          insert into ${sql.table(o.chunks)} (${columns}, storage_key)
          select ${values}, ${row.storage_key}
          from live
          on conflict (${sql.join([sql.ref(o.key), ...segment, sql.ref('index')])}) do nothing
          returning index
        )${touch}
        select exists (select 1 from live) as recording, exists (select 1 from added) as inserted
      `.execute(db);
      const { recording, inserted } = result.rows[0] ?? { recording: false, inserted: false };
      if (inserted) return { inserted, recording, existing: undefined };
      const { rows } = await sql<StoredChunk>`
        select index, sha256, storage_key from ${sql.table(o.chunks)}
        where ${sql.ref(o.key)} = ${row.id}${bySegment} and index = ${row.index}
      `.execute(db);
      return { inserted, recording, existing: rows[0] };
    },

    /** How many batches an owner's event log holds (they are numbered from 0: the next number). */
    async nextEventSeq(owner: RecordingOwner, id: string): Promise<number> {
      const o = OWNERS[owner];
      const { rows } = await sql<{ next: number }>`
        select coalesce(max(seq) + 1, 0)::int as next from ${sql.table(o.batches)} where ${sql.ref(o.key)} = ${id}
      `.execute(db);
      return rows[0]?.next ?? 0;
    },

    /** Every stored batch's events in order. */
    batches,

    /** The whole event log in order. */
    async events(owner: RecordingOwner, id: string): Promise<unknown[]> {
      const rows = await batches(owner, id);
      return rows.flatMap((r) => r.events);
    },

    /**
     * Runs `decide` in one short transaction holding the owner's row: it sees the row, the owner's clock,
     * the next expected batch, the last stored batch and the stored batch at `seq`, and says what to
     * write. Two batches of one owner never interleave.
     */
    withEventLog<O extends RecordingOwner, T>(
      owner: O,
      id: string,
      seq: number,
      decide: (state: EventLogState<O>) => { result: T; write?: EventWrite },
    ): Promise<T> {
      const o = OWNERS[owner];
      return db.transaction().execute(async (trx) => {
        const { rows } = await sql<OwnerRows[O] & { clock_ms: number }>`
          select *, extract(epoch from (now() - ${sql.ref(o.since)})) * 1000 as clock_ms
          from ${sql.table(o.table)} where id = ${id} for update
        `.execute(trx);
        const locked = rows[0];
        if (!locked) throw new Error(`no ${o.table} row ${id}`);
        const { clock_ms, ...row } = locked;
        const previous = await storedBatch(trx, owner, id, null);
        const next = previous ? previous.seq + 1 : 0;
        const atSeq = seq < next ? await storedBatch(trx, owner, id, seq) : undefined;
        const { result, write } = decide({
          row: row as unknown as OwnerRows[O],
          clockMs: Number(clock_ms),
          next,
          previous,
          atSeq,
        });
        if (!write) return result;
        const firstT = o.firstT ? [sql.ref('first_t')] : [];
        const columns = sql.join([sql.ref(o.key), sql.ref('seq'), sql.ref('events'), sql.ref('last_t'), ...firstT]);
        const values = [id, seq, JSON.stringify(write.events), write.last_t, ...(o.firstT ? [write.first_t ?? 0] : [])];
        await sql`
          insert into ${sql.table(o.batches)} (${columns}, digest) values (${sql.join(values)}, ${write.digest})
        `.execute(trx);
        if (owner === 'session') {
          await trx
            .updateTable('respondent_sessions')
            .set({
              last_seen_at: sql<Date>`now()`,
              ...(write.step ? { step: write.step } : {}),
              ...(write.research_index !== undefined ? { research_index: write.research_index } : {}),
            })
            .where('id', '=', id)
            .execute();
        }
        return result;
      });
    },
  };
}

export type RecordingRepository = ReturnType<typeof createRecordingRepository>;
