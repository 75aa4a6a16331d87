import type { CategoryKind, ContentType, KeyMetrics, NormEntry } from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';
import { isUniqueViolation, isUuid } from '../../db/sql.ts';
import type { DB } from '../../db/types.ts';

/** A research counts in a benchmark base once it or its project is completed (spec section 4). */
const COMPLETED_RESEARCH = ['done', 'completed'] as const;

export function createBenchmarksRepository(db: Kysely<DB>) {
  /** The norms of completed researches that have a subtype; the demo project's never (decision 017). */
  const completedNorms = () =>
    db
      .selectFrom('research_norms as n')
      .innerJoin('campaigns as c', 'c.id', 'n.campaign_id')
      .innerJoin('projects as p', 'p.id', 'c.project_id')
      .where((eb) => eb.or([eb('c.status', 'in', COMPLETED_RESEARCH), eb('p.status', '=', 'completed')]))
      .where('p.is_demo', '=', false)
      .where(sql<string>`coalesce(c.categories->>'subtype', '')`, '<>', '');

  return {
    /** Every directory value with the number of researches whose categories use it. */
    async categories() {
      const rows = await db
        .selectFrom('category_entries as e')
        .select((eb) => [
          'e.id',
          'e.kind',
          'e.name',
          'e.content_type',
          eb
            .selectFrom('campaigns as c')
            .select(sql<number>`count(*)::int`.as('n'))
            .where(sql<string>`lower(c.categories->>e.kind)`, '=', sql<string>`lower(e.name)`)
            .as('used_by'),
        ])
        .orderBy('e.kind')
        .orderBy(sql`lower(e.name)`)
        .execute();
      return rows.map((r) => ({ ...r, used_by: r.used_by ?? 0 }));
    },

    async category(id: string) {
      if (!isUuid(id)) return undefined;
      return db.selectFrom('category_entries').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The value of a kind, by name (case aside). */
    async categoryNamed(kind: CategoryKind, name: string) {
      return db
        .selectFrom('category_entries')
        .select(['id', 'name', 'content_type'])
        .where('kind', '=', kind)
        .where(sql<string>`lower(name)`, '=', name.toLowerCase())
        .executeTakeFirst();
    },

    /** null: the name is taken. */
    async createCategory(values: { kind: CategoryKind; name: string; content_type: ContentType | null }, by: string) {
      try {
        return await db
          .insertInto('category_entries')
          .values({ ...values, created_by: by })
          .returning('id')
          .executeTakeFirstOrThrow();
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    /** Renames a value and, in the same transaction, every research's category that used the old name. */
    async renameCategory(id: string, name: string): Promise<'renamed' | 'taken' | 'missing'> {
      if (!isUuid(id)) return 'missing';
      try {
        return await db.transaction().execute(async (trx) => {
          const old = await trx
            .updateTable('category_entries as e')
            .from('category_entries as before')
            .set({ name })
            .whereRef('before.id', '=', 'e.id')
            .where('e.id', '=', id)
            .returning(['before.kind', 'before.name'])
            .executeTakeFirst();
          if (!old) return 'missing';
          await trx
            .updateTable('campaigns')
            .set({
              categories: sql`jsonb_set(categories, array[${old.kind}]::text[], to_jsonb(${name}::text))`,
            })
            .where(sql<string>`lower(categories->>${old.kind})`, '=', old.name.toLowerCase())
            .execute();
          return 'renamed';
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'taken';
        throw error;
      }
    },

    /** Researches whose categories use the value. */
    async usage(kind: CategoryKind, name: string): Promise<number> {
      const row = await db
        .selectFrom('campaigns')
        .select(sql<number>`count(*)::int`.as('n'))
        .where(sql<string>`lower(categories->>${kind})`, '=', name.toLowerCase())
        .executeTakeFirstOrThrow();
      return row.n;
    },

    async deleteCategory(id: string): Promise<boolean> {
      if (!isUuid(id)) return false;
      const deleted = await db.deleteFrom('category_entries').where('id', '=', id).executeTakeFirst();
      return deleted.numDeletedRows > 0n;
    },

    /** The research's subtype ('' when it has none). */
    async subtypeOf(researchId: string): Promise<string> {
      const row = await db
        .selectFrom('campaigns')
        .select(sql<string>`coalesce(categories->>'subtype', '')`.as('subtype'))
        .where('id', '=', researchId)
        .executeTakeFirst();
      return row?.subtype ?? '';
    },

    /**
     * The research's key metrics from its latest whole-sample shift report. A research of the demo project keeps
     * none (decision 017): its respondents are photographs, not a norm.
     */
    async saveResearchNorm(researchId: string, reportId: string | null, respondents: number, metrics: KeyMetrics) {
      const values = { report_id: reportId, respondents, metrics: JSON.stringify(metrics), updated_at: new Date() };
      await db
        .insertInto('research_norms')
        .columns(['campaign_id', 'report_id', 'respondents', 'metrics', 'updated_at'])
        .expression(
          db
            .selectFrom('campaigns as c')
            .innerJoin('projects as p', 'p.id', 'c.project_id')
            .select([
              'c.id',
              sql`${reportId}::uuid`.as('report_id'),
              sql`${respondents}::integer`.as('respondents'),
              sql`${values.metrics}::jsonb`.as('metrics'),
              sql`${values.updated_at}::timestamptz`.as('updated_at'),
            ])
            .where('c.id', '=', researchId)
            .where('p.is_demo', '=', false),
        )
        .onConflict((oc) => oc.column('campaign_id').doUpdateSet(values))
        .execute();
    },

    /** A benchmark's base: the other completed researches' metrics and the imported norms of the subtype. */
    /** The base of a subtype and content type, never counting the researches a report is about. */
    async base(content: ContentType, subtype: string, except: readonly string[]) {
      const [researches, imported] = await Promise.all([
        completedNorms()
          .select('n.metrics')
          .where('c.content_type', '=', content)
          .where(sql<string>`lower(c.categories->>'subtype')`, '=', subtype.toLowerCase())
          .where('n.campaign_id', 'not in', except)
          .execute(),
        db
          .selectFrom('norm_entries')
          .select('metrics')
          .where('content_type', '=', content)
          .where(sql<string>`lower(subtype)`, '=', subtype.toLowerCase())
          .execute(),
      ]);
      return { researches: researches.map((r) => r.metrics), imported: imported.map((r) => r.metrics) };
    },

    /** Base sizes per subtype and content type: completed researches and imported norms. */
    async bases() {
      const own = await completedNorms()
        .select([
          'c.content_type',
          sql<string>`min(c.categories->>'subtype')`.as('subtype'),
          sql<number>`count(*)::int`.as('n'),
        ])
        .groupBy(['c.content_type', sql`lower(c.categories->>'subtype')`])
        .execute();
      const imported = await db
        .selectFrom('norm_entries')
        .select(['content_type', sql<string>`min(subtype)`.as('subtype'), sql<number>`count(*)::int`.as('n')])
        .groupBy(['content_type', sql`lower(subtype)`])
        .execute();
      return { own, imported };
    },

    /** Every creative the bases hold: completed researches with a subtype and imported norm entries. */
    async baseSize(): Promise<number> {
      const [own, imported] = await Promise.all([
        completedNorms().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
        db.selectFrom('norm_entries').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
      ]);
      return Number(own.n) + Number(imported.n);
    },

    /** This installation's completed researches with a subtype, as norm entries. */
    async ownNorms(): Promise<NormEntry[]> {
      return completedNorms()
        .select(['c.content_type', sql<string>`c.categories->>'subtype'`.as('subtype'), 'n.respondents', 'n.metrics'])
        .orderBy('n.updated_at')
        .execute();
    },

    async imports() {
      const rows = await db
        .selectFrom('norm_imports as i')
        .select((eb) => [
          'i.id',
          'i.name',
          'i.imported_at',
          eb
            .selectFrom('norm_entries as e')
            .select(sql<number>`count(*)::int`.as('n'))
            .whereRef('e.import_id', '=', 'i.id')
            .as('entries'),
        ])
        .orderBy('i.imported_at', 'desc')
        .execute();
      return rows.map((r) => ({ ...r, entries: r.entries ?? 0 }));
    },

    /** One import with its entries, in one transaction. */
    async importNorms(name: string, by: string, entries: NormEntry[]) {
      return db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto('norm_imports')
          .values({ name, imported_by: by })
          .returning('id')
          .executeTakeFirstOrThrow();
        for (let i = 0; i < entries.length; i += 1000) {
          await trx
            .insertInto('norm_entries')
            .values(
              entries.slice(i, i + 1000).map((e) => ({ ...e, import_id: id, metrics: JSON.stringify(e.metrics) })),
            )
            .execute();
        }
        return id;
      });
    },

    async deleteImport(id: string): Promise<boolean> {
      if (!isUuid(id)) return false;
      const deleted = await db.deleteFrom('norm_imports').where('id', '=', id).executeTakeFirst();
      return deleted.numDeletedRows > 0n;
    },
  };
}

export type BenchmarksRepository = ReturnType<typeof createBenchmarksRepository>;
