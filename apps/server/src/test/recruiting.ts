import type { Platform } from '@emolens/contracts';
import { signCompletionCode } from '../modules/respondents/completion-code.ts';
import { type ProlificContractServer, startProlificContractServer } from './contract-servers/prolific/server.ts';
import { startTolokaContractServer, type TolokaContractServer } from './contract-servers/toloka/server.ts';
import { type Client, createTestApp, loggedIn, markLaunched, type TestApp } from './harness.ts';
import { perFile } from './per-file.ts';
import { insertProcessedRespondent } from './report-rows.ts';
import { insertRespondentSession } from './respondent-rows.ts';

/** A launched research recruiting on a platform, as the recruiting tests start from it. */
export interface RecruitingResearch {
  alice: Client;
  bob: Client;
  projectId: string;
  researchId: string;
  /** The research's first quota link: its id and token. */
  linkId: string;
  linkToken: string;
}

/** Alice's launched project on `platform` (Bob logged in too), its research and first quota link. */
export async function launchedResearchOn(t: TestApp, platform: Platform): Promise<RecruitingResearch> {
  const { alice, bob } = await loggedIn(t.app, 'alice', 'bob');
  const projectId = await alice.draftProject();
  await alice.readyToLaunch(projectId);
  const [research] = (await alice.request('GET', `/api/cabinet/campaigns/?project_id=${projectId}`)).json().items;
  const [link] = (await alice.request('GET', `/api/cabinet/projects/${projectId}/project-accessor-links/`)).json()
    .items;
  await t.app.ctx.database.db.updateTable('projects').set({ platform }).where('id', '=', projectId).execute();
  await markLaunched(t.app, projectId);
  return { alice, bob, projectId, researchId: research.id, linkId: link.id, linkToken: link.token };
}

/**
 * A completed session of the research and its signed completion code: processed and usable (true), processed and
 * excluded (false), or not processed yet (null).
 */
export async function completedRespondent(
  t: TestApp,
  research: Pick<RecruitingResearch, 'projectId' | 'researchId' | 'linkId'>,
  usable: boolean | null,
  engagement = [0.4, 0.5, 0.6],
): Promise<{ sessionId: string; code: string }> {
  const { projectId, researchId, linkId } = research;
  const sessionId = await insertRespondentSession(t.app, { linkId, status: 'completed', outcome: 'complete' });
  if (usable !== null) await insertProcessedRespondent(t.app, { sessionId, researchId }, { engagement, usable });
  const code = await signCompletionCode(t.app.ctx.secret, {
    sid: sessionId,
    pid: projectId,
    cids: [researchId],
    par: null,
    outcome: 'complete',
  });
  return { sessionId, code };
}

/**
 * The usual setup of a Toloka test file: the Toloka contract server taking `token` (the requester's balance given)
 * and one app reaching it for the whole file, both closed after it; every table emptied before each test.
 */
export function tolokaAppPerFile(token: string, balance: number): TestApp & { readonly toloka: TolokaContractServer } {
  const t = perFile(async () => {
    const toloka = await startTolokaContractServer({ tokens: [token], balance });
    const app = await createTestApp({ tolokaBaseUrl: toloka.url, tolokaSandboxBaseUrl: toloka.url });
    return {
      ...app,
      toloka,
      close: async () => {
        await app.close();
        await toloka.close();
      },
    };
  });
  return Object.defineProperty(t, 'toloka', { get: () => t.now().toloka, enumerable: true }) as unknown as TestApp & {
    readonly toloka: TolokaContractServer;
  };
}

/** What a worker is told of an accepted assignment and of a rejected one, by reason. */
export const WORKER_FEEDBACK = {
  accepted: 'Thank you, your answer is accepted.',
  forged: 'The completion code is not valid.',
  excluded: /recording could not be used/,
};

/** The usual setup of a Prolific test file: the Prolific contract server taking `token`, one app reaching it. */
export function prolificAppPerFile(token: string): TestApp & { readonly prolific: ProlificContractServer } {
  const t = perFile(async () => {
    const prolific = await startProlificContractServer({ tokens: [token] });
    const app = await createTestApp({ prolificBaseUrl: prolific.url });
    return {
      ...app,
      prolific,
      close: async () => {
        await app.close();
        await prolific.close();
      },
    };
  });
  return Object.defineProperty(t, 'prolific', {
    get: () => t.now().prolific,
    enumerable: true,
  }) as unknown as TestApp & {
    readonly prolific: ProlificContractServer;
  };
}
