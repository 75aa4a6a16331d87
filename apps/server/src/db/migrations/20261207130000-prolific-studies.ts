import { type Kysely, sql } from 'kysely';

/**
 * Prolific as a recruiting platform (issue 33, item 2; docs/decisions/068-prolific.md): projects may recruit on
 * Prolific, Prolific tokens are linked like Toloka's, a research has at most one Prolific study (its completion codes
 * per outcome with their actions, places, reward in the workspace's currency, devices and webcam), and decisions on
 * Prolific's submissions may ask the participant to return the submission (`return`).
 *
 * The column checks being widened were made unnamed, so they are found by their table and column and replaced with
 * named ones.
 */
const PLATFORMS = [
  'toloka',
  'cint',
  'amazon',
  'own_audience',
  'millward_brown',
  'armi_marketing',
  'tiburon',
  'omi',
  'onin',
  'anketolog',
  'yandex_tasks',
];

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
async function replaceCheck(db: Kysely<any>, table: string, column: string, name: string, values: string[]) {
  // Every check constraint of the table that names the column (each of these tables has one per such column).
  const found = await sql<{ conname: string }>`
    select c.conname from pg_constraint c
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
    where c.conrelid = ${sql.lit(table)}::regclass and c.contype = 'c' and a.attname = ${column}`.execute(db);
  for (const row of found.rows) {
    await sql`alter table ${sql.table(table)} drop constraint ${sql.id(row.conname)}`.execute(db);
  }
  const list = sql.join(values.map((v) => sql.lit(v)));
  await sql`alter table ${sql.table(table)} add constraint ${sql.id(name)} check (${sql.ref(column)} in (${list}))`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await replaceCheck(db, 'projects', 'platform', 'projects_platform_check', [...PLATFORMS, 'prolific']);
  await replaceCheck(db, 'recruiting_tokens', 'service', 'recruiting_tokens_service_check', [
    'toloka',
    'mturk',
    'prolific',
  ]);
  await replaceCheck(db, 'assignment_decisions', 'platform', 'assignment_decisions_platform_check', [
    'toloka',
    'mturk',
    'prolific',
  ]);
  await replaceCheck(db, 'assignment_decisions', 'decision', 'assignment_decisions_decision_check', [
    'accept',
    'reject',
    'return',
  ]);

  await db.schema
    .createTable('prolific_studies')
    .addColumn('campaign_id', 'uuid', (c) => c.primaryKey().references('campaigns.id').onDelete('cascade'))
    .addColumn('token_id', 'uuid')
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('production', 'sandbox')`))
    .addColumn('study_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    /** Per participant, in the workspace's currency (Prolific is sent its hundredth part). */
    .addColumn('reward', 'double precision', (c) => c.notNull())
    .addColumn('places', 'integer', (c) => c.notNull())
    .addColumn('minutes', 'integer', (c) => c.notNull())
    /** `{ complete, screen_out, quota_full }`, each `{ code, action }`. */
    .addColumn('completion_codes', 'jsonb', (c) => c.notNull())
    .addColumn('devices', 'jsonb', (c) => c.notNull())
    .addColumn('webcam', 'boolean', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('acceptance', 'text', (c) =>
      c.notNull().defaultTo('confirm').check(sql`acceptance in ('confirm', 'auto')`),
    )
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('prolific_studies').execute();
  await sql`delete from assignment_decisions where platform = 'prolific' or decision = 'return'`.execute(db);
  await sql`delete from recruiting_tokens where service = 'prolific'`.execute(db);
  await replaceCheck(db, 'assignment_decisions', 'decision', 'assignment_decisions_decision_check', [
    'accept',
    'reject',
  ]);
  await replaceCheck(db, 'assignment_decisions', 'platform', 'assignment_decisions_platform_check', [
    'toloka',
    'mturk',
  ]);
  await replaceCheck(db, 'recruiting_tokens', 'service', 'recruiting_tokens_service_check', ['toloka', 'mturk']);
  await replaceCheck(db, 'projects', 'platform', 'projects_platform_check', PLATFORMS);
}
