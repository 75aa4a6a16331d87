import type { ReportAreaInput, ReportDefinition, ReportSnapshot } from '@emolens/contracts';
import { type Kysely, sql, type UpdateObject } from 'kysely';
import { isUniqueViolation } from '../../db/sql.ts';
import type { DB } from '../../db/types.ts';
import { createBuildReads } from './build/build.repository.ts';
import { createTaskReads } from './tasks/tasks.repository.ts';

const SUMMARY = [
  'id',
  'campaign_id',
  'name',
  'type',
  'step',
  'filters',
  'segment',
  'fixations',
  'areas',
  'benchmark',
  'researches',
  'status',
  'failed',
  'error_key',
  'progress',
  'generation',
  'video_count',
  'created_at',
  'built_at',
  'last_accessed_at',
] as const;

/**
 * A report's snapshot as JSON text: as the build wrote it, or one stored as jsonb before decision 026 turned back
 * into text.
 */
const SNAPSHOT_TEXT = sql<string | null>`coalesce(snapshot_text, snapshot::text)`;

export type { ReportSummaryPart } from './build/build.repository.ts';

/** Ends a generation still in progress with `values`; false when it no longer was. */
async function endBuild(
  db: Kysely<DB>,
  id: string,
  generation: number,
  values: UpdateObject<DB, 'reports'>,
): Promise<boolean> {
  const result = await db
    .updateTable('reports')
    .set(values)
    .where('id', '=', id)
    .where('generation', '=', generation)
    .where('status', '=', 'in_progress')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The reports' rows (their definitions, builds and snapshots), with what builds and task statistics read. */
export function createReportsRepository(db: Kysely<DB>) {
  return {
    ...createBuildReads(db),
    ...createTaskReads(db),
    /** A new report, in progress; null when the research already has a build running. */
    async create(researchId: string, userId: string, def: ReportDefinition) {
      try {
        return await db
          .insertInto('reports')
          .values({
            campaign_id: researchId,
            created_by: userId,
            name: def.name,
            type: def.type,
            step: def.step,
            filters: JSON.stringify(def.filters),
            segment: JSON.stringify(def.segment),
            fixations: JSON.stringify(def.fixations),
            benchmark: def.benchmark,
            researches: JSON.stringify(def.researches),
            status: 'in_progress',
          })
          .returning(SUMMARY)
          .executeTakeFirstOrThrow();
      } catch (error) {
        // The one-build-per-research index said no.
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    list(researchId: string) {
      return db
        .selectFrom('reports')
        .select(SUMMARY)
        .where('campaign_id', '=', researchId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },

    summary(id: string) {
      return db.selectFrom('reports').select(SUMMARY).where('id', '=', id).executeTakeFirst();
    },

    /**
     * The report with its snapshot's stored JSON text (sent on as it is: parsing and re-serialising a large snapshot
     * cost more than the rest of the request), marking it accessed now — one statement.
     */
    open(id: string) {
      return db
        .updateTable('reports')
        .set({ last_accessed_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returning([...SUMMARY, SNAPSHOT_TEXT.as('snapshot_text')])
        .executeTakeFirst();
    },

    /** The snapshot alone (exports, drawn areas, gaze plots); null without one. */
    async snapshot(id: string): Promise<ReportSnapshot | null> {
      const row = await db
        .selectFrom('reports')
        .select(SNAPSHOT_TEXT.as('text'))
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.text ? (JSON.parse(row.text) as ReportSnapshot) : null;
    },

    /** The sessions a built report counts, if it is a done report of this research. */
    async includedSessions(id: string, researchId: string): Promise<string[] | undefined> {
      const row = await db
        .selectFrom('reports')
        .select(
          sql<
            { session_id: string; included: boolean }[] | null
          >`coalesce(snapshot_text::jsonb, snapshot) -> 'people'`.as('people'),
        )
        .where('id', '=', id)
        .where('campaign_id', '=', researchId)
        .where('status', '=', 'done')
        .executeTakeFirst();
      return row?.people?.filter((p) => p.included).map((p) => p.session_id);
    },

    /**
     * Builds again (with new drawn areas, when given): a new generation in progress; null when another build of the
     * research is running.
     */
    async rebuild(id: string, areas?: ReportAreaInput[]) {
      try {
        return await db
          .updateTable('reports')
          .set({
            ...(areas ? { areas: JSON.stringify(areas) } : {}),
            status: 'in_progress',
            failed: false,
            error_key: null,
            progress: 0,
            snapshot: null,
            snapshot_text: null,
            video_count: null,
            generation: sql<number>`generation + 1`,
          })
          .where('id', '=', id)
          .where('status', '!=', 'in_progress')
          .returning(SUMMARY)
          .executeTakeFirst();
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    /** Stops a build: the running job's generation is no longer current and cannot write. */
    cancel(id: string) {
      return db
        .updateTable('reports')
        .set({ status: 'canceled', generation: sql<number>`generation + 1`, progress: 0 })
        .where('id', '=', id)
        .where('status', '=', 'in_progress')
        .returning(SUMMARY)
        .executeTakeFirst();
    },

    async remove(id: string) {
      const result = await db.deleteFrom('reports').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** The job's claim: the definition of the generation it was sent for, if that is still the one in progress. */
    claim(id: string, generation: number) {
      return db
        .selectFrom('reports as rep')
        .innerJoin('campaigns as c', 'c.id', 'rep.campaign_id')
        .select([
          'rep.id',
          'rep.campaign_id',
          'rep.type',
          'rep.step',
          'rep.filters',
          'rep.segment',
          'rep.fixations',
          'rep.areas',
          'rep.benchmark',
          'rep.researches',
          'c.content_type',
          sql<string>`coalesce(c.categories->>'subtype', '')`.as('subtype'),
          'c.settings',
          'c.picture_gallery',
          'c.shelf_content_scenario',
        ])
        .where('rep.id', '=', id)
        .where('rep.generation', '=', generation)
        .where('rep.status', '=', 'in_progress')
        .executeTakeFirst();
    },

    /** A session's recording segments that still have their chunks (retention may have removed them). */
    keptSegments(sessionId: string) {
      return db
        .selectFrom('recording_segments as s')
        .select(['s.segment', 's.offset_ms', 's.mime_type'])
        .where('s.session_id', '=', sessionId)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('recording_chunks as c')
              .select('c.index')
              .whereRef('c.session_id', '=', 's.session_id')
              .whereRef('c.segment', '=', 's.segment'),
          ),
        )
        .orderBy('s.segment')
        .execute();
    },

    /** The stored per-second series of some processes (the per-respondent export). */
    seriesOf(processIds: readonly string[]) {
      if (!processIds.length) return Promise.resolve([]);
      return db
        .selectFrom('video_processes as v')
        .innerJoin('process_results as r', 'r.id', 'v.result_id')
        .select(['v.id as process_id', 'v.session_id', 'r.series'])
        .where('v.id', 'in', processIds)
        .execute();
    },

    async progress(id: string, generation: number, percent: number) {
      const result = await db
        .updateTable('reports')
        .set({ progress: Math.max(0, Math.min(99, Math.round(percent))) })
        .where('id', '=', id)
        .where('generation', '=', generation)
        .where('status', '=', 'in_progress')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * The snapshot of a generation (its JSON text, which opening the report sends as it is), written once and only
     * while it is current.
     */
    finish(id: string, generation: number, snapshotText: string, videoCount: number) {
      return endBuild(db, id, generation, {
        status: 'done',
        progress: 100,
        snapshot: null,
        snapshot_text: snapshotText,
        video_count: videoCount,
        built_at: sql<Date>`now()`,
      });
    },

    /**
     * A build that failed: canceled, with why; the old snapshot (if any) stays out of sight. False when the generation
     * was no longer in progress.
     */
    fail(id: string, generation: number, errorKey: string) {
      return endBuild(db, id, generation, {
        status: 'canceled',
        failed: true,
        error_key: errorKey,
        progress: 0,
        snapshot: null,
        snapshot_text: null,
        video_count: null,
      });
    },
  };
}

export type ReportsRepository = ReturnType<typeof createReportsRepository>;
