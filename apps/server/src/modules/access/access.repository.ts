import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.ts';

/**
 * Which of the given ids a principal may act on. Each method takes the owner to check (`null` for
 * staff, who may act on every project) and answers the subset of ids it found: an id of someone
 * else's object, of an archived project's research or file, or of nothing at all is simply absent.
 */
export function createAccessRepository(db: Kysely<DB>) {
  const ids = (rows: { id: string }[]) => new Set(rows.map((r) => r.id));
  /**
   * A self-service test's project, scenario and quota link are its owner's only through the test (issue 15): the
   * test makes and launches them, and the owner reads the research, its files and reports as usual.
   */
  const notSelfService = sql<boolean>`not exists (select 1 from self_service_tests sst where sst.project_id = p.id)`;

  return {
    async projects(owner: string | null, candidates: string[]): Promise<Set<string>> {
      const rows = await db
        .selectFrom('projects as p')
        .select('p.id as id')
        .where('p.id', 'in', candidates)
        .$if(owner !== null, (q) => q.where('p.owner_id', '=', owner as string).where(notSelfService))
        .execute();
      return ids(rows);
    },

    /** An archived project hides its researches (spec section 4). */
    async researches(owner: string | null, candidates: string[]): Promise<Set<string>> {
      const rows = await db
        .selectFrom('campaigns as c')
        .innerJoin('projects as p', 'p.id', 'c.project_id')
        .select('c.id as id')
        .where('c.id', 'in', candidates)
        .where('p.status', '!=', 'archived')
        .$if(owner !== null, (q) => q.where('p.owner_id', '=', owner as string))
        .execute();
      return ids(rows);
    },

    async reports(owner: string | null, candidates: string[]): Promise<Set<string>> {
      const rows = await db
        .selectFrom('reports as r')
        .innerJoin('campaigns as c', 'c.id', 'r.campaign_id')
        .innerJoin('projects as p', 'p.id', 'c.project_id')
        .select('r.id as id')
        .where('r.id', 'in', candidates)
        .where('p.status', '!=', 'archived')
        .$if(owner !== null, (q) => q.where('p.owner_id', '=', owner as string))
        .execute();
      return ids(rows);
    },

    async scenarios(owner: string | null, candidates: string[]): Promise<Set<string>> {
      const rows = await db
        .selectFrom('scenarios as s')
        .innerJoin('projects as p', 'p.id', 's.project_id')
        .select('s.id as id')
        .where('s.id', 'in', candidates)
        .$if(owner !== null, (q) => q.where('p.owner_id', '=', owner as string).where(notSelfService))
        .execute();
      return ids(rows);
    },

    async quotaLinks(owner: string | null, candidates: string[]): Promise<Set<string>> {
      const rows = await db
        .selectFrom('project_accessor_links as l')
        .innerJoin('projects as p', 'p.id', 'l.project_id')
        .select('l.id as id')
        .where('l.id', 'in', candidates)
        .$if(owner !== null, (q) => q.where('p.owner_id', '=', owner as string).where(notSelfService))
        .execute();
      return ids(rows);
    },

    /** Files follow their research: hidden with an archived project. */
    async media(owner: string | null, candidates: string[]): Promise<Set<string>> {
      const rows = await db
        .selectFrom('media as m')
        .innerJoin('campaigns as c', 'c.id', 'm.campaign_id')
        .innerJoin('projects as p', 'p.id', 'c.project_id')
        .select('m.id as id')
        .where('m.id', 'in', candidates)
        .where('p.status', '!=', 'archived')
        .$if(owner !== null, (q) => q.where('p.owner_id', '=', owner as string))
        .execute();
      return ids(rows);
    },

    /** A questionnaire belongs to a user, not to a project: the projects that link it do not widen who sees it. */
    async surveys(owner: string | null, candidates: string[]): Promise<Set<string>> {
      const rows = await db
        .selectFrom('surveys')
        .select('id')
        .where('id', 'in', candidates)
        .$if(owner !== null, (q) => q.where('owner_id', '=', owner as string))
        .execute();
      return ids(rows);
    },

    /** A demo or interview analysis is its owner's alone (staff included: `owner` is always a user). */
    async demoAnalyses(owner: string | null, candidates: string[]): Promise<Set<string>> {
      if (owner === null) return new Set();
      const rows = await db
        .selectFrom('demo_analyses')
        .select('id')
        .where('id', 'in', candidates)
        .where('owner_id', '=', owner)
        .execute();
      return ids(rows);
    },

    /** A respondent session (its recording, its answers) follows its project, like the project's own page. */
    async respondentSessions(owner: string | null, candidates: string[]): Promise<Set<string>> {
      const rows = await db
        .selectFrom('respondent_sessions as s')
        .innerJoin('projects as p', 'p.id', 's.project_id')
        .select('s.id as id')
        .where('s.id', 'in', candidates)
        .$if(owner !== null, (q) => q.where('p.owner_id', '=', owner as string))
        .execute();
      return ids(rows);
    },

    /** A video process follows its research: hidden with an archived project, like the research. */
    async videoProcesses(owner: string | null, candidates: string[]): Promise<Set<string>> {
      const rows = await db
        .selectFrom('video_processes as v')
        .innerJoin('campaigns as c', 'c.id', 'v.campaign_id')
        .innerJoin('projects as p', 'p.id', 'c.project_id')
        .select('v.id as id')
        .where('v.id', 'in', candidates)
        .where('p.status', '!=', 'archived')
        .$if(owner !== null, (q) => q.where('p.owner_id', '=', owner as string))
        .execute();
      return ids(rows);
    },
  };
}

export type AccessRepository = ReturnType<typeof createAccessRepository>;
