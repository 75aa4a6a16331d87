import type { ContentType, Language, Platform } from '@emolens/contracts';
import type { FastifyInstance } from 'fastify';
import { beforeEach } from 'vitest';
import { type Client, loggedIn, type TestApp } from './harness.ts';

/** A draft project (simple audience, new flow) with these researches, made through the cabinet API. */
export interface DraftProject {
  title: string;
  platform: Platform;
  respondent_language: Language;
  researches: { title: string; content_type: ContentType }[];
}

/** The project made for the client's user: its id and its researches' ids, in order. */
export async function draftProjectWithResearches(
  client: Client,
  project: DraftProject,
): Promise<{ projectId: string; researchIds: string[] }> {
  const { researches, ...fields } = project;
  const made = await client.request('POST', '/api/cabinet/projects/', {
    body: { ...fields, audience_type: 'simple', flow_type: 'new' },
  });
  if (made.statusCode !== 201) throw new Error(`project not made: ${made.statusCode} ${made.body}`);
  const added = await client.request('POST', '/api/cabinet/projects/add-new-campaign/', {
    body: { project_id: made.json().id, campaigns_data: researches },
  });
  if (added.statusCode !== 201) throw new Error(`researches not added: ${added.statusCode} ${added.body}`);
  return {
    projectId: made.json().id as string,
    researchIds: added.json().campaigns.map((c: { id: string }) => c.id) as string[],
  };
}

/** Alice and Bob logged in, and the project made for Alice. */
export async function aliceAndBobWithProject(app: FastifyInstance, project: DraftProject) {
  const { alice, bob } = await loggedIn(app, 'alice', 'bob');
  return { alice, bob, ...(await draftProjectWithResearches(alice, project)) };
}

/**
 * Before each test of a file (after `appPerFile` has emptied the tables): Alice and Bob logged in, and the project
 * made for Alice. What it gives back always holds the current test's.
 */
export function aliceAndBobWithProjectEachTest(t: TestApp, project: DraftProject) {
  let current: Awaited<ReturnType<typeof aliceAndBobWithProject>> | undefined;
  beforeEach(async () => {
    current = await aliceAndBobWithProject(t.app, project);
  });
  const now = () => {
    if (!current) throw new Error('Alice, Bob and the project are made before each test (beforeEach)');
    return current;
  };
  return {
    get alice() {
      return now().alice;
    },
    get bob() {
      return now().bob;
    },
    get projectId() {
      return now().projectId;
    },
    get researchIds() {
      return now().researchIds;
    },
  };
}
