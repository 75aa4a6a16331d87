import type { FastifyInstance } from 'fastify';
import { beforeEach } from 'vitest';
import { loggedIn, markLaunched } from '../../test/harness.ts';
import { appWithFilesPerFile } from '../../test/per-file.ts';
import { insertRespondentSession } from '../../test/respondent-rows.ts';

/** A respondent session's row as a fieldwork test writes it: on the project's link unless it names another. */
type SessionRow = Omit<Parameters<typeof insertRespondentSession>[1], 'linkId'> & { linkId?: string };

/**
 * What every fieldwork test starts from: Alice and Bob logged in, Alice's project launched with its scenario, its one
 * link and its research, and `session` writing a respondent session's row on that link.
 */
async function launchedProjectOfAlice(app: FastifyInstance) {
  const { alice, bob } = await loggedIn(app, 'alice', 'bob');
  const projectId = await alice.draftProject();
  const scenarioId = await alice.readyToLaunch(projectId);
  const links = await alice.request('GET', `/api/cabinet/projects/${projectId}/project-accessor-links/`);
  const linkId: string = links.json().items[0].id;
  const researchId: string = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${projectId}`)).json()
    .items[0].id;
  await markLaunched(app, projectId);
  const session = (row: SessionRow) => insertRespondentSession(app, { linkId, ...row });
  return { alice, bob, projectId, scenarioId, linkId, researchId, session };
}

export type LaunchedProject = Awaited<ReturnType<typeof launchedProjectOfAlice>>;

/**
 * The setup of the fieldwork test files, called at a file's top level: one app for the file (with stored files), and
 * before each test (after the tables are emptied) Alice's launched project, handed to `keep` for the file's own names.
 */
export function fieldworkPerFile(keep: (project: LaunchedProject) => void) {
  const t = appWithFilesPerFile('fieldwork');
  beforeEach(async () => {
    keep(await launchedProjectOfAlice(t.app));
  });
  return t;
}
