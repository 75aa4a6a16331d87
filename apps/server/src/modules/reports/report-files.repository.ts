import type { Language, ReportFileKind, ReportSnapshot } from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';
import type { DB, ReportFileRow } from '../../db/types.ts';

/**
 * An attempt in progress with no word for this long is dead: longer than the job may run (30 minutes), and its
 * progress is written at least every 5%.
 */
export const REPORT_FILE_STALE_MS = 35 * 60 * 1000;

/** A stored file as a row keeps it. */
export interface StoredFile {
  storage_key: string;
  filename: string;
  mime: string;
  size: number;
}

/**
 * A report's files (issue 13, item 8): one row per report and kind. `attempt` fences the jobs: each request bumps
 * it, and a job writes only while the row still carries its attempt and is in progress, so a retried, superseded or
 * replaced-by-an-upload job cannot overwrite a newer file. Old files go to storage_trash by the table's trigger.
 */
export function createReportFilesRepository(db: Kysely<DB>) {
  return {
    async list(reportId: string): Promise<ReportFileRow[]> {
      return db.selectFrom('report_files').selectAll().where('report_id', '=', reportId).execute();
    },

    async get(reportId: string, kind: ReportFileKind): Promise<ReportFileRow | undefined> {
      return db
        .selectFrom('report_files')
        .selectAll()
        .where('report_id', '=', reportId)
        .where('kind', '=', kind)
        .executeTakeFirst();
    },

    /**
     * Marks the file as being made from the report's `generation`: its attempt, or null while another attempt is
     * still in progress. An attempt silent for longer than a job may run (its worker died on the last retry) no
     * longer holds the file. The previous file stays until the new one replaces it.
     */
    async startGeneration(
      reportId: string,
      kind: ReportFileKind,
      values: { generation: number; language: Language; userId: string },
    ): Promise<number | null> {
      const row = await db
        .insertInto('report_files')
        .values({
          report_id: reportId,
          kind,
          source: 'generated',
          status: 'in_progress',
          generation: values.generation,
          language: values.language,
          created_by: values.userId,
        })
        .onConflict((oc) =>
          oc
            .columns(['report_id', 'kind'])
            .doUpdateSet((eb) => ({
              source: 'generated',
              status: 'in_progress',
              attempt: eb(eb.ref('report_files.attempt'), '+', 1),
              generation: values.generation,
              language: values.language,
              progress: 0,
              error_key: null,
              created_by: values.userId,
              updated_at: new Date(),
            }))
            .where((eb) =>
              eb.or([
                eb('report_files.status', '<>', 'in_progress'),
                eb('report_files.updated_at', '<', new Date(Date.now() - REPORT_FILE_STALE_MS)),
              ]),
            ),
        )
        .returning('attempt')
        .executeTakeFirst();
      return row?.attempt ?? null;
    },

    async progress(reportId: string, kind: ReportFileKind, attempt: number, percent: number): Promise<void> {
      await db
        .updateTable('report_files')
        .set({ progress: Math.max(0, Math.min(99, Math.round(percent))), updated_at: new Date() })
        .where('report_id', '=', reportId)
        .where('kind', '=', kind)
        .where('attempt', '=', attempt)
        .where('status', '=', 'in_progress')
        .execute();
    },

    /** The made file stored: false when the attempt was superseded (the caller removes its file). */
    async finish(reportId: string, kind: ReportFileKind, attempt: number, file: StoredFile): Promise<boolean> {
      const done = await db
        .updateTable('report_files')
        .set({ ...file, status: 'done', progress: 100, error_key: null, updated_at: new Date() })
        .where('report_id', '=', reportId)
        .where('kind', '=', kind)
        .where('attempt', '=', attempt)
        .where('status', '=', 'in_progress')
        .executeTakeFirst();
      return done.numUpdatedRows > 0n;
    },

    async fail(reportId: string, kind: ReportFileKind, attempt: number, errorKey: string): Promise<void> {
      await db
        .updateTable('report_files')
        .set({ status: 'failed', error_key: errorKey, updated_at: new Date() })
        .where('report_id', '=', reportId)
        .where('kind', '=', kind)
        .where('attempt', '=', attempt)
        .where('status', '=', 'in_progress')
        .execute();
    },

    /** The analyst's own presentation in place of whatever there was (a job still making one can no longer write). */
    async attach(reportId: string, values: StoredFile & { generation: number; language: Language; userId: string }) {
      const { generation, language, userId, ...file } = values;
      const set = {
        ...file,
        source: 'uploaded' as const,
        status: 'done' as const,
        generation,
        language,
        progress: 100,
        error_key: null,
        created_by: userId,
        updated_at: new Date(),
      };
      await db
        .insertInto('report_files')
        .values({ report_id: reportId, kind: 'presentation', ...set })
        .onConflict((oc) =>
          oc
            .columns(['report_id', 'kind'])
            .doUpdateSet((eb) => ({ ...set, attempt: eb(eb.ref('report_files.attempt'), '+', 1) })),
        )
        .execute();
    },

    /** What a file is made from: the report built, its research and project. */
    source(reportId: string) {
      return db
        .selectFrom('reports')
        .innerJoin('campaigns', 'campaigns.id', 'reports.campaign_id')
        .innerJoin('projects', 'projects.id', 'campaigns.project_id')
        .select([
          'reports.id',
          'reports.name',
          'reports.type',
          'reports.step',
          'reports.status',
          'reports.generation',
          'reports.built_at',
          // Built since decision 026 as text, before as jsonb.
          sql<ReportSnapshot | null>`coalesce(reports.snapshot_text::jsonb, reports.snapshot)`.as('snapshot'),
          'reports.campaign_id',
          'campaigns.title as research',
          'campaigns.content_type',
          'projects.title as project',
        ])
        .where('reports.id', '=', reportId)
        .executeTakeFirst();
    },

    /** The stored files of a research's media: pictures drawn under heatmaps, the video under the video export. */
    mediaFiles(researchId: string, ids: readonly string[]) {
      if (!ids.length) return Promise.resolve([]);
      return db
        .selectFrom('media')
        .select(['id', 'kind', 'mime', 'storage_key', 'duration_seconds'])
        .where('campaign_id', '=', researchId)
        .where('id', 'in', ids)
        .where('status', '=', 'ready')
        .execute();
    },

    /** Forgets the file (its stored bytes go to the trash); false when there was none. */
    async remove(reportId: string, kind: ReportFileKind): Promise<boolean> {
      const gone = await db
        .deleteFrom('report_files')
        .where('report_id', '=', reportId)
        .where('kind', '=', kind)
        .executeTakeFirst();
      return gone.numDeletedRows > 0n;
    },
  };
}

export type ReportFilesRepository = ReturnType<typeof createReportFilesRepository>;
