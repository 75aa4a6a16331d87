import type { ProjectStatus } from '@emolens/contracts';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { lockedBySelfService } from '../../db/sql.ts';
import type { DB, MediaRow, MediaTable } from '../../db/types.ts';

export type MediaWithProject = MediaRow & { project_status: ProjectStatus };
export type NewMedia = Omit<MediaTable, 'role' | 'created_at' | 'updated_at' | 'size'> & {
  role: MediaRow['role'];
  size: number;
};
export type ResearchMedia = Pick<
  MediaRow,
  'id' | 'campaign_id' | 'kind' | 'status' | 'duration_seconds' | 'filename' | 'created_at'
>;
export type MediaProbe = Partial<
  Pick<MediaRow, 'status' | 'duration_seconds' | 'fps' | 'width' | 'height' | 'poster_key' | 'error'>
>;

export function createMediaRepository(db: Kysely<DB>) {
  /** Files with their project's status; the caller checked access. */
  function withProject() {
    return db
      .selectFrom('media as m')
      .innerJoin('campaigns as c', 'c.id', 'm.campaign_id')
      .innerJoin('projects as p', 'p.id', 'c.project_id')
      .selectAll('m')
      .select('p.status as project_status');
  }

  return {
    find(id: string): Promise<MediaWithProject | undefined> {
      return withProject().where('m.id', '=', id).executeTakeFirst();
    },

    listByResearch(researchId: string): Promise<MediaWithProject[]> {
      return withProject().where('m.campaign_id', '=', researchId).orderBy('m.created_at').orderBy('m.id').execute();
    },

    /** The files of several researches (no visibility rule: the caller checked the researches). */
    listForResearches(researchIds: string[]): Promise<ResearchMedia[]> {
      if (!researchIds.length) return Promise.resolve([]);
      return db
        .selectFrom('media')
        .select(['id', 'campaign_id', 'kind', 'status', 'duration_seconds', 'filename', 'created_at'])
        .where('campaign_id', 'in', researchIds)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    findById(id: string): Promise<MediaRow | undefined> {
      return db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Inserts only while the research's project is a draft; false otherwise. */
    async insertIfEditable(row: NewMedia): Promise<boolean> {
      const editable = db
        .selectFrom('campaigns as c')
        .innerJoin('projects as p', 'p.id', 'c.project_id')
        .where('c.id', '=', row.campaign_id)
        .where('p.status', '=', 'new')
        .where(sql<boolean>`not ${lockedBySelfService('p.id')}`);
      const result = await db
        .insertInto('media')
        .columns([
          'id',
          'campaign_id',
          'owner_id',
          'kind',
          'role',
          'filename',
          'size',
          'mime',
          'storage_key',
          'status',
          'duration_seconds',
          'fps',
          'width',
          'height',
          'poster_key',
          'error',
        ])
        .expression(
          editable.select([
            sql`${row.id}::uuid`.as('id'),
            sql`${row.campaign_id}::uuid`.as('campaign_id'),
            sql`${row.owner_id}::uuid`.as('owner_id'),
            sql`${row.kind}`.as('kind'),
            sql`${row.role}`.as('role'),
            sql`${row.filename}`.as('filename'),
            sql`${row.size}::bigint`.as('size'),
            sql`${row.mime}`.as('mime'),
            sql`${row.storage_key}`.as('storage_key'),
            sql`${row.status}`.as('status'),
            sql`${row.duration_seconds}::float8`.as('duration_seconds'),
            sql`${row.fps}::float8`.as('fps'),
            sql`${row.width}::int`.as('width'),
            sql`${row.height}::int`.as('height'),
            sql`${row.poster_key}`.as('poster_key'),
            sql`${row.error}`.as('error'),
          ]),
        )
        .returning('id')
        .executeTakeFirst();
      return result !== undefined;
    },

    async update(id: string, patch: MediaProbe): Promise<boolean> {
      const result = await db
        .updateTable('media')
        .set({ ...patch, updated_at: sql<Date>`date_trunc('milliseconds', now())` })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Deletes the media while its research's project is a draft; the deleted row, or undefined. */
    deleteIfEditable(id: string): Promise<MediaRow | undefined> {
      return db
        .deleteFrom('media')
        .where('id', '=', id)
        .where(
          'campaign_id',
          'in',
          db
            .selectFrom('campaigns as c')
            .innerJoin('projects as p', 'p.id', 'c.project_id')
            .where('p.status', '=', 'new')
            .where(sql<boolean>`not ${lockedBySelfService('p.id')}`)
            .select('c.id'),
        )
        .returningAll()
        .executeTakeFirst();
    },

    /** Keys of stored files whose media row is gone, oldest first. */
    async trash(limit: number): Promise<string[]> {
      const rows = await db.selectFrom('storage_trash').select('key').orderBy('created_at').limit(limit).execute();
      return rows.map((row) => row.key);
    },

    async forgetTrash(keys: string[]): Promise<void> {
      if (keys.length) await db.deleteFrom('storage_trash').where('key', 'in', keys).execute();
    },

    /**
     * Claims the finishing of an unfinished upload kept in the bucket (decision 069): true for the one request, of
     * any API process, that gets it; false while another holds it.
     */
    async claimUploadFinish(uploadId: string): Promise<boolean> {
      const row = await db
        .insertInto('upload_finishes')
        .values({ upload_id: uploadId })
        .onConflict((oc) => oc.column('upload_id').doNothing())
        .returning('upload_id')
        .executeTakeFirst();
      return row !== undefined;
    },

    async releaseUploadFinish(uploadId: string): Promise<void> {
      await db.deleteFrom('upload_finishes').where('upload_id', '=', uploadId).execute();
    },

    /** Claims older than this (a process stopped while it finished them): their upload ids. */
    async staleUploadFinishes(olderThanMs: number): Promise<string[]> {
      const rows = await db
        .selectFrom('upload_finishes')
        .select('upload_id')
        .where('claimed_at', '<', sql<Date>`now() - ${olderThanMs}::double precision * interval '1 millisecond'`)
        .execute();
      return rows.map((row) => row.upload_id);
    },
  };
}

export type MediaRepository = ReturnType<typeof createMediaRepository>;
