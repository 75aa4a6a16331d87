import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('media')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('campaign_id', 'uuid', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('owner_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('video', 'image')`))
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('content').check(sql`role in ('content', 'picture')`))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().check(sql`size >= 0`))
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('uploading', 'processing', 'ready', 'failed')`),
    )
    .addColumn('duration_seconds', 'double precision')
    .addColumn('fps', 'double precision')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('poster_key', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`date_trunc('milliseconds', now())`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`date_trunc('milliseconds', now())`))
    .execute();
  await db.schema.createIndex('media_campaign_idx').on('media').columns(['campaign_id', 'created_at']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('media').execute();
}
