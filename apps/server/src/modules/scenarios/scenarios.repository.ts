import { type Kysely, sql, type Transaction } from 'kysely';
import { NEXT_VERSION } from '../../db/sql.ts';
import type { AccessorLinkRow, DB, RedirectLinks, ScenarioRow } from '../../db/types.ts';

export type ScenarioWithResearches = ScenarioRow & {
  researches: { id: string; title: string; content_type: string }[];
};

/** A quota link with the respondent sessions opened from it (a draft's previews not among them). */
export type LinkWithSessions = AccessorLinkRow & { sessions_count: number };

const sessionsCount =
  sql<number>`(select count(*)::int from respondent_sessions rs where rs.link_id = project_accessor_links.id and not rs.is_preview)`.as(
    'sessions_count',
  );

export interface ScenarioValues {
  description: string;
  is_random_order: boolean;
  is_use_face_checker: boolean;
  screener_survey_id: string | null;
  embedded_survey_id: string | null;
  redirect_links: RedirectLinks;
  quota: number | null;
  is_paid: boolean;
}

export function createScenariosRepository(db: Kysely<DB>) {
  async function setResearches(trx: Transaction<DB>, scenarioId: string, researchIds: string[]) {
    await trx.deleteFrom('scenario_campaigns').where('scenario_id', '=', scenarioId).execute();
    if (researchIds.length) {
      await trx
        .insertInto('scenario_campaigns')
        .values(researchIds.map((campaign_id, position) => ({ scenario_id: scenarioId, campaign_id, position })))
        .execute();
    }
  }

  async function withResearches(rows: ScenarioRow[]): Promise<ScenarioWithResearches[]> {
    if (rows.length === 0) return [];
    const links = await db
      .selectFrom('scenario_campaigns as sc')
      .innerJoin('campaigns as c', 'c.id', 'sc.campaign_id')
      .select(['sc.scenario_id', 'c.id', 'c.title', 'c.content_type'])
      .where(
        'sc.scenario_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('sc.position')
      .execute();
    return rows.map((row) => ({
      ...row,
      researches: links
        .filter((l) => l.scenario_id === row.id)
        .map(({ id, title, content_type }) => ({ id, title, content_type })),
    }));
  }

  return {
    async listByProject(projectId: string): Promise<ScenarioWithResearches[]> {
      return withResearches(
        await db
          .selectFrom('scenarios')
          .selectAll()
          .where('project_id', '=', projectId)
          .orderBy('order_number')
          .execute(),
      );
    },

    async find(id: string): Promise<ScenarioWithResearches | undefined> {
      const row = await db.selectFrom('scenarios').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? (await withResearches([row]))[0] : undefined;
    },

    /** Which of these research ids belong to the project. */
    /** Those of `ids` that are researches of the project, with their settings (as stored). */
    async researchesOfProject(projectId: string, ids: string[]): Promise<Map<string, unknown>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('campaigns')
        .select(['id', 'settings'])
        .where('project_id', '=', projectId)
        .where('id', 'in', ids)
        .execute();
      return new Map(rows.map((r) => [r.id, r.settings]));
    },

    insert(projectId: string, values: ScenarioValues, researchIds: string[]): Promise<string> {
      return db.transaction().execute(async (trx) => {
        const { next } = await trx
          .selectFrom('scenarios')
          .select(sql<number>`coalesce(max(order_number), 0)::int + 1`.as('next'))
          .where('project_id', '=', projectId)
          .executeTakeFirstOrThrow();
        const { id } = await trx
          .insertInto('scenarios')
          .values({
            ...values,
            project_id: projectId,
            order_number: next,
            redirect_links: JSON.stringify(values.redirect_links),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await setResearches(trx, id, researchIds);
        return id;
      });
    },

    /** Applies the patch at `version` only; false when the scenario changed meanwhile. */
    update(id: string, version: Date, values: Partial<ScenarioValues>, researchIds?: string[]): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const { redirect_links, ...rest } = values;
        const result = await trx
          .updateTable('scenarios')
          .set({
            ...rest,
            ...(redirect_links ? { redirect_links: JSON.stringify(redirect_links) } : {}),
            updated_at: NEXT_VERSION,
          })
          .where('id', '=', id)
          .where('updated_at', '=', version)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return false;
        if (researchIds) await setResearches(trx, id, researchIds);
        return true;
      });
    },

    /** Deletes the scenario and closes the gap in the order. */
    delete(id: string, projectId: string): Promise<void> {
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('scenarios').where('id', '=', id).execute();
        await renumber(trx, projectId);
      });
    },

    /** Sets the order to exactly `ids` (all of the project's scenarios). */
    reorder(projectId: string, ids: string[]): Promise<void> {
      return db.transaction().execute(async (trx) => {
        for (const [i, id] of ids.entries()) {
          await trx
            .updateTable('scenarios')
            .set({ order_number: i + 1, updated_at: NEXT_VERSION })
            .where('id', '=', id)
            .where('project_id', '=', projectId)
            .execute();
        }
      });
    },

    // Quota links (project accessor links).
    listLinks(projectId: string): Promise<LinkWithSessions[]> {
      return db
        .selectFrom('project_accessor_links')
        .selectAll()
        .select(sessionsCount)
        .where('project_id', '=', projectId)
        .orderBy('created_at')
        .execute();
    },

    findLink(id: string): Promise<LinkWithSessions | undefined> {
      return db
        .selectFrom('project_accessor_links')
        .selectAll()
        .select(sessionsCount)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async insertLink(values: Omit<AccessorLinkRow, 'id' | 'created_at'>): Promise<string> {
      const row = await db
        .insertInto('project_accessor_links')
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async updateLink(
      id: string,
      patch: Partial<
        Pick<AccessorLinkRow, 'quota_size' | 'is_use_face_checker' | 'is_request_payment_data' | 'is_screener_first'>
      >,
    ): Promise<void> {
      await db.updateTable('project_accessor_links').set(patch).where('id', '=', id).execute();
    },
  };
}

async function renumber(trx: Transaction<DB>, projectId: string): Promise<void> {
  await sql`
    update scenarios s set order_number = o.n
    from (select id, row_number() over (order by order_number)::int as n from scenarios where project_id = ${projectId}) o
    where s.id = o.id`.execute(trx);
}

export type ScenariosRepository = ReturnType<typeof createScenariosRepository>;
